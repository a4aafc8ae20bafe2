// Reading an API over HTTP for `cqa pull`: the global fetch with a token, retries with backoff on
// 429 and 5xx (honouring Retry-After) and on network errors (a connection reset halfway through a
// body too), and answers remembered by ETag so a second pull asks with If-None-Match and takes a
// 304 as "same as last time". When nothing listens at the base URL at all, the first request
// fails at once: retrying a typo in the port for seconds helps nobody. Every answer's body read
// into memory counts against the pull's --max-bytes as it arrives, and every request must be
// answered whole (headers and body) within --timeout.
import { DEFAULT_LIMITS, overLimit, type PullLimits } from './limits.js';
import { PullError } from './model.js';

export interface Answer {
  readonly status: number;
  /** The body as text (JSON documents) — for a 304, the body remembered from the earlier pull. */
  readonly text: string;
}

/** Remembered answers of an earlier pull, by URL path and query: its ETag and body. */
export type EtagCache = Record<string, { readonly etag: string; readonly text: string }>;

export interface FetcherOptions {
  /** The API's base URL, e.g. http://127.0.0.1:4000 (paths like /api/demo are resolved against it). */
  readonly baseUrl: string;
  readonly token: string | undefined;
  /** Sent with every request to the API's own origin, token or not (elmapi3: the project-id header). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Tries per request, the first included. */
  readonly tries?: number;
  /** The first pause before a retry; it doubles with each retry (capped at 30 s). */
  readonly backoffMs?: number;
  readonly signal?: AbortSignal;
  /** Answers of the earlier pull, to ask with If-None-Match. */
  readonly previous?: EtagCache;
  /** Called on each retry, e.g. for the progress line. */
  readonly onRetry?: (path: string, reason: string) => void;
  /** The largest JSON document read, in bytes (default 64 MiB): a bigger one is refused, not read into a string. */
  readonly maxDocumentBytes?: number;
  /** The pull's limits: maxBytes caps the bodies of all answers read (the others are the readers'). */
  readonly limits?: PullLimits;
  /** The time each request has for its whole answer, headers and body (default 60 s). */
  readonly timeoutMs?: number;
}

export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * 60 s: an API answers in well under a second, and proxies in front of one (nginx's
 * proxy_read_timeout, most load balancers) cut a request at about 60 s anyway.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** No connection, or one that broke halfway through a body: Fetcher.request sends the request again. */
export class NetworkError extends PullError {}

/**
 * The chunks of a response body. A failure to read the next one (the connection reset halfway) is
 * a NetworkError; an error of the reader's own (a file too large, a full disk) stays what it is.
 */
export async function* bodyChunks(response: Response, url: string): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const chunks = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await chunks.next().catch((err: unknown) => {
        throw new NetworkError(`the connection broke while reading ${url} (${reasonOf(err)})`);
      });
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // A reader that stops early cancels the download.
    await chunks.return?.().catch(() => undefined);
  }
}

/**
 * A response body read up to `max` bytes; undefined when it is longer (the rest is not read).
 * `count` sees each chunk as it arrives, and may throw to stop the read there.
 */
export async function readCapped(
  response: Response,
  max: number,
  url = response.url,
  count: (bytes: number) => void = () => undefined,
): Promise<Buffer | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of bodyChunks(response, url)) {
    count(chunk.byteLength);
    size += chunk.byteLength;
    if (size > max) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** What a network error says: fetch's own message is only "fetch failed", its cause tells. */
function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { message?: string } }).cause;
  return cause?.message ?? (err as Error).message;
}

/**
 * A first request that found nothing there (refused, no such host, no TLS for https, a port fetch
 * never connects to): a one-line message of what to check, or undefined for a failure worth retrying.
 */
