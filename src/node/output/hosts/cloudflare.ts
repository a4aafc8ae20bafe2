// `cqa build --host cloudflare`: Cloudflare Pages accepts only redirect and 200 statuses in
// `_redirects` (a `404` rule is reported invalid and dropped, and unknown API paths then answer an
// empty body). It answers a missing file with the nearest `404.html` instead, status 404: so each
// JSON 404 document is also written as the `404.html` of its folder, typed JSON by `_headers`
// (which goes by the request path). Tested with miniflare's asset server in
// test/hosting/hosts.slow.test.ts. No Node imports.
import type { ProjectRecord } from '../../../core/model/model.js';
import type { HostFile } from './index.js';

export function cloudflareNotFoundPages(notFound: readonly { readonly file: string; readonly text: string }[]): HostFile[] {
  return notFound.map((r) => ({ rel: `${r.file.slice(0, r.file.lastIndexOf('/'))}/404.html`, text: r.text }));
}

/**
 * Why `cqa build --host cloudflare` refuses one of these projects' media, or undefined (`cqa check`
 * says it too): Pages would answer every missing file of a media file's folder, and of the folders
 * below, with a media file named `404.html` (status 404, text/html; found from outside, in
 * miniflare: `/media/p/site/nope.png` was `media/p/site/404.html`), and no `_headers` or
 * `_redirects` rule can send those paths elsewhere.
 */
export function pagesNotFoundMedia(projects: Iterable<{ readonly record: Pick<ProjectRecord, 'id' | 'media'> }>): string | undefined {
  for (const { record } of projects) {
    const page = record.media.find((m) => /(^|\/)404\.html$/.test(m.id));
    if (!page) continue;
    const folder = `media/${record.id}/${page.id.slice(0, page.id.lastIndexOf('/') + 1)}`;
    return `the media file '${page.id}' would be Cloudflare Pages' 404 page for /${folder}: Pages answers every missing file there with the nearest 404.html, this file (status 404, text/html); rename it (e.g. '${page.id.replace(/404\.html$/, 'not-found.html')}'), or build for another --host`;
  }
  return undefined;
}
