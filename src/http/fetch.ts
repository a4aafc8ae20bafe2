// The WHATWG fetch adapter, for edge runtimes and in-process tests: `(Request) => Promise<Response>`.
// Same core as the node:http server; SHA-256 in plain JS (Web Crypto is async only), gzip through
// CompressionStream where the runtime has it (no br) — or, in Cloudflare Workers, br/gzip by the
// runtime (see `compression`). Runtime-free: nothing here or below imports Node
// (content-query-api/edge exports it as it is); the main entry's createHandler (fetch-node.ts) adds
// the node:fs media reader.
import type { MediaRecord } from '../snapshot/model.js';
import type { Snapshot } from '../snapshot/types.js';
import type { Encoding } from './accept.js';
import { HttpCore, type CoreResponse, type HttpOptions, type Platform, type QueryEngine } from './core.js';
import { defaultEngine } from './engine.js';
import { digestTag, etagOf, ifNoneMatch } from './etag.js';
import { contentRange, parseRange } from './range.js';
import { sha256, toHex } from './sha256.js';

export interface HandlerOptions extends HttpOptions {
  /**
   * Reads a media file for `/media/...` (null: not there, 404). Without one, media files answer
   * 404: serve them from a CDN (`full_url` points there with --base-url). The main entry's
   * createHandler reads them from disk by default.
   */
  readonly readMedia?: MediaReader;
  /**
   * Gives the thumbnail of a media item that has one (`/media/<project>/_thumbs/<media id>`, the
   * `elmapi` dialect; null: 404). Without one, thumbnails answer 404. The main entry's
   * createHandler makes them from the files on disk (per request: `cqa serve` caches them).
   */
  readonly readThumbnail?: MediaReader;
  /** The query engine (default: the built-in one). */
  readonly engine?: QueryEngine;
  /**
   * Who compresses answers. 'handler': gzip through CompressionStream. 'runtime': the handler
   * picks the coding (br or gzip) from the client's Accept-Encoding and sets Content-Encoding, with
   * the ETag and Vary that go with it, on the plain body; the runtime encodes it. Cloudflare Workers
   * work that way (and would compress an already compressed body again). Default: 'runtime' in
   * Cloudflare Workers, else 'handler'.
   */
  readonly compression?: 'handler' | 'runtime';
}

/** Reads one media file's bytes; `media.source` says where it is (for a loaded snapshot: `<project>/<id>`). */
export type MediaReader = (media: MediaRecord) => Promise<Uint8Array | null>;

export interface FetchHandler {
  (request: Request): Promise<Response>;
  /** Serve another snapshot from now on (atomic). */
  swap(snapshot: Snapshot): void;
  readonly snapshot: Snapshot;
}

const encoder = new TextEncoder();

export const webPlatform: Platform = {
  sha256,
  sha256Hex: (text) => toHex(sha256(encoder.encode(text))),
  encodeText: (text) => encoder.encode(text),
  encodings: typeof CompressionStream === 'function' ? ['gzip'] : [],
};

const noMedia: MediaReader = async () => null;

/** Workers encode a body by its Content-Encoding header, br and gzip (navigator.userAgent says where we are). */
const inWorkers = () => typeof navigator === 'object' && navigator?.userAgent === 'Cloudflare-Workers';
const runtimePlatform: Platform = { ...webPlatform, encodings: ['br', 'gzip'] };

/**
 * The Accept-Encoding the client sent. Workers hand the worker `br, gzip` whatever it was (the
 * edge decodes for clients that cannot) and keep the original in `request.cf.clientAcceptEncoding`.
 */
function clientAcceptEncoding(request: Request): string | undefined {
  const cf = (request as { cf?: { clientAcceptEncoding?: string | null } }).cf;
  return cf?.clientAcceptEncoding ?? request.headers.get('accept-encoding') ?? undefined;
}

