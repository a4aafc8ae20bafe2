// The MSW handlers of content-query-api/msw over a snapshot and a fetch handler: the journal,
// overrides and waitForRequest around createHandler. Runtime-free (no Node imports): msw.ts (Node)
// and msw-browser.ts (the `browser` condition of the export) build the snapshot and the handler.
import { elmapi3Routes } from './elmapi3/handler.js';
import { type HttpHandler, http } from 'msw';
import type { ContentTree } from '../model/content-tree.js';
import { type ControlOptions, checkControls, Controls } from './controls.js';
import type { HttpOptions } from './core.js';
import { answerOwn, type FetchHandler, wasInjected, webPlatform } from './fetch.js';
import { bothSources, checkOptions, HTTP_KEYS, HTTP_KINDS, optionKeys, refuseTogether } from './options.js';
import type { ContractControls } from './contract-controls.js';
import { warningTexts } from './elmapi3/warnings.js';
import {
  type JournaledRequest,
  Journal,
  queryObject,
  redactAnswer,
  requestPieces,
  responseRecord,
  safeHeaders,
  safeUrl,
  withoutTokens,
} from './journal.js';
import { tokensAmong } from './auth.js';
import { Overrides } from './overrides.js';
import { RequestWaiters } from './request-waiter.js';
import type { Snapshot } from '../model/types.js';

export interface MswOptions extends Omit<HttpOptions, 'explorer' | 'serverUrl' | 'elmapi3'>, ControlOptions {
  /** Where the app sends its API requests: `https://cms.example` (requests elsewhere pass through). */
  readonly origin: string;
  /** A content folder (a path or a file: URL), or the tree itself (`{ 'demo/project.yaml': … }`), built as startServer does. Node only. */
  readonly content?: string | URL | ContentTree;
  /** A snapshot to serve as is, instead of `content` (`loadSnapshot` of a `cqa build --snapshot` file: the way in a browser). */
  readonly snapshot?: Snapshot;
  /** How many requests `requests()` keeps (default 1000; 0: none). */
  readonly journal?: number;
}

export interface MockApi extends ContractControls {
  /** Pass to `setupServer(...handlers)` or `setupWorker(...handlers)`. */
  readonly handlers: HttpHandler[];
  /** Sends the answers a delay holds back at once, rejects the waits still open, removes the temp folder of an in-memory tree. */
  close(): Promise<void>;
}

const MSW_KEYS: readonly string[] = [
  ...HTTP_KEYS.filter((k) => k !== 'explorer' && k !== 'serverUrl' && k !== 'elmapi3'),
  ...optionKeys<Omit<MswOptions, keyof HttpOptions>>()(['origin', 'content', 'snapshot', 'journal']),
];

/** The paths the API answers; everything else under the origin is the app's own. */
const API_PATHS = ['/api', '/api/*', '/media/*', '/openapi.json', '/healthz'];

/** `text` as a URL, or undefined. */
function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * The origin the handlers take requests of, as the URL parser writes it (`https://CMS.example:443`
 * is `https://cms.example`); what is not one is refused, saying what to write instead.
 */
function checkOrigin(origin: unknown): string {
  const refuse = (what: string) =>
    new TypeError(`createMswHandlers: origin ${what}; got ${origin === undefined ? 'undefined' : JSON.stringify(origin)}`);
  const text = typeof origin === 'string' ? origin.trim() : '';
  const either = (host: string) => `'https://${host}' or 'http://${host}'`;
  // 'cms.example', 'localhost:3000' (which the URL parser reads as the scheme 'localhost:').
  const bare = text.includes('://') ? undefined : urlOf(`https://${text}`);
  if (bare?.host) throw refuse(`has no scheme: write ${either(bare.host)}, as your app's requests name it`);
  const url = urlOf(text);
  if (!url?.host) throw refuse("must be the origin your app sends its API requests to, e.g. 'https://cms.example'");
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refuse(`must be http: or https: (the requests MSW intercepts): write ${either(url.host)}`);
  // MSW reads the origin as a pattern: `*`, `(`, `{`, `+` would match other hosts, while the
  // answers' absolute links name the origin as written.
  if (!/^(?:[\w-]+\.)*[\w-]+\.?$|^\[[\da-f:.]+\]$/i.test(url.hostname))
    throw refuse(
      `must name one host, as your app's requests do ('${url.hostname}' is a pattern to MSW); for several hosts, create handlers for each`,
    );
  // MSW's cookie store throws on a host ending in a dot: every request was a 500 (found from outside).
  if (url.hostname.endsWith('.'))
    throw refuse(`ends its host with a dot: write '${url.protocol}//${url.host.replace(/\.(?=(?::\d+)?$)/, '')}'`);
  if (url.href !== `${url.origin}/`)
    throw refuse(
      `must be the origin alone: write '${url.origin}' (the handlers take /api/*, /media/*, /openapi.json and /healthz under it)`,
    );
  return url.origin;
}