function nothingThere(err: unknown, base: URL): string | undefined {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const port = base.port || (base.protocol === 'https:' ? '443' : '80');
  if (cause?.code === 'ECONNREFUSED')
    return `nothing listens at ${base.origin} (connection refused): is the server running, and is ${port} its port? Check BASE_URL`;
  if (cause?.code === 'ENOTFOUND')
    return `cannot reach ${base.origin}: no host named '${base.hostname}' (ENOTFOUND); check the host name in BASE_URL`;
  // https:// to a server that speaks http (a local `cqa serve`): the TLS handshake reads an HTTP answer.
  if (cause?.code === 'ERR_SSL_WRONG_VERSION_NUMBER')
    return `cannot reach ${base.origin}: no https (TLS) there; if the server speaks plain http, use http://${base.host}`;
  // The fetch standard's "bad ports" (6000, 6667, 10080, …): fetch refuses them without trying.
  if (cause?.message === 'bad port')
    return `cannot reach ${base.origin}: fetch never connects to port ${port} (a blocked port); run the server on another port, e.g. cqa serve --port 4000`;
  return undefined;
}

const RETRY_STATUS = (status: number) => status === 429 || status >= 500;
const MAX_PAUSE_MS = 30_000;

/** Retry-After as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

export interface RequestOptions {
  readonly accept?: string;
  /** Send the token (to the API's own origin only) and If-None-Match. */
  readonly withToken?: boolean;
  readonly etag?: string | undefined;
}

export class Fetcher {
  /** The answers with an ETag seen in this pull, for the next one (see EtagCache). */
  readonly seen: EtagCache = {};
  requests = 0;
  notModified = 0;
  retries = 0;
  /** Bytes of the answers read into memory so far (a 304's remembered body included). */
  bytes = 0;
  /** Some request got an answer: from now on a refused connection is a server restarting, and retried. */
  private answered = false;

  constructor(private readonly options: FetcherOptions) {}

