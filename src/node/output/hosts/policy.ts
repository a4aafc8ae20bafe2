// What every host recipe sends, whichever server sends it: the JSON type of the API documents,
// open CORS (ETag exposed, the If-None-Match preflight allowed) and the default Cache-Control.
// No Node imports.
import { MEDIA_CSP } from '../../../core/http/media-headers.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What a static elmapi3 tree's host answers a `project-id` header naming another project (a
 * request without one is served: a browser or curl sends none).
 */
export const WRONG_PROJECT = '{"message":"Project not found."}';

/**
 * Default Cache-Control. API documents keep their URL across deploys: a cache must ask again
 * (ETag → 304) before each use. Media URLs are not content-hashed either, so an hour, not forever.
 */
export const DEFAULT_API_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
export const DEFAULT_MEDIA_CACHE_CONTROL = 'public, max-age=3600';

export interface CacheControl {
  readonly api: string;
  readonly media: string;
}

export const DEFAULT_CACHE_CONTROL: CacheControl = { api: DEFAULT_API_CACHE_CONTROL, media: DEFAULT_MEDIA_CACHE_CONTROL };

/** CORS of every answer: any origin may read, see the ETag, and revalidate with If-None-Match. */
export const CORS_HEADERS: readonly (readonly [string, string])[] = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', 'ETag'],
];

/**
 * No type guessing, on every answer (documents, 404/400/405 bodies, media): a browser must not read
 * JSON or an error that quotes the request as HTML or script.
 */
export const NOSNIFF = ['X-Content-Type-Options', 'nosniff'] as const;

/**
 * What every media file and thumbnail carries besides CORS (media-headers.ts): a sandbox with no
 * script, and no type guessing. A file a browser could open as a document is also a download
 * (`Content-Disposition: attachment`, by its exact path: HostInput.downloads).
 */
export const MEDIA_HEADERS: readonly (readonly [string, string])[] = [['Content-Security-Policy', MEDIA_CSP], NOSNIFF];

export const DOWNLOAD_HEADER = ['Content-Disposition', 'attachment'] as const;

/** The answer to a preflight (OPTIONS): a client that read the ETag sends If-None-Match. */
export const PREFLIGHT_HEADERS: readonly (readonly [string, string])[] = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS'],
  // Authorization and project-id: the ElmapiCMS v3 SDK sends both on every request (a static tree ignores
  // them); `*`: any header a client adds (Content-Type on a GET), as src/core/http/cors.ts says.
  ['Access-Control-Allow-Headers', 'If-None-Match, Accept, Authorization, project-id, *'],
  ['Access-Control-Max-Age', '86400'],
];

/** A 404 document and the request paths it answers (`/api/x/*`), most specific first. */
export interface NotFoundDocument {
  readonly from: string;
  readonly file: string;
  /** The 400 body answered to a query string on these paths (not-found.ts queryRefused()). */
  readonly query: string;
}

/** '/api/x/*' → '/api/x/' (the prefix a server's location matches). */
export function prefixOf(from: string): string {
  return from.endsWith('*') ? from.slice(0, -1) : from;
}

/**
 * A media file's extension, lower-cased, when it is one a host's type table can hold (`heic`,
 * `tar.gz` → `gz`), else undefined: the file is then sent as the host's default type.
 */
export function mediaExtension(id: string): string | undefined {
  const name = id.slice(id.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return /^[a-z0-9][a-z0-9+_-]{0,31}$/.test(ext) ? ext : undefined;
}
