// Reading an API over HTTP for `cqa pull`: the global fetch with a token, retries with backoff on
// 429 and 5xx (honouring Retry-After) and on network errors, and answers remembered by ETag so a
// second pull asks with If-None-Match and takes a 304 as "same as last time".
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
}

export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** A response body read up to `max` bytes; undefined when it is longer (the rest is not read). */
export async function readCapped(response: Response, max: number): Promise<Buffer | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return Buffer.alloc(0);
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) {
      await response.body.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
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

export class Fetcher {
  /** The answers with an ETag seen in this pull, for the next one (see EtagCache). */
  readonly seen: EtagCache = {};
  requests = 0;
  notModified = 0;
  retries = 0;

  constructor(private readonly options: FetcherOptions) {}

  /**
   * An absolute URL as it is; a path like /api/demo below the base URL's own path, so that
   * http://host/prefix reads http://host/prefix/api/demo (new URL('/api/…', base) would drop /prefix).
   */
  url(path: string): URL {
    const base = this.options.baseUrl.replace(/\/*$/, '/');
    return new URL(path.startsWith('/') && !path.startsWith('//') ? path.slice(1) : path, base);
  }

  /** A GET with retries; answers other than 2xx and 304 are returned for the reader to explain. */
  async get(path: string, accept = 'application/json', withToken = true, etag = this.previousAnswer(path)?.etag): Promise<Response> {
    const { tries = 5, backoffMs = 250, signal, token } = this.options;
    const headers: Record<string, string> = { Accept: accept };
    // The token goes only to the API's own origin (a media URL may point to a CDN).
    if (withToken && token && this.url(path).origin === this.url('/').origin) headers.Authorization = `Bearer ${token}`;
    if (withToken && etag) headers['If-None-Match'] = etag;
    for (let attempt = 1; ; attempt++) {
      let reason: string;
      let wait: number | undefined;
      try {
        this.requests++;
        const response = await fetch(this.url(path), { headers, signal, redirect: 'follow' });
        if (!RETRY_STATUS(response.status) || attempt >= tries) return response;
        reason = `HTTP ${response.status}`;
        wait = retryAfterMs(response.headers.get('retry-after'));
        await response.body?.cancel();
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        const cause = (err as { cause?: { message?: string } }).cause;
        // Not a usage error: the arguments may be right and the server down (exit 1, as for any runtime failure).
        if (attempt >= tries) throw new PullError(`cannot reach ${this.url(path).origin} (${cause?.message ?? (err as Error).message}): check BASE_URL and that the server runs`);
        reason = (err as Error).message;
      }
      this.retries++;
      this.options.onRetry?.(path, reason);
      await pause(Math.min(wait ?? backoffMs * 2 ** (attempt - 1), MAX_PAUSE_MS), signal);
    }
  }

  private previousAnswer(path: string): EtagCache[string] | undefined {
    const previous = this.options.previous;
    return previous && Object.hasOwn(previous, path) ? previous[path] : undefined;
  }

  /** A JSON document: its status and text, a 304 answered from the earlier pull's copy. */
  async document(path: string): Promise<Answer> {
    const response = await this.get(path);
    const previous = this.previousAnswer(path);
    if (response.status === 304 && previous) {
      this.notModified++;
      this.seen[path] = previous;
      return { status: 200, text: previous.text };
    }
    const max = this.options.maxDocumentBytes ?? MAX_DOCUMENT_BYTES;
    const bytes = await readCapped(response, max);
    if (bytes === undefined) throw new PullError(`${this.url(path).href}: the answer is larger than ${max} bytes; is that the API's address?`);
    const text = bytes.toString('utf8');
    const etag = response.headers.get('etag');
    if (response.ok && etag) this.seen[path] = { etag, text };
    return { status: response.status, text };
  }
}
