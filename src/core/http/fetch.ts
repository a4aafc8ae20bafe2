// The WHATWG fetch adapter, for edge runtimes and in-process tests: `(Request) => Promise<Response>`.
// Same core as the node:http server; SHA-256 in plain JS (Web Crypto is async only), gzip through
// CompressionStream where the runtime has it (no br) — or, in Cloudflare Workers, br/gzip by the
// runtime (see `compression`). Runtime-free: nothing here or below imports Node
// (content-query-api/edge exports it as it is); the main entry's createHandler (fetch-node.ts) adds
// the node:fs media reader.
import type { MediaRecord } from '../model/model.js';
import type { Snapshot } from '../model/types.js';
import type { Encoding } from './accept.js';
import type { Problem } from './problem.js';
import { HttpCore, type CoreResponse, type HttpOptions, type Platform, type QueryEngine } from './core.js';
import { defaultEngine } from './engine.js';
import { checkOptions, type Clash, HTTP_KEYS, HTTP_KINDS, optionKeys, refuseTogether } from './options.js';
import { digestTag, etagOf, ifNoneMatch } from './etag.js';
import { closedBeforeOverride } from './contract-controls.js';
import { checkControls } from './controls.js';
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
   * Gives the thumbnail of a media item that has one (`/thumbs/<project>/<media id>`, the
   * `elmapi` dialect; null: 404). Without one, thumbnails answer 404. The main entry's
   * createHandler makes them from the files on disk and keeps them, as `cqa serve` does (ThumbnailCache).
   */
  readonly readThumbnail?: MediaReader;
  /**
   * Opens a media file for `/media/...` without reading it (null: not there, 404): the answer
   * reads only the bytes it sends, and validates by `tag`. Instead of readMedia (not both); the
   * main entry's createHandler opens files on disk this way by default.
   */
  readonly openMedia?: (media: MediaRecord) => Promise<MediaFile | null>;
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

/** Thrown by a reader to answer with `problem` (e.g. a thumbnail refused: 422) rather than 404. */
export class MediaProblem extends Error {
  constructor(
    readonly problem: Problem,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.detail);
  }
}

/** A media file opened for an answer (see HandlerOptions.openMedia). */
export interface MediaFile {
  readonly size: number;
  /** A strong validator of the file's content (the ETag without quotes). */
  readonly tag: string;
  readonly modified?: Date;
  /** Bytes start..end (inclusive), read as the body is consumed; closes the file when done. */
  body(start: number, end: number): ReadableStream<Uint8Array>;
  /** Closes the file without reading (an answer with no body). Safe to call twice. */
  close(): void;
}

/** Reads one media file's bytes; `media.source` says where it is (for a loaded snapshot: `<project>/<id>`). */
export type MediaReader = (media: MediaRecord) => Promise<Uint8Array | null>;

export interface FetchHandler {
  (request: Request): Promise<Response>;
  /** Serve another snapshot from now on (atomic). */
  swap(snapshot: Snapshot): void;
  /**
   * Sends every answer a delay holds back now, and holds none back from then on (as startServer's
   * close() does): no timer of the handler outlives a test. A request whose override (MSW) has not
   * answered yet is answered 503 now. The handler still answers.
   */
  close(): void;
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
  return new Blob([body as unknown as BlobPart])
    .stream()
    .pipeThrough(new CompressionStream(encoding === 'br' ? ('br' as CompressionFormat) : 'gzip'));
}

/** An answer quotes what the request sent (a path, a field name): never to be read as another type. */
function toResponse(r: CoreResponse, body: BodyInit | null = r.body as BodyInit | null): Response {
  return new Response(body, { status: r.status, headers: { ...r.headers, 'x-content-type-options': 'nosniff' } });
}

/** A Request's URL (absolute, normalised by the URL parser) as path, query and, for http(s), origin. */
function splitUrl(url: string): { path: string; query: string; origin: string | undefined } {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const origin = /^https?:/.test(url) ? (start < 0 ? url : url.slice(0, start)) : undefined;
  let target = start < 0 ? '/' : url.slice(start);
  const hash = target.indexOf('#');
  if (hash >= 0) target = target.slice(0, hash);
  const q = target.indexOf('?');
  return q < 0 ? { path: target, query: '', origin } : { path: target.slice(0, q), query: target.slice(q + 1), origin };
}

/** Responses whose status was injected (fail-rate, `Prefer: status=`): the MSW journal asks. */
const injectedResponses = new WeakSet<Response>();
export const wasInjected = (response: Response): boolean => injectedResponses.has(response);