/** The text of a JSON or text answer, for the journal; null for media files. */
async function bodyText(response: Response): Promise<string | null> {
  const type = response.headers.get('content-type') ?? '';
  if (!/json|^text\//.test(type) || response.body === null) return null;
  return response.clone().text();
}

/** What builds the handler: the snapshot's source, and what to release on close(). */
export interface MswSource {
  readonly snapshot: Snapshot;
  readonly createHandler: (snapshot: Snapshot, options: ControlOptions & HttpOptions & { ui?: boolean }) => FetchHandler;
  close?(): Promise<void>;
}

/** The controls of `options`, checked before any work (as startServer does), with the seed drawn here so it can be shown. */
export function mswControls(options: MswOptions): { origin: string; seed: number; controls: Controls } {
  checkOptions('createMswHandlers', options, MSW_KEYS, HTTP_KINDS);
  refuseTogether('createMswHandlers', [bothSources(options)]);
  checkControls(options, 'createMswHandlers');
  const origin = checkOrigin(options.origin);
  const seed = options.seed ?? Math.floor(Math.random() * 0x100000000);
  return { origin, seed, controls: new Controls({ ...options, prefer: options.prefer ?? true, seed }) };
}

export function mswHandlers(options: MswOptions, source: MswSource): MockApi {
  const { origin, seed, controls } = mswControls(options);
  // ui: false — the app's own pages are not the explorer's.
  const handler = source.createHandler(source.snapshot, {
    ...options,
    prefer: options.prefer ?? true,
    seed,
    ui: false,
    elmapi3: elmapi3Routes,
  });
  const journal = new Journal(options.journal ?? 1000);
  // MSW reads a handler's URL as a path pattern, where ':' starts a parameter: an IPv6 host's
  // colons ('http://[::1]:4000') are escaped, or every request threw inside MSW's lookup.
  const pattern = origin.replace(/\[[^\]]*\]/, (host) => host.replace(/:/g, '\\:'));
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
    // fetch() and XHR send `Accept: */*` when the app sets none, but MSW in Node hands over the
    // Request before that default is added (a 406 here, 200 from startServer). A request read off
    // the wire (node:http, which adds no Accept) has a Host header and is taken as sent.
    if (headers.accept === undefined && headers.host === undefined) headers.accept = '*/*';
    const safe = safeHeaders(headers);
    const query = url.search.slice(1);
    const request0 = {
      method: request.method.toUpperCase(),
      url: safeUrl(target),
      path: url.pathname,
      query: queryObject(query),
      headers: safe.headers,
    };
    // Never compressed: an intercepted answer reaches the app as it is, not decoded by a network stack.
    // The app's signal goes along: a delay ends when the app gives up on the request.
    const plain = new Request(request.url, {
      method: request.method,
      headers: { ...headers, 'accept-encoding': 'identity' },
      signal: request.signal,
    });
    // An override's answer gets the controls the API's would (delay, fail-rate, Prefer). Only a request
    // an override takes goes that way: after close() every route got its 503 (found from outside).
    const response = overrides.takes(request0.method, request0.path)
      ? await answerOwn(handler, plain, async () => {
          const o = await overrides.answer(request0);
          return o && { status: o.status, headers: o.headers, body: request.method === 'HEAD' ? null : o.body };
        })
      : await handler(plain);
    if (journal.size > 0) {
      // The app that gave up (during a delay) gets no answer: journaled as startServer does, status 0.
      const sent = !request.signal.aborted;
      const status = sent ? response.status : 0;
      const headers: Record<string, string> = {};
      if (sent)
        response.headers.forEach((v, k) => {
          headers[k] = v;
        });
      const tokens = tokensAmong(handler.snapshot, () => requestPieces(target, safe.headers), webPlatform.sha256Hex);
      const said = redactAnswer(
        warningTexts(response.headers.get('x-cqa-warning')),
        { headers, body: sent ? await bodyText(response) : null },
        query,
        tokens,
      );
      const record: JournaledRequest = {
        time,
        ...withoutTokens(request0, tokens),
        auth: safe.auth,
        status,
        ms: Math.round((performance.now() - start) * 10) / 10,
        injected: sent && wasInjected(response),
        ...(sent ? {} : { aborted: true }),
        ...(said.warnings.length > 0 ? { warnings: said.warnings } : {}),
        response: responseRecord(status, said.headers, said.body, said.cut),
      };
      journal.add(record);
      if (waiters.size > 0) waiters.offer(journal.last() as JournaledRequest);
    }
    return response;
  };

  return {
    handlers: API_PATHS.map((path) => http.all(`${pattern}${path}`, ({ request }) => answer(request))),
    get snapshot() {
      return handler.snapshot;
    },
    seed,
    controls: controls.describe(),
    requests: () => journal.list(),
    clearRequests: () => journal.clear(),
    waitForRequest: (predicate, opts = {}) =>
      journal.size === 0
        ? Promise.reject(new Error('waitForRequest needs the journal: create the handlers without journal: 0'))
        : waiters.wait(predicate, opts, journal.list()),
    override: (method, pattern, a) => overrides.add(method, pattern, a),
    reset: () => overrides.reset(),
    close: async () => {
      handler.close(); // the answers a delay holds back go out now, as startServer's close() sends them
      waiters.cancel('the handlers were closed');
      await source.close?.();
    },
  };
}
