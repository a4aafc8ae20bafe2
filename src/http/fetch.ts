// The WHATWG fetch adapter, for edge runtimes and in-process tests: `(Request) => Promise<Response>`.
// Same core as the node:http server; SHA-256 in plain JS (Web Crypto is async only), gzip through
// CompressionStream where the runtime has it (no br).
import type { MediaRecord } from '../snapshot/model.js';
import type { Snapshot } from '../snapshot/types.js';
import type { Encoding } from './accept.js';
import { HttpCore, type CoreResponse, type HttpOptions, type Platform, type QueryEngine } from './core.js';
import { defaultEngine } from './engine.js';
import { digestTag, etagOf, ifNoneMatch } from './etag.js';
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

async function readWithNodeFs(m: MediaRecord): Promise<Uint8Array | null> {
  try {
    const fs = await import('node:fs/promises');
    return new Uint8Array(await fs.readFile(m.source));
  } catch {
    return null;
  }
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
  const readMedia = options.readMedia ?? readWithNodeFs;

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
    const range = /^bytes=(\d*)-(\d*)$/.exec((h.range ?? '').trim());
    let status = 200;
    let part = bytes;
    if (range && (range[1] || range[2])) {
      const size = bytes.length;
      let start: number;
      let end: number;
      if (!range[1]) {
        start = Math.max(0, size - Number(range[2]));
        end = size - 1;
      } else {
        start = Number(range[1]);
        end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      }
      if (start >= size || start > end) {
        return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } });
      }
      status = 206;
      part = bytes.subarray(start, end + 1);
      headers['content-range'] = `bytes ${start}-${end}/${size}`;
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
