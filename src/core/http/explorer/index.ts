// The explorer page at `/` (docs/explorer.md): what a browser gets when it asks the server for
// HTML. `/docs` and `/api` send a browser there too. Everyone else (curl, fetch, a client with
// `Accept: application/json` or `*/*`) gets what they got without it: the API's 404. No Node
// imports: the core serves it the same in node:http and in fetch handlers; it is handed to the
// core as an option (HttpOptions.explorer), so a worker that does not ask for it does not bundle it.
// Given Swagger UI's files (the Node servers read them from the package), `/reference` is the API
// reference page, rendered from /openapi.json.
import { header } from '../header.js';
import { negotiateEncoding, prefersHtml } from '../accept.js';
import { COMPRESS_MIN, Doc, type Platform } from '../compress.js';
import type { CoreRequest, CoreResponse } from '../core.js';
import { etagOf, ifNoneMatch } from '../etag.js';
import { toBase64Url } from '../sha256.js';
import { explorerDocument, referenceDocument, type InlineDocument, type ReferenceAssets } from './page.js';

export interface ExplorerPage {
  /** The answer to `req` when it is a browser asking for the page, else undefined. */
  answer(req: CoreRequest, platform: Platform): CoreResponse | undefined;
}

export interface ExplorerOptions {
  /**
   * Swagger UI's files for the API reference page at `/reference` (read when a browser first asks
   * for it). Without them the page has no reference link and `/reference` is the API's 404.
   */
  readonly reference?: () => ReferenceAssets;
}

/** Paths a person may type for the page; `/` serves it, the others redirect there. */
const PAGE_PATHS: ReadonlySet<string> = new Set(['/', '/api', '/api/', '/docs', '/docs/']);
const REFERENCE_PATHS: ReadonlySet<string> = new Set(['/reference', '/reference/']);

/** `'sha256-…'` of an inline block, as CSP wants it (standard base64, padded). */
function cspHash(platform: Platform, text: string): string {
  const b64 = toBase64Url(platform.sha256(platform.encodeText(text)))
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  return `'sha256-${b64}='`;
}

interface Prepared {
  readonly doc: Doc;
  readonly headers: Readonly<Record<string, string>>;
}

/** The page's bytes and headers: nothing but its own hashed blocks runs or styles it; it talks to its own origin only. */
function prepare(page: InlineDocument, platform: Platform): Prepared {
  const csp = [
    "default-src 'none'",
    `script-src ${page.scripts.map((s) => cspHash(platform, s)).join(' ')}`,
    `style-src ${page.styles.map((s) => cspHash(platform, s)).join(' ')}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const doc = new Doc(platform.encodeText(page.html), platform);
  doc.kept = true; // made once per platform
  return {
    doc,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      // A window that opened this page (a media file, say) keeps no handle on it, nor it on the opener.
      'cross-origin-opener-policy': 'same-origin',
      // Revalidated on each visit (a cheap 304), so a new version of the package shows at once.
      'cache-control': 'no-cache',
    },
  };
}

function answerWith(req: CoreRequest, platform: Platform, { doc, headers: fixed }: Prepared): CoreResponse {
  const encoding =
    doc.bytes.length > COMPRESS_MIN ? negotiateEncoding(header(req.headers, 'accept-encoding'), platform.encodings) : undefined;
  const headers: Record<string, string> = { ...fixed, etag: etagOf(doc.tag, encoding), vary: 'Accept, Accept-Encoding' };
  if (ifNoneMatch(header(req.headers, 'if-none-match'), doc.tag)) {
    delete headers['content-type'];
    return { status: 304, headers, body: null };
  }
  if (!encoding) {
    headers['content-length'] = String(doc.bytes.length);
    return { status: 200, headers, body: req.method === 'HEAD' ? null : doc.bytes };
  }
  headers['content-encoding'] = encoding;
  const variant = doc.variant(encoding);
  if (variant) headers['content-length'] = String(variant.length);
  const body = req.method === 'HEAD' ? null : (variant ?? doc.bytes);
  return variant ? { status: 200, headers, body } : { status: 200, headers, body, encode: encoding };
}

/** The explorer (and, given Swagger UI's files, the API reference page) for browsers. */
export function createExplorerPage(options: ExplorerOptions = {}): ExplorerPage {
  const { reference } = options;
  // Made once per platform, on the first visit.
  const pages = new WeakMap<Platform, Prepared>();
  const references = new WeakMap<Platform, Prepared>();
  return {
    answer(req, platform) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
      const isReference = reference !== undefined && REFERENCE_PATHS.has(req.path);
      if ((!PAGE_PATHS.has(req.path) && !isReference) || !prefersHtml(header(req.headers, 'accept'))) return undefined;
      if (req.path !== '/' && req.path !== '/reference') {
        return {
          status: 302,
          headers: { location: isReference ? '/reference' : '/', vary: 'Accept', 'cache-control': 'no-cache', 'content-length': '0' },
          body: null,
        };
      }
      const cache = isReference ? references : pages;
      let p = cache.get(platform);
      if (!p) {
        p = prepare(isReference && reference ? referenceDocument(reference()) : explorerDocument(reference !== undefined), platform);
        cache.set(platform, p);
      }
      return answerWith(req, platform, p);
    },
  };
}

/** The explorer page without the API reference (an edge worker opts in to it: docs/edge.md). */
export const explorerPage: ExplorerPage = /* @__PURE__ */ createExplorerPage();
