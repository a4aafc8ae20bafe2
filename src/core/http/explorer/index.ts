// The explorer page at `/` (docs/explorer.md): what a browser gets when it asks the server for
// HTML. `/docs` and `/api` send a browser there too. Everyone else (curl, fetch, a client with
// `Accept: application/json` or `*/*`) gets what they got without it: the API's 404. No Node
// imports: the core serves it the same in node:http and in fetch handlers; it is handed to the
// core as an option (HttpOptions.explorer), so a worker that does not ask for it does not bundle it.
import { negotiateEncoding, prefersHtml } from '../accept.js';
import { COMPRESS_MIN, Doc, type Platform } from '../compress.js';
import type { CoreRequest, CoreResponse } from '../core.js';
import { etagOf, ifNoneMatch } from '../etag.js';
import { toBase64Url } from '../sha256.js';
import { explorerDocument } from './page.js';

export interface ExplorerPage {
  /** The answer to `req` when it is a browser asking for the page, else undefined. */
  answer(req: CoreRequest, platform: Platform): CoreResponse | undefined;
}

/** Paths a person may type for the page; `/` serves it, the others redirect there. */
const PAGE_PATHS: ReadonlySet<string> = new Set(['/', '/api', '/api/', '/docs', '/docs/']);

function header(req: CoreRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** `'sha256-…'` of an inline block, as CSP wants it (standard base64, padded). */
function cspHash(platform: Platform, text: string): string {
  const b64 = toBase64Url(platform.sha256(platform.encodeText(text))).replace(/-/g, '+').replace(/_/g, '/');
  return `'sha256-${b64}='`;
}

interface Prepared {
  readonly doc: Doc;
  readonly headers: Readonly<Record<string, string>>;
}

// The page's bytes, digest and compressed variants: made once per platform, on the first visit.
const prepared = new WeakMap<Platform, Prepared>();

function prepare(platform: Platform): Prepared {
  let p = prepared.get(platform);
  if (!p) {
    const page = explorerDocument();
    // Nothing but the page's own hashed blocks runs or styles it; it talks to its own origin only.
    const csp = [
      "default-src 'none'",
      `script-src ${cspHash(platform, page.script)}`,
      `style-src ${cspHash(platform, page.style)}`,
      "connect-src 'self'",
      "img-src 'self' data:",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
    p = {
      doc: new Doc(platform.encodeText(page.html), platform),
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
    prepared.set(platform, p);
  }
  return p;
}

export const explorerPage: ExplorerPage = {
  answer(req, platform) {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !PAGE_PATHS.has(req.path) || !prefersHtml(header(req, 'accept'))) return undefined;
    if (req.path !== '/') {
      return { status: 302, headers: { location: '/', vary: 'Accept', 'cache-control': 'no-cache', 'content-length': '0' }, body: null };
    }
    const { doc, headers: fixed } = prepare(platform);
    const encoding = doc.bytes.length > COMPRESS_MIN ? negotiateEncoding(header(req, 'accept-encoding'), platform.encodings) : undefined;
    const headers: Record<string, string> = { ...fixed, etag: etagOf(doc.tag, encoding), vary: 'Accept, Accept-Encoding' };
    if (ifNoneMatch(header(req, 'if-none-match'), doc.tag)) {
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
  },
};