/** An answer of the caller's own (an override), or undefined: the API answers. */
export type OwnAnswer = () => Promise<CoreResponse | undefined>;
const ownAnswers = new WeakMap<FetchHandler, (request: Request, own: OwnAnswer) => Promise<Response>>();

/**
 * `handler`'s answer to `request` with `own` (the MSW handlers' overrides) tried in place of the
 * API's, under the same controls: delay, fail-rate, Prefer (docs/contract-tests.md). Only for a
 * request an override takes: after close() it is answered 503 without asking `own`.
 */
export function answerOwn(handler: FetchHandler, request: Request, own: OwnAnswer): Promise<Response> {
  const respond = ownAnswers.get(handler);
  if (!respond) throw new TypeError('answerOwn: not a handler of createHandler');
  return respond(request, own);
}

/** The options createHandler knows (HandlerOptions). */
export const HANDLER_KEYS: readonly string[] = [
  ...HTTP_KEYS,
  ...optionKeys<Omit<HandlerOptions, keyof HttpOptions>>()(['readMedia', 'readThumbnail', 'openMedia', 'engine', 'compression']),
];

/** The handler of `snapshot`; an option it does not know throws a TypeError naming the closest one. */
export function createHandler(snapshot: Snapshot, options: HandlerOptions = {}): FetchHandler {
  checkOptions('createHandler', options, HANDLER_KEYS, HTTP_KINDS);
  refuseTogether('createHandler', [mediaClash(options)]);
  checkControls(options, 'createHandler');
  return handlerOf(snapshot, options);
}

/** readMedia beside openMedia: media files are opened, and readMedia was never asked. */
export const mediaClash = (options: HandlerOptions): Clash => [
  options.readMedia !== undefined && options.openMedia !== undefined,
  'readMedia and openMedia were both given; give one: media files are opened with openMedia, and readMedia would never be asked',
];

