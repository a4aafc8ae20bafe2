// `cqa build --host cloudflare`: Cloudflare Pages accepts only redirect and 200 statuses in
// `_redirects` (a `404` rule is reported invalid and dropped, and unknown API paths then answer an
// empty body). It answers a missing file with the nearest `404.html` instead, status 404: so each
// JSON 404 document is also written as the `404.html` of its folder, typed JSON by `_headers`
// (which goes by the request path). Tested with miniflare's asset server in
// test/hosting/hosts.slow.test.ts. No Node imports.
import type { HostFile } from './index.js';

export function cloudflareNotFoundPages(notFound: readonly { readonly file: string; readonly text: string }[]): HostFile[] {
  return notFound.map((r) => ({ rel: `${r.file.slice(0, r.file.lastIndexOf('/'))}/404.html`, text: r.text }));
}
