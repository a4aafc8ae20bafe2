// `cqa build --host`: the configuration files a host needs beside the documents, in the spirit of
// SvelteKit's adapters — the build writes them, nobody copies a recipe by hand. Every host also
// gets `_headers` and `_redirects` (Netlify's syntax) unless it has its own form of them.
// No Node imports.
import { caddyfile } from './caddy.js';
import { cloudflareNotFoundPages } from './cloudflare.js';
import { nginxConf } from './nginx.js';
import { serveJson } from './serve.js';
import type { CacheControl, NotFoundDocument } from './policy.js';

export type Host = 'netlify' | 'cloudflare' | 'nginx' | 'caddy' | 'serve';
export const HOST_CHOICES: readonly Host[] = ['netlify', 'cloudflare', 'nginx', 'caddy', 'serve'];

export interface HostFile {
  readonly rel: string;
  readonly text: string;
}

/** Whether the host takes `_redirects` rules with status 404 (Cloudflare Pages refuses them). */
export function takesNotFoundRules(host: Host): boolean {
  return host !== 'cloudflare';
}

/** The files `host` needs besides `_headers`/`_redirects` (see dist.ts). */
export interface HostInput {
  /** The 404 documents, most specific first (not-found.ts); the last is the catch-all `api/404.json`. */
  readonly notFound: readonly (NotFoundDocument & { readonly text: string })[];
  readonly cache: CacheControl;
  readonly thumbs: boolean;
  /** The most segments after `/api/` of any document path. */
  readonly depth: number;
  /** Every file of the build but the host's own (no .gz/.br siblings). */
  readonly files: readonly string[];
  /** The paths of media files of a type a browser could open as a document (`/media/p/x.svg`): sent as downloads. */
  readonly downloads: readonly string[];
  /** Each media extension of the build (lower-case) and the type the documents give it (`mime_type`). */
  readonly mediaTypes: ReadonlyMap<string, string>;
  /** An elmapi3 tree's project uuid: a `project-id` header naming another is answered 404. */
  readonly v3Project?: string | undefined;
}

/** Whether the host reads `_headers` and `_redirects` (the others get their own configuration instead). */
export function readsHeadersFile(host: Host): boolean {
  return host === 'netlify' || host === 'cloudflare';
}

export function hostFiles(host: Host, { notFound, cache, thumbs, depth, files, downloads, mediaTypes, v3Project }: HostInput): HostFile[] {
  // An elmapi3 tree (`--project`) answers /api itself with its project document (the SDK asks /api/).
  const root = files.includes('api/index.json');
  switch (host) {
    case 'cloudflare':
      return cloudflareNotFoundPages(notFound);
    case 'nginx':
      return [{ rel: '_nginx.conf', text: nginxConf(notFound, cache, thumbs, downloads, v3Project, mediaTypes) }];
    case 'caddy':
      return [{ rel: '_Caddyfile', text: caddyfile(notFound, cache, thumbs, downloads, v3Project, mediaTypes) }];
    case 'serve': {
      // serve answers a missing file with the root 404.html, the `cqa` problem (typed by serve.json).
      const catchAll = notFound[notFound.length - 1];
      const own = ['serve.json', ...(catchAll ? ['404.html'] : [])];
      return [
        { rel: 'serve.json', text: serveJson(depth, cache, thumbs, [...files, ...own], downloads, root, mediaTypes) },
        ...(catchAll ? [{ rel: '404.html', text: catchAll.text }] : []),
      ];
    }
    default:
      return [];
  }
}