/** createHandler without the check of its options (for callers that pass on options of their own). */
export function handlerOf(snapshot: Snapshot, options: HandlerOptions = {}): FetchHandler {
  const byRuntime = (options.compression ?? (inWorkers() ? 'runtime' : 'handler')) === 'runtime';
  const core = new HttpCore(snapshot, byRuntime ? runtimePlatform : webPlatform, options.engine ?? defaultEngine, options);
  const readMedia = options.readMedia ?? noMedia;
  const readThumbnail = options.readThumbnail ?? noMedia;

  const openMedia = options.openMedia;

  const media = async (request: Request, r: CoreResponse, m: MediaRecord): Promise<Response> => {
    const h = Object.fromEntries(request.headers);
    if (!r.thumb && openMedia) {
      const file = await openMedia(m);
      if (file) return answer(request, r, m, h, file.size, file.tag, file.modified, (start, end) => file.body(start, end), file.close);
    } else {
      let bytes: Uint8Array | null;
      try {
        bytes = await (r.thumb ? readThumbnail : readMedia)(m);
      } catch (err) {
        if (!(err instanceof MediaProblem)) throw err;
        return toResponse(core.problem({ method: request.method, path: '', query: '', headers: h }, err.problem, err.headers));
      }
      if (bytes)
        return answer(
          request,
          r,
          m,
          h,
          bytes.length,
          digestTag(sha256(bytes)),
          undefined,
          (start, end) => bytes.subarray(start, end + 1) as BodyInit,
          () => undefined,
        );
    }
    const detail = r.thumb
      ? `the thumbnail of the media file '${m.id}' is not available here`
      : options.readMedia || openMedia
        ? `the media file '${m.id}' is not available here`
        : `media files are not served here (the handler was given no readMedia): fetch '${m.id}' from its full_url`;
    return toResponse(
      core.problem({ method: request.method, path: '', query: '', headers: h }, { status: 404, code: 'not_found', detail }),
    );
  };

  /** A media answer: If-None-Match, Range, HEAD; `body` is asked only for the bytes sent. */
  const answer = (
    request: Request,
    r: CoreResponse,
    m: MediaRecord,
    h: Record<string, string>,
    size: number,
    tag: string,
    modified: Date | undefined,
    body: (start: number, end: number) => BodyInit,
    close: () => void,
  ): Response => {
    const headers: Record<string, string> = {
      ...r.headers,
      'content-type': m.mime_type,
      etag: etagOf(tag),
      'accept-ranges': 'bytes',
      'cache-control': 'no-cache',
    };
    if (modified) headers['last-modified'] = modified.toUTCString();
    if (ifNoneMatch(h['if-none-match'], tag)) {
      close();
      return new Response(null, { status: 304, headers });
    }
    const range = parseRange(h.range, size, h['if-range'], headers.etag);
    if (range.kind === 'unsatisfiable') {
      close();
      return new Response(null, { status: 416, headers: { ...headers, 'content-range': contentRange(range, size) } });
    }
    const start = range.kind === 'partial' ? range.start : 0;
    const end = range.kind === 'partial' ? range.end : size - 1;
    if (range.kind === 'partial') headers['content-range'] = contentRange(range, size);
    headers['content-length'] = String(Math.max(0, end - start + 1));
    if (request.method === 'HEAD' || end < start) {
      close();
      return new Response(null, { status: range.kind === 'partial' ? 206 : 200, headers });
    }
    return new Response(body(start, end), { status: range.kind === 'partial' ? 206 : 200, headers });
  };

  // Delays in progress, each ended early by its request's signal or by close(), and overrides that
  // have not answered yet (orClosed), answered 503 by close().
  const held = new Set<() => void>();
  let closed = false;
  /** Waits `ms`, or less: until `signal` aborts (the client left) or close(); frees the held place either way. */
  const hold = (ms: number, signal: AbortSignal | undefined, release: (() => void) | undefined): Promise<void> =>
    new Promise<void>((done) => {
      const end = () => {
        held.delete(end);
        clearTimeout(timer);
        signal?.removeEventListener('abort', end);
        release?.();
        done();
      };
      const timer = setTimeout(end, ms);
      held.add(end);
      signal?.addEventListener('abort', end);
      if (closed || signal?.aborted) end();
    });

  /**
   * `answer`, or null if close() comes first or the client leaves: an override that never answers
   * must not hold its request for ever, and the MSW journal records a client that left when it left.
   */
  const orClosed = <T>(answer: Promise<T>, signal: AbortSignal | undefined): Promise<T | null> =>
    new Promise((done, fail) => {
      const end = () => done(null);
      held.add(end);
      signal?.addEventListener('abort', end);
      if (signal?.aborted) end();
      answer.then(done, fail).finally(() => {
        held.delete(end);
        signal?.removeEventListener('abort', end);
      });
    });

  const respond = async (request: Request, own?: OwnAnswer): Promise<Response> => {
    const { path, query, origin } = splitUrl(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      headers[k] = v;
    });
    if (byRuntime) {
      const accept = clientAcceptEncoding(request);
      if (accept === undefined) delete headers['accept-encoding'];
      else headers['accept-encoding'] = accept;
    }
    const req = { method: request.method.toUpperCase(), path, query, headers, ...(origin ? { origin } : {}) };
    let r: CoreResponse;
    if (own) {
      // The controls apply to an override's answer too; an injected failure is answered without asking it.
      const decision = core.decide(req);
      let mine: CoreResponse | undefined | null;
      let failed: CoreResponse | undefined;
      try {
        // After close() an override is not asked at all: nothing would answer for it if it never settled.
        mine = decision?.problem ? undefined : closed ? null : await orClosed(own(), request.signal);
      } catch (err) {
        decision?.release?.();
        // An override function that threw: a 500 and onError, as startServer answers it. Thrown on,
        // it reached MSW, which answered its own 500 with the stack and nothing was journaled.
        failed = core.unexpected(req, err);
      }
      if (failed) {
        r = failed;
      } else if (mine === null) {
        decision?.release?.();
        // The answer of close(); a client that left reads none.
        r = core.refusal(req, closedBeforeOverride(req.method, path));
      } else {
        r = mine ? core.own(req, decision, mine) : core.handle(req, { decision });
      }
    } else {
      r = core.handle(req);
    }
    if (r.delay) await hold(r.delay, request.signal, r.release); // options.delay, Prefer: delay=
    // A client that left reads nothing: no media file is opened for it.
    if (r.media && request.signal?.aborted) return toResponse(r, null);
    if (r.media) return media(request, r, r.media);
    if (r.encode && r.body !== null && !byRuntime) {
      const body = typeof r.body === 'string' ? encoder.encode(r.body) : r.body;
      return toResponse(r, compressed(body, r.encode));
    }
    const response = toResponse(r);
    if (r.injected) injectedResponses.add(response);
    return response;
  };
  const handler = ((request: Request) => respond(request)) as FetchHandler;
  ownAnswers.set(handler, respond);
  handler.swap = (s) => core.swap(s);
  handler.close = () => {
    closed = true;
    for (const end of [...held]) end();
  };
  Object.defineProperty(handler, 'snapshot', { get: () => core.snapshot });
  return handler;
}