  /**
   * An absolute URL as it is; a path like /api/demo below the base URL's own path, so that
   * http://host/prefix reads http://host/prefix/api/demo (new URL('/api/…', base) would drop /prefix).
   */
  url(path: string): URL {
    const base = this.options.baseUrl.replace(/\/*$/, '/');
    return new URL(path.startsWith('/') && !path.startsWith('//') ? path.slice(1) : path, base);
  }

  /**
   * Counts `n` more bytes of answers held in memory, and stops the pull past --max-bytes: pages
   * well under the per-answer cap, each with new ids, used to grow memory until V8 aborted.
   */
  private count(n: number, url: string): void {
    this.bytes += n;
    const limits = this.options.limits ?? DEFAULT_LIMITS;
    if (this.bytes > limits.maxBytes) throw overLimit(limits, 'maxBytes', `the answers of this pull (at ${url})`);
  }

  /** An answer's body as text, counted as it arrives, refused past the per-answer cap. */
  private async text(response: Response, path: string): Promise<string> {
    const url = this.url(path).href;
    const max = this.options.maxDocumentBytes ?? MAX_DOCUMENT_BYTES;
    const bytes = await readCapped(response, max, url, (n) => this.count(n, url));
    if (bytes === undefined) throw new PullError(`${url}: the answer is larger than ${max} bytes; is that the API's address?`);
    return bytes.toString('utf8');
  }

  /** A GET without the token nor If-None-Match (is the project public?): its status and text. */
  withoutToken(path: string): Promise<Answer> {
    return this.request(path, { withToken: false }, async (response) => ({
      status: response.status,
      text: await this.text(response, path),
    }));
  }

  /**
   * A GET with retries whose answer `read` takes, body and all. A connection that breaks while
   * `read` takes the body (a NetworkError from bodyChunks) is retried as a refused one is: the
   * request is sent again, with the same headers, and `read` starts over.
   */
  async request<T>(path: string, o: RequestOptions, read: (response: Response) => Promise<T>): Promise<T> {
    const { tries = 5, backoffMs = 250, signal, token, timeoutMs = DEFAULT_TIMEOUT_MS } = this.options;
    const { accept = 'application/json', withToken = true, etag } = o;
    const headers: Record<string, string> = { Accept: accept };
    const own = this.url(path).origin === this.url('/').origin;
    if (own) Object.assign(headers, this.options.headers);
    // The token goes only to the API's own origin (a media URL may point to a CDN).
    if (withToken && token && own) headers.Authorization = `Bearer ${token}`;
    if (withToken && etag) headers['If-None-Match'] = etag;
    for (let attempt = 1; ; attempt++) {
      let reason: string;
      let wait: number | undefined;
      // Each request gets a signal of its own, tied to the pull's for as long as it runs: fetch
      // leaves its listener on the signal it is given, and a pull sends thousands of requests.
      if (signal?.aborted) throw signal.reason;
      const thisRequest = new AbortController();
      const forward = () => thisRequest.abort(signal?.reason);
      signal?.addEventListener('abort', forward, { once: true });
      // The whole answer, body included: undici's own timeouts wait 300 s for headers and restart
      // with every chunk, so a silent or trickling server kept a pull running without a word.
      const timer = setTimeout(() => thisRequest.abort(this.timedOut(path, timeoutMs)), timeoutMs);
      try {
        this.requests++;
        let response: Response;
        try {
          response = await fetch(this.url(path), { headers, signal: thisRequest.signal, redirect: 'follow' });
        } catch (err) {
          if (signal?.aborted) throw signal.reason;
          if (thisRequest.signal.aborted) throw thisRequest.signal.reason;
          const nothing = this.answered ? undefined : nothingThere(err, this.url('/'));
          if (nothing) throw new PullError(nothing);
          // Not a usage error: the arguments may be right and the server down (exit 1, as for any runtime failure).
          // Once the API has answered, BASE_URL is fine: the URL that failed is named (a media file's redirect loop was "check BASE_URL").
          const reason = reasonOf(err);
          throw new NetworkError(
            this.answered
              ? `${this.url(path).href} cannot be fetched (${reason}${/redirect/i.test(reason) ? ': its redirects go on and on' : ''}); the API answered before, so the fault is at that URL`
              : `cannot reach ${this.url(path).origin} (${reason}): check BASE_URL and that the server runs`,
          );
        }
        this.answered = true;
        if (!RETRY_STATUS(response.status) || attempt >= tries) return await read(response);
        reason = `HTTP ${response.status}`;
        wait = retryAfterMs(response.headers.get('retry-after'));
        await response.body?.cancel();
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        // Not tried again: a server silent for that long is not slow by chance, and five tries
        // would make the wait five times the limit the message names.
        if (thisRequest.signal.aborted) throw thisRequest.signal.reason;
        if (!(err instanceof NetworkError) || attempt >= tries) throw err;
        reason = err.message;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', forward);
      }
      this.retries++;
      this.options.onRetry?.(path, reason);
      await pause(Math.min(wait ?? backoffMs * 2 ** (attempt - 1), MAX_PAUSE_MS), signal);
    }
  }

  private timedOut(path: string, ms: number): PullError {
    return new PullError(
      `${this.url(path).href}: no complete answer within ${ms / 1000} s, the time limit of each request; stopped. If the server is that slow, raise it with --timeout SECONDS`,
    );
  }

  private previousAnswer(path: string): EtagCache[string] | undefined {
    const previous = this.options.previous;
    return previous && Object.hasOwn(previous, path) ? previous[path] : undefined;
  }

  /** A JSON document: its status and text, a 304 answered from the earlier pull's copy. */
  async document(path: string): Promise<Answer> {
    const previous = this.previousAnswer(path);
    return this.request(path, { etag: previous?.etag }, async (response) => {
      if (response.status === 304 && previous) {
        // Held in memory as a read one is: a pull that fits once fits again, 304s or not.
        this.count(Buffer.byteLength(previous.text), this.url(path).href);
        this.notModified++;
        this.seen[path] = previous;
        return { status: 200, text: previous.text };
      }
      const text = await this.text(response, path);
      const etag = response.headers.get('etag');
      if (response.ok && etag) this.seen[path] = { etag, text };
      return { status: response.status, text };
    });
  }
}