function compressed(body: Uint8Array, encoding: Encoding): ReadableStream<Uint8Array> {
  return new Blob([body as unknown as BlobPart]).stream().pipeThrough(new CompressionStream(encoding === 'br' ? ('br' as CompressionFormat) : 'gzip'));
}

function toResponse(r: CoreResponse, body: BodyInit | null = r.body as BodyInit | null): Response {
  return new Response(body, { status: r.status, headers: r.headers });
}

function splitUrl(url: string): { path: string; query: string } {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  let target = start < 0 ? '/' : url.slice(start);
  const hash = target.indexOf('#');
  if (hash >= 0) target = target.slice(0, hash);
  const q = target.indexOf('?');
  return q < 0 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

/** Responses whose status was injected (fail-rate, `Prefer: status=`): the MSW journal asks. */
const injectedResponses = new WeakSet<Response>();
export const wasInjected = (response: Response): boolean => injectedResponses.has(response);

export function createHandler(snapshot: Snapshot, options: HandlerOptions = {}): FetchHandler {
  const byRuntime = (options.compression ?? (inWorkers() ? 'runtime' : 'handler')) === 'runtime';
  const core = new HttpCore(snapshot, byRuntime ? runtimePlatform : webPlatform, options.engine ?? defaultEngine, options);
  const readMedia = options.readMedia ?? noMedia;
  const readThumbnail = options.readThumbnail ?? noMedia;

  const media = async (request: Request, r: CoreResponse, m: MediaRecord): Promise<Response> => {
    const bytes = await (r.thumb ? readThumbnail : readMedia)(m);
    const h = Object.fromEntries(request.headers);
    if (!bytes) {
      const detail = r.thumb
        ? `the thumbnail of the media file '${m.id}' is not available here`
        : options.readMedia
        ? `the media file '${m.id}' is not available here`
        : `media files are not served here (the handler was given no readMedia): fetch '${m.id}' from its full_url`;
      return toResponse(core.problem({ method: request.method, path: '', query: '', headers: h }, { status: 404, code: 'not_found', detail }));
    }
    const tag = digestTag(sha256(bytes));
    const headers: Record<string, string> = {
      ...r.headers,
      'content-type': m.mime_type,
      etag: etagOf(tag),
      'accept-ranges': 'bytes',
      'cache-control': 'no-cache',
    };
    if (ifNoneMatch(h['if-none-match'], tag)) return new Response(null, { status: 304, headers });
    const size = bytes.length;
    const range = parseRange(h.range, size, h['if-range'], headers.etag);
    if (range.kind === 'unsatisfiable') {
      return new Response(null, { status: 416, headers: { ...headers, 'content-range': contentRange(range, size) } });
    }
    let status = 200;
    let part = bytes;
    if (range.kind === 'partial') {
      status = 206;
      part = bytes.subarray(range.start, range.end + 1);
      headers['content-range'] = contentRange(range, size);
    }
    headers['content-length'] = String(part.length);
    return new Response(request.method === 'HEAD' ? null : (part as BodyInit), { status, headers });
  };

  const handler = (async (request: Request): Promise<Response> => {
    const { path, query } = splitUrl(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      headers[k] = v;
    });
    if (byRuntime) {
      const accept = clientAcceptEncoding(request);
      if (accept === undefined) delete headers['accept-encoding'];
      else headers['accept-encoding'] = accept;
    }
    const r = core.handle({ method: request.method.toUpperCase(), path, query, headers });
    if (r.delay) await new Promise((done) => setTimeout(done, r.delay)); // options.delay, Prefer: delay=
    if (r.media) return media(request, r, r.media);
    if (r.encode && r.body !== null && !byRuntime) {
      const body = typeof r.body === 'string' ? encoder.encode(r.body) : r.body;
      return toResponse(r, compressed(body, r.encode));
    }
    const response = toResponse(r);
    if (r.injected) injectedResponses.add(response);
    return response;
  }) as FetchHandler;
  handler.swap = (s) => core.swap(s);
  Object.defineProperty(handler, 'snapshot', { get: () => core.snapshot });
  return handler;
}
