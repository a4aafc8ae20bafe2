// The WHATWG fetch adapter, for edge runtimes and in-process tests: `(Request) => Promise<Response>`.
// Same core as the node:http server; SHA-256 in plain JS (Web Crypto is async only), gzip through
// CompressionStream where the runtime has it (no br).
import type { MediaRecord } from '../snapshot/model.js';
import type { Snapshot } from '../snapshot/types.js';
import type { Encoding } from './accept.js';
import { HttpCore, type CoreResponse, type HttpOptions, type Platform, type QueryEngine } from './core.js';
import { defaultEngine } from './engine.js';
import { digestTag, etagOf, ifNoneMatch } from './etag.js';
import { mediaRoot } from './media-root.js';
import { contentRange, parseRange } from './range.js';
import { sha256, toHex } from './sha256.js';

export interface HandlerOptions extends HttpOptions {
  /**
   * Reads a media file for `/media/...`. Default: node:fs when the runtime has it; elsewhere,
   * media files answer 404 (serve them from your CDN, `full_url` points there with --base-url).
   */
  readonly readMedia?: (media: MediaRecord) => Promise<Uint8Array | null>;
  /** The query engine (default: the built-in one). */
  readonly engine?: QueryEngine;
}

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

/**
 * The default media reader where the runtime has node:fs: the file is checked as it is opened
 * (open-file.ts), so a link swapped in after validation is not followed out of the media folder.
 * Imported lazily, so that importing this module evaluates no Node-only code.
 */
function nodeMediaReader(): (m: MediaRecord) => Promise<Uint8Array | null> {
  let files: Promise<typeof import('./open-file.js')> | undefined;
  let roots: import('./open-file.js').ServedRoots | undefined;
  return async (m) => {
    try {
      files ??= import('./open-file.js');
      const { ServedRoots, readInside } = await files;
      roots ??= new ServedRoots();
      return await readInside(roots.get(mediaRoot(m)), m.id);
    } catch {
      return null;
    }
  };
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

export function createHandler(snapshot: Snapshot, options: HandlerOptions = {}): FetchHandler {
  const core = new HttpCore(snapshot, webPlatform, options.engine ?? defaultEngine, options);
  const readMedia = options.readMedia ?? nodeMediaReader();

  const media = async (request: Request, r: CoreResponse, m: MediaRecord): Promise<Response> => {
    const bytes = await readMedia(m);
    const h = Object.fromEntries(request.headers);
    if (!bytes) {
      return toResponse(core.problem({ method: request.method, path: '', query: '', headers: h }, { status: 404, code: 'not_found', detail: `the media file '${m.id}' is not available here` }));
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
    const r = core.handle({ method: request.method.toUpperCase(), path, query, headers });
    if (r.media) return media(request, r, r.media);
    if (r.encode && r.body !== null) {
      const body = typeof r.body === 'string' ? encoder.encode(r.body) : r.body;
      return toResponse(r, compressed(body, r.encode));
    }
    return toResponse(r);
  }) as FetchHandler;
  handler.swap = (s) => core.swap(s);
  Object.defineProperty(handler, 'snapshot', { get: () => core.snapshot });
  return handler;
}
