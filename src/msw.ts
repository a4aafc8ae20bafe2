// content-query-api/msw: the mock API as MSW request handlers (Mock Service Worker, v2), for
// front-end tests that intercept fetch instead of starting a server. The same request core as
// createHandler answers, with the controls of startServer (delay, failRate, seed, Prefer), its
// journal, per-route overrides and waitForRequest. msw is a peer dependency: installed by the
// user, never by this package.
import { http, type HttpHandler } from 'msw';
import type { ContentTree } from './content/tree.js';
import { Controls, type ControlOptions } from './http/controls.js';
import type { HttpOptions } from './http/core.js';
import { wasInjected } from './http/fetch.js';
import { Journal, queryObject, responseRecord, safeHeaders, safeUrl, type RequestRecord } from './http/journal.js';
import { Overrides, type OverrideAnswer, type OverrideFunction } from './http/overrides.js';
import { RequestWaiters, type RequestPredicate, type WaitOptions } from './http/request-waiter.js';
import type { Snapshot } from './snapshot/types.js';

export type { ContentTree } from './content/tree.js';
export type { RequestRecord, ResponseRecord } from './http/journal.js';
export type { OverrideAnswer, OverrideFunction, OverrideRequest } from './http/overrides.js';
export type { RequestPredicate, WaitOptions } from './http/request-waiter.js';

export interface MswOptions extends Omit<HttpOptions, 'explorer' | 'serverUrl'>, ControlOptions {
  /** Where the app sends its API requests: `https://cms.example` (requests elsewhere pass through). */
  readonly origin: string;
  /** A content folder, or the tree itself (`{ 'demo/project.yaml': … }`), built as startServer does. Node only. */
  readonly content?: string | ContentTree;
  /** A snapshot to serve as is (`loadSnapshot` of a `cqa build --snapshot` file: the way in a browser). */
  readonly snapshot?: Snapshot;
  /** How many requests `requests()` keeps (default 1000; 0: none). */
  readonly journal?: number;
}

export interface MockApi {
  /** Pass to `setupServer(...handlers)` or `setupWorker(...handlers)`. */
  readonly handlers: HttpHandler[];
  readonly snapshot: Snapshot;
  /** The seed of the draws of failRate and a delay range: pass it as `seed` to replay a run. */
  readonly seed: number;
  /** The controls in force, for a person; '' when none. */
  readonly controls: string;
  requests(): RequestRecord[];
  clearRequests(): void;
  waitForRequest(predicate: RequestPredicate, options?: WaitOptions): Promise<RequestRecord>;
  override(method: string, pathPattern: string, answer: OverrideAnswer | OverrideFunction): void;
  reset(): void;
  /** Rejects the waits still open; removes the temp folder of an in-memory tree. */
  close(): Promise<void>;
}

/** The paths the API answers; everything else under the origin is the app's own. */
const API_PATHS = ['/api/*', '/media/*', '/openapi.json', '/healthz'];

function checkOrigin(origin: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof origin === 'string' ? new URL(origin) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== (origin as string).replace(/\/$/, '')) {
    throw new TypeError(`createMswHandlers: origin must be the API's origin, e.g. 'https://cms.example' (scheme, host and port, no path), got ${JSON.stringify(origin)}`);
  }
  return url.origin;
}

/** The text of a JSON or text answer, for the journal; null for media files. */
async function bodyText(response: Response): Promise<string | null> {
  const type = response.headers.get('content-type') ?? '';
  if (!/json|^text\//.test(type) || response.body === null) return null;
  return response.clone().text();
}

export async function createMswHandlers(options: MswOptions): Promise<MockApi> {
  const origin = checkOrigin(options.origin);
  // Checked before any work, as startServer does; the seed is drawn here so that it can be shown.
  const seed = options.seed ?? Math.floor(Math.random() * 0x100000000);
  const controlOptions = { ...options, prefer: options.prefer ?? true, seed };
  const controls = new Controls(controlOptions);
  const source = options.snapshot ? { snapshot: options.snapshot } : await (await import('./msw-content.js')).snapshotOf(options.content ?? 'content');
  // From a folder or tree, media files are read from disk (the node:fs reader of fetch-node.ts).
  const { createHandler } = 'close' in source ? await import('./http/fetch-node.js') : await import('./http/fetch.js');
  // ui: false — the app's own pages are not the explorer's.
  const handler = createHandler(source.snapshot, { ...controlOptions, ui: false });
  const journal = new Journal(options.journal ?? 1000);
  const overrides = new Overrides();
  const waiters = new RequestWaiters();

  const answer = async (request: Request): Promise<Response> => {
    const start = performance.now();
    const time = new Date().toISOString();
    const url = new URL(request.url);
    const target = url.pathname + url.search;
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      headers[k] = v;
    });
    const safe = safeHeaders(headers);
    const query = url.search.slice(1);
    const request0 = { method: request.method.toUpperCase(), url: safeUrl(target), path: url.pathname, query: queryObject(query), headers: safe.headers };
    const overridden = overrides.size === 0 ? undefined : await overrides.answer(request0);
    let response: Response;
    if (overridden) {
      response = new Response(request.method === 'HEAD' ? null : (overridden.body as BodyInit | null), { status: overridden.status, headers: overridden.headers });
    } else {
      // Never compressed: an intercepted answer reaches the app as it is, not decoded by a network stack.
      const plain = new Request(request.url, { method: request.method, headers: { ...headers, 'accept-encoding': 'identity' } });
      response = await handler(plain);
    }
    if (journal.size > 0) {
      const sent: Record<string, string> = {};
      response.headers.forEach((v, k) => {
        sent[k] = v;
      });
      const record: RequestRecord = {
        time,
        ...request0,
        auth: safe.auth,
        status: response.status,
        ms: Math.round((performance.now() - start) * 10) / 10,
        injected: wasInjected(response),
        response: responseRecord(response.status, sent, await bodyText(response)),
      };
      journal.add(record);
      waiters.offer(journal.last() as RequestRecord);
    }
    return response;
  };

  return {
    handlers: API_PATHS.map((path) => http.all(`${origin}${path}`, ({ request }) => answer(request))),
    get snapshot() {
      return handler.snapshot;
    },
    seed,
    controls: controls.describe(),
    requests: () => journal.list(),
    clearRequests: () => journal.clear(),
    waitForRequest: (predicate, opts = {}) =>
      journal.size === 0 ? Promise.reject(new Error('waitForRequest needs the journal: create the handlers without journal: 0')) : waiters.wait(predicate, opts, journal.list()),
    override: (method, pattern, a) => overrides.add(method, pattern, a),
    reset: () => overrides.reset(),
    close: async () => {
      waiters.cancel('the handlers were closed');
      if ('close' in source) await source.close();
    },
  };
}
