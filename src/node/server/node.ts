// The node:http adapter: the fast path. No WHATWG Request/Response and no framework per request:
// the raw URL is split at `?`, node's lower-case header object goes to the core as is, and the
// answer's bytes (cached per static document together with their ETag and compressed variants)
// go out with one writeHead + end. Media files are opened and checked by open-file.ts and sent by
// send-file.ts (Range, ETag, streaming).
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompress, brotliCompressSync, constants as zc, createBrotliCompress, createGzip, gzip, gzipSync } from 'node:zlib';
import type { MediaRecord } from '../../core/model/model.js';
import type { CoreResponse, HttpCore, Platform } from '../../core/http/core.js';
import type { ControlDecision } from '../../core/http/controls.js';
import type { Encoding } from '../../core/http/accept.js';
import {
  queryObject,
  redactAnswer,
  requestPieces,
  responseRecord,
  safeHeaders,
  safeUrl,
  withoutTokens,
  type RequestRecord,
} from '../../core/http/journal.js';
import { keyCredentialHash, tokensAmong } from '../../core/http/auth.js';
import type { Overrides } from '../../core/http/overrides.js';
import { closedBeforeOverride } from '../../core/http/contract-controls.js';
import { mediaRoot } from '../../core/http/media-root.js';
import { closeAfterBody, cutWhenStalled, Unanswered } from './connect.js';
import { openInside, ServedRoots } from './open-file.js';
import { sendBytes, sendFile } from './send-file.js';
import type { Thumbnail, ThumbnailCache } from './thumbnails.js';
import { MAX_WAITING, MAX_WAITING_PER_CONNECTION, STALL_GUARD_FROM_BYTES, SYNC_COMPRESS_MAX, UNSENT_ANSWER_BYTES } from '../thresholds.js';

const oneShotHash = (crypto as unknown as { hash?: (alg: string, data: string, enc: 'hex') => string }).hash;

export const nodePlatform: Platform = {
  sha256: (data) => createHash('sha256').update(data).digest(),
  // crypto.hash (Node ≥ 20.12) is the one-shot form: no Hash object per request.
  sha256Hex: oneShotHash ? (text) => oneShotHash('sha256', text, 'hex') : (text) => createHash('sha256').update(text, 'utf8').digest('hex'),
  encodeText: (text) => Buffer.from(text, 'utf8'),
  encodings: ['br', 'gzip'],
  compress(data: Uint8Array, encoding: Encoding, transient: boolean): Uint8Array | undefined {
    if (data.length > SYNC_COMPRESS_MAX) return undefined;
    if (encoding === 'gzip') return gzipSync(data, { level: transient ? 4 : 6 });
    return brotliCompressSync(data, {
      params: {
        [zc.BROTLI_PARAM_QUALITY]: brotliQuality(data.length, transient),
        [zc.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
  },
  // On libuv's threads, with the settings of a large static document.
  compressLater: (data, encoding) =>
    new Promise((resolve, reject) => {
      const done = (err: Error | null, bytes: Buffer) => (err ? reject(err) : resolve(bytes));
      if (encoding === 'gzip') gzip(data, { level: 6 }, done);
      else
        brotliCompress(
          data,
          { params: { [zc.BROTLI_PARAM_QUALITY]: brotliQuality(data.length, false), [zc.BROTLI_PARAM_SIZE_HINT]: data.length } },
          done,
        );
    }),
};

/**
 * Brotli quality on the thread that answers requests. A query's answer is compressed for each
 * request: quality 4 costs about what gzip does (a 42 KB list: ~0.3–1 ms; quality 9 took ~19 ms
 * and starved every other request). A static document is compressed once and cached, so the
 * smaller ones may take quality 9.
 */
function brotliQuality(length: number, transient: boolean): number {
  if (transient) return 4;
  return length <= 64 * 1024 ? 9 : 5;
}

export interface NodeListenerOptions {
  /** Called with each request's record once its answer is out (or its connection gone): the journal, the request log. */
  readonly onRequest?: (record: RequestRecord) => void;
  readonly onError?: (err: unknown) => void;
  /** Records carry the answer (status, headers, body cut short): the journal's, not the log's. */
  readonly captureResponse?: boolean;
  /** Per-route overrides (overrides.ts), tried before the API while there are any. */
  readonly overrides?: Overrides;
  /** Bytes of answers made and not yet taken by their clients, past which an answer is a 503 (default UNSENT_ANSWER_BYTES). */
  readonly unsentBytes?: number;
}

export interface NodeListener {
  (req: IncomingMessage, res: ServerResponse): void;
  /** From now on, answers carry `Connection: close` (graceful shutdown). */
  closing: boolean;
  /**
   * Send every answer a delay still holds back, now, and answer 503 for every override that has
   * not answered yet (a closing server waits for neither: docs/contract-tests.md).
   */
  answerPending(): void;
  /** Sends a refusal made before the API was asked (a Host or a bound said no), recorded like any answer unless `recorded` is false. */
  refuse(req: IncomingMessage, res: ServerResponse, r: CoreResponse, recorded?: boolean): void;
}

/** What answer() sent, for the request's record (filled in as it is sent). */
interface Said {
  injected: boolean;
  warnings?: readonly string[] | undefined;
  /** The body before compression (null for a media file, streamed). */
  body: Uint8Array | string | null;
  head: Readonly<Record<string, string>>;
}

function splitTarget(url: string): { path: string; query: string } {
  // Absolute-form targets (`GET http://host/path`) are reduced to their path.
  if (url.charCodeAt(0) !== 47) {
    const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
    if (m) url = url.slice(m[0].length) || '/';
  }
  const q = url.indexOf('?');
  return q < 0 ? { path: url, query: '' } : { path: url.slice(0, q), query: url.slice(q + 1) };
}

export function createNodeListener(core: HttpCore, options: NodeListenerOptions = {}): NodeListener {
  keyCredentialHash(() => crypto.randomFillSync(new Uint32Array(8)));
  const onRequest = options.onRequest;
  const onError = options.onError ?? ((err: unknown) => console.error('cqa: unexpected error', err));
  // Each project's media folder, pinned to its real path when the listener first sees it.
  const roots = new ServedRoots();
  // Loaded by the first thumbnail asked for (as in fetch-node.ts), never on the way to a first answer.
  let thumbnails:
    | Promise<{ t: typeof import('./thumbnails.js'); thumbs: ThumbnailCache; problem: typeof import('./thumbnail-problem.js') }>
    | undefined;
  for (const p of core.snapshot.projects.values()) for (const m of p.mediaById.values()) roots.get(mediaRoot(m.record));

  const sendMedia = async (req: IncomingMessage, res: ServerResponse, r: CoreResponse, m: MediaRecord) => {
    // The id was validated against the snapshot; the file is checked again as it is opened.
    const file = await openInside(roots.get(mediaRoot(m)), m.id);
    if (res.destroyed) {
      await file?.handle.close();
      return;
    }
    if (!file) {
      const p = core.problem(
        { method: req.method ?? 'GET', path: '', query: '', headers: req.headers },
        {
          status: 404,
          code: 'not_found',
          detail: `the media file '${m.id}' is gone`,
        },
      );
      res.writeHead(p.status, { ...p.headers, 'x-content-type-options': 'nosniff' });
      res.end(p.body ?? undefined);
      return;
    }
    const headers = { ...r.headers, 'content-type': m.mime_type, 'cache-control': 'no-cache' };
    if (!r.thumb) return sendFile(req, res, file, headers);
    thumbnails ??= Promise.all([import('./thumbnails.js'), import('./thumbnail-problem.js')]).then(([t, problem]) => ({
      t,
      thumbs: new t.ThumbnailCache(),
      problem,
    }));
    const { t, thumbs, problem } = await thumbnails;
    let thumb: Thumbnail;
    try {
      thumb = await thumbs.get(file);
    } catch (err) {
      const p = core.problem(
        { method: req.method ?? 'GET', path: '', query: '', headers: req.headers },
        problem.thumbnailProblem(m.id, err),
        err instanceof t.ThumbnailBusy ? { 'retry-after': '1' } : {},
      );
      res.writeHead(p.status, { ...p.headers, 'x-content-type-options': 'nosniff' });
      res.end(p.body ?? undefined);
      return;
    }
    if (!res.destroyed) sendBytes(req, res, thumb.bytes, thumb.tag, headers);
  };

  const send = (req: IncomingMessage, res: ServerResponse, r: CoreResponse) => {
    if (listener.closing) r.headers.connection = 'close';
    // An answer quotes what the request sent (a path, a field name): never to be read as another type.
    r.headers['x-content-type-options'] = 'nosniff';
    if (r.media) {
      sendMedia(req, res, r, r.media).catch((err) => fail(res, err));
      return;
    }
    if (r.body !== null && r.body.length >= STALL_GUARD_FROM_BYTES) cutWhenStalled(res);
    if (r.encode && r.body !== null) {
      res.writeHead(r.status, r.headers);
      const z =
        r.encode === 'br'
          ? createBrotliCompress({ params: { [zc.BROTLI_PARAM_QUALITY]: 4, [zc.BROTLI_PARAM_SIZE_HINT]: r.body.length } })
          : createGzip();
      z.on('error', (err) => {
        onError(err);
        res.destroy();
      });
      z.pipe(res);
      z.end(r.body);
      return;
    }
    res.writeHead(r.status, r.headers);
    res.end(r.body ?? undefined);
  };

  // Bytes of the answers made and not yet handed to their sockets (a client that does not read
  // leaves its answer in the socket's buffer; a delay holds one back): UNSENT_ANSWER_BYTES.
  let unsent = 0;
  const unsentBound = options.unsentBytes ?? UNSENT_ANSWER_BYTES;
  /** Counts `bytes` as unsent until `res` has handed them to its socket or is gone; false: over the bound, nothing counted. */
  const hold = (res: ServerResponse, bytes: number): boolean => {
    if (bytes === 0) return true;
    // One answer alone always goes out, however large.
    if (unsent > 0 && unsent + bytes > unsentBound) return false;
    unsent += bytes;
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      unsent -= bytes;
    };
    res.once('finish', free);
    res.once('close', free);
    return true;
  };
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  /** The 503 of an answer over the bound, in the dialect of the project asked for. */
  const busy = (req: IncomingMessage, path: string, query: string, bytes: number): CoreResponse =>
    core.refusal(
      { method: req.method ?? 'GET', path, query, headers: req.headers },
      {
        status: 503,
        code: 'busy',
        detail: `the server holds ${mb(unsent)} of answers that their clients have not read yet, and this answer (${mb(bytes)}) would take that past its bound of ${mb(unsentBound)}: try again in a second`,
      },
      { 'retry-after': '1' },
    );
  const sizeOf = (body: Uint8Array | string | null | undefined): number =>
    body == null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;

  // Answers held back by a delay, and requests whose override has not answered: a closing server
  // sends the first at once and answers the others 503 (answerPending()).
  const held = new Set<() => void>();
  const pending = new Set<() => void>();
  const listener = ((req: IncomingMessage, res: ServerResponse) => {
    closeAfterBody(req, res);
    // A pipelined request (sent before the answer to the one ahead of it on its connection was
    // out) is queued by node:http with its response, which gets the socket once the answers ahead
    // are out: it is answered only then. Answered at once, as node:http calls this listener for
    // every request of a read (64 KB: hundreds of them), a client that never reads made the server
    // hold every answer (300 requests of 8 MB answers: 2.4 GB).
    if (!res.socket) {
      // Waiting writes nothing, so node:http never stops reading such a connection: bounded
      // (connect.ts: Unanswered), past which the request is refused at once.
      const socket = req.socket;
      if (!waiting.enter(socket)) {
        refuseWaiting(req, res, waiting.why(socket));
        return;
      }
      res.once('socket', () => {
        waiting.leave(socket);
        process.nextTick(answer, req, res);
      });
      return;
    }
    answer(req, res);
  }) as NodeListener;

  /** Pipelined requests waiting for the answers ahead of them, per connection and in all. */
  const waiting = new Unanswered(MAX_WAITING_PER_CONNECTION, MAX_WAITING);
  /**
   * A request past the bound of waiting ones: a small 503 made at once, which node:http counts
   * (it stops reading a connection whose queued answers hold 64 KB). The connection stays open:
   * closed with requests unread, it would be reset, and the client lose the answers ahead.
   */
  const refuseWaiting = (req: IncomingMessage, res: ServerResponse, detail: string) => {
    const { path, query } = splitTarget(req.url ?? '/');
    const request = { method: req.method ?? 'GET', path, query, headers: req.headers };
    const r = core.refusal(request, { status: 503, code: 'too_many_pipelined', detail }, { 'retry-after': '1' });
    // The first refusal of a connection is recorded: a record for each of a flood's thousands made
    // it slower to get through (/healthz 5 s and more under one, 2–4 s without them).
    const first = !refusedOn.has(req.socket);
    refusedOn.add(req.socket);
    listener.refuse(req, res, r, first);
  };
  /** Connections that had a pipelined request refused (and recorded). */
  const refusedOn = new WeakSet<object>();

  /**
   * Records the request once its answer is out or its connection gone (the journal, the request
   * log), with what `said` holds by then: what answer() sent, or a refusal.
   */
  const recordOnClose = (req: IncomingMessage, res: ServerResponse, said: Said) => {
    if (!onRequest) return;
    const start = performance.now();
    const time = new Date().toISOString();
    res.once('close', () => {
      const { path, query } = splitTarget(req.url ?? '/');
      const url = safeUrl(req.url ?? '/');
      const ms = Math.round((performance.now() - start) * 10) / 10;
      // A client that left before the answer went out (during a delay) got no status: 0, `aborted`.
      const sent = res.headersSent;
      const status = sent ? res.statusCode : 0;
      try {
        const safe = safeHeaders(req.headers);
        const rawNames = req.rawHeaders.filter((_, i) => i % 2 === 0);
        const found = tokensAmong(core.snapshot, () => requestPieces(req.url ?? '/', safe.headers, rawNames), nodePlatform.sha256Hex);
        // A token sent as a header name is recorded lower-cased, as Node gives the names (found from outside).
        const tokens = [...new Set([...found, ...found.map((t) => t.toLowerCase())])];
        const redacted = redactAnswer(
          said.warnings ?? [],
          // Without a captured answer there is nothing of it to redact (no body decoded for the log).
          options.captureResponse && sent ? { headers: sentHeaders(said.head, res), body: said.body } : { headers: {}, body: null },
          query,
          tokens,
        );
        const record: RequestRecord = {
          time,
          method: req.method ?? 'GET',
          ...withoutTokens({ url, path, query: queryObject(query), headers: safe.headers }, tokens),
          auth: safe.auth,
          status,
          ms,
          injected: sent && said.injected,
          ...(res.writableFinished ? {} : { aborted: true }),
          ...(said.warnings ? { warnings: redacted.warnings } : {}),
        };
        onRequest(
          options.captureResponse ? { ...record, response: responseRecord(status, redacted.headers, redacted.body, redacted.cut) } : record,
        );
      } catch (err) {
        onError(err); // a failing log or hook must not take the server down
      }
    });
  };

  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const said: Said = { injected: false, body: null, head: {} };
    recordOnClose(req, res, said);
    const { path, query } = splitTarget(req.url ?? '/');
    /** Sends `r` (the API's answer or an override's), held back by its delay if it has one. */
    const deliver = (given: CoreResponse) => {
      let r = given;
      const bytes = sizeOf(r.body);
      if (!hold(res, bytes)) {
        r.release?.();
        r = busy(req, path, query, bytes);
      }
      said.injected = r.injected === true;
      said.warnings = r.warnings;
      // For the journal: the body before compression (null for a media file, streamed).
      said.body = r.plain ?? r.body;
      said.head = r.headers;
      const delay = r.delay ?? 0;
      if (delay > 0) {
        const answer = () => {
          held.delete(answer);
          clearTimeout(timer);
          r.release?.();
          if (res.destroyed) return;
          try {
            send(req, res, r);
          } catch (err) {
            fail(res, err);
          }
        };
        const timer = setTimeout(answer, delay);
        held.add(answer);
        // A client that gave up frees its timer: a long `Prefer: delay=` must not keep the
        // process alive after the test that sent it has moved on.
        res.once('close', () => {
          held.delete(answer);
          clearTimeout(timer);
          r.release?.();
        });
        if (listener.closing) answer();
      } else {
        send(req, res, r);
      }
    };
    const coreRequest = { method: req.method ?? 'GET', path, query, headers: headersOf(req) };
    /** The API's answer (the core); `decided`: the controls' decision taken already. */
    const viaCore = (decided?: { readonly decision: ControlDecision | undefined }) => {
      try {
        deliver(core.handle(coreRequest, decided));
      } catch (err) {
        fail(res, err);
      }
    };
    const overrides = options.overrides;
    // No override set (always, under `cqa serve`): straight to the API, nothing built for them.
    if (!overrides || overrides.size === 0) return viaCore();
    // The controls apply to an override's answer as to the API's (docs/contract-tests.md): decided
    // first, so that an injected failure is answered without asking the override.
    let decision: ControlDecision | undefined;
    let overridden: ReturnType<Overrides['answer']>;
    try {
      decision = core.decide(coreRequest);
      overridden = decision?.problem
        ? undefined
        : overrides.answer({
            method: req.method ?? 'GET',
            url: safeUrl(req.url ?? '/'),
            path,
            query: queryObject(query),
            headers: safeHeaders(req.headers).headers,
          });
    } catch (err) {
      decision?.release?.();
      return fail(res, err);
    }
    if (!overridden) return viaCore({ decision });
    // Until the override answers, a closing server answers for it (a promise that never settles
    // must not hold close() up): a 503, and the override's late answer is dropped.
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      pending.delete(closedFirst);
      if (!res.destroyed) return true;
      decision?.release?.();
      return false;
    };
    const closedFirst = () => {
      if (!settle()) return;
      decision?.release?.();
      deliver(core.refusal(coreRequest, closedBeforeOverride(coreRequest.method, path)));
    };
    pending.add(closedFirst);
    if (listener.closing) return closedFirst();
    overridden.then(
      (o) => {
        if (!settle()) return;
        if (!o) return viaCore({ decision });
        try {
          deliver(core.own(coreRequest, decision, { status: o.status, headers: o.headers, body: req.method === 'HEAD' ? null : o.body }));
        } catch (err) {
          decision?.release?.();
          fail(res, err);
        }
      },
      (err) => {
        if (!settle()) return;
        decision?.release?.();
        fail(res, err);
      },
    );
  };

  /**
   * The headers of an answer: those given to writeHead (which getHeaders() does not list) and any
   * set on `res`; lower-case names, several values joined with `, `.
   */
  const sentHeaders = (given: Readonly<Record<string, string>>, res: ServerResponse): Record<string, string> => {
    const out: Record<string, string> = { ...given };
    const h = res.getHeaders();
    for (const k in h) {
      const v = h[k];
      if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : String(v);
    }
    return out;
  };

  const fail = (res: ServerResponse, err: unknown) => {
    try {
      onError(err);
    } catch {
      /* ignore */
    }
    if (!res.headersSent && !res.destroyed) {
      const body =
        '{"type":"about:blank","title":"Internal Server Error","status":500,"code":"internal_error","detail":"an unexpected error occurred; it has been logged"}';
      res.writeHead(500, {
        'content-type': 'application/problem+json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
      });
      res.end(body);
    } else {
      res.destroy();
    }
  };

  listener.closing = false;
  listener.answerPending = () => {
    for (const answer of [...held, ...pending]) answer();
  };
  listener.refuse = (req, res, r, recorded = true) => {
    if (recorded) recordOnClose(req, res, { injected: false, body: r.body, head: r.headers });
    res.writeHead(r.status, { ...r.headers, 'x-content-type-options': 'nosniff' });
    res.end(req.method === 'HEAD' ? undefined : (r.body ?? undefined));
  };
  return listener;
}

/**
 * The request's headers for the core. Node keeps the first of two Authorization headers and drops
 * the other; they are joined instead, as fetch's Headers does, so the token is refused (401) in
 * node:http and in a fetch handler alike rather than one of two tokens silently chosen.
 */
function headersOf(req: IncomingMessage): IncomingMessage['headers'] {
  if (req.headers.authorization === undefined) return req.headers;
  // rawHeaders (name, value, …) is there already; headersDistinct would build a list per header.
  const raw = req.rawHeaders;
  let all: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) if ((raw[i] as string).toLowerCase() === 'authorization') (all ??= []).push(raw[i + 1] as string);
  return all && all.length > 1 ? { ...req.headers, authorization: all.join(', ') } : req.headers;
}
