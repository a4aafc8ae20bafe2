// The request core: plain data in, plain data out, no Node imports. Both adapters (node:http in
// node.ts, WHATWG fetch in fetch.ts) translate to and from these shapes, so the behaviour of
// §4 lives here once.
import type { ContentIssue, MediaRecord, Scope } from '../model/model.js';
import { cqa, type Dialect } from '../dialects/index.js';
import type { CollectionSnapshot, ProjectSnapshot, Snapshot } from '../model/types.js';
import type { QueryContext, QueryOutcome, QueryProblem, Utf8Outcome } from '../query/types.js';
import { answerTooLarge, ELMAPI3_LESS, isStringTooLong, MAX_ANSWER_CHARS, refuseLongTexts } from '../query/answer-size.js';
import { ProblemError } from '../query/problems.js';
import { documentPieces } from '../snapshot/document-pieces.js';
import { acceptsJson, negotiateEncoding, type Encoding } from './accept.js';
import { AnswerMemo } from './answer-memo.js';
import { header } from './header.js';
import { healthBody } from './health.js';
import { authorize, authorizeAudience } from './auth.js';
import { COMPRESS_MIN, Doc, DocCache, type Platform } from './compress.js';
import { Controls, type ControlOptions, type ControlDecision } from './controls.js';
import { ALLOWED_METHODS, corsPolicy, type CorsPolicy } from './cors.js';
import { etagOf, ifNoneMatch } from './etag.js';
import type { ExplorerPage } from './explorer/index.js';
import { API_PROBLEMS, MAX_TARGET, TARGET_TOO_LONG, type Problem } from './problem.js';
import { MEDIA_SEGMENT, route, type Route } from './routes.js';
import { withServerUrl } from './openapi-server.js';
import { mediaHeaders } from './media-headers.js';
import type { Elmapi3Routes, V3Answer } from './elmapi3/handler.js';
import { headerText, warningHeader } from './elmapi3/warnings.js';

export type { Platform } from './compress.js';
export type { Encoding } from './accept.js';

export interface CoreRequest {
  /** Upper-case method. */
  readonly method: string;
  /** The raw, undecoded path of the request target (before `?`). */
  readonly path: string;
  /** The raw query string after `?` ('' when none). */
  readonly query: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * The scheme and host the client asked, when the adapter knows them (a fetch Request's URL:
   * `https://cms.example`); else the Host header tells the host (node:http).
   */
  readonly origin?: string;
}

export interface CoreResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** null for HEAD, 204 and 304 answers (Content-Length still tells the size for HEAD). */
  readonly body: Uint8Array | string | null;
  /** The adapter must compress `body` with this coding (the platform could not do it in place). */
  readonly encode?: Encoding;
  /** A media file to send (status 200 here means: found; the adapter does Range/ETag). */
  readonly media?: MediaRecord;
  /** Send the thumbnail of `media` rather than the file. */
  readonly thumb?: boolean;
  /** Hold the answer back this many ms (--delay, `Prefer: delay=`): the adapter waits. */
  readonly delay?: number;
  /** The status was injected (--fail-rate, `Prefer: status=`). */
  readonly injected?: boolean;
  /** With a delay: call once the held answer is sent or its client left (frees its place, controls.ts). */
  readonly release?: () => void;
  /** The body before compression, when `body` is a compressed variant (for the journal). */
  readonly plain?: Uint8Array;
  /** elmapi3: the X-Cqa-Warning texts of the answer, one a problem (for the journal and the request log). */
  readonly warnings?: readonly string[];
}

/** The query engine's four entry points (src/core/query/index.ts), injected by the adapters. */
export interface QueryEngine {
  queryEntries(project: ProjectSnapshot, collection: CollectionSnapshot, rawQuery: string, ctx: QueryContext): Utf8Outcome;
  queryEntry(project: ProjectSnapshot, collection: CollectionSnapshot, id: string, rawQuery: string, ctx: QueryContext): QueryOutcome;
  queryMediaList(project: ProjectSnapshot, rawQuery: string, ctx: QueryContext): QueryOutcome;
  queryMediaItem(project: ProjectSnapshot, id: string, rawQuery: string, ctx: QueryContext): QueryOutcome;
}

export interface HttpOptions extends ControlOptions {
  /** Access-Control-Allow-Origin: `*` (default), an origin, or a comma-separated list. */
  readonly cors?: string;
  /** Cache-Control of successful answers (default `no-cache`); `private` is added when a token was needed. */
  readonly cacheControl?: string;
  /** Largest `limit` accepted (default 1000; 0 = no cap). */
  readonly maxLimit?: number;
  /**
   * The URL /openapi.json names in `servers` (default: the snapshot's base URL, else `/`);
   * startServer gives its own address when no base URL was set.
   */
  readonly serverUrl?: string;
  /** Budget of the per-snapshot cache of encoded static documents (default 64 MiB). */
  readonly cacheBytes?: number;
  /** Called with unexpected errors (answered as 500). Default: console.error. */
  readonly onError?: (err: unknown) => void;
  /** The explorer page for browsers at `/` (`explorerPage`, src/core/http/explorer); none: `/` is a 404. */
  readonly explorer?: ExplorerPage;
  /**
   * The `elmapi3` route table (`elmapi3Routes`, src/core/http/elmapi3/). The Node server, Node's
   * createHandler and the MSW handlers always pass it; an edge worker opts in, so one without
   * elmapi3 projects does not bundle it (without it, a v3 request is answered 501 naming this option).
   */
  readonly elmapi3?: Elmapi3Routes;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const READ_ONLY: ReadonlySet<Scope> = new Set<Scope>(['read']);

/** The snapshot being served and everything cached for it; replaced as a whole on a swap. */
export interface ServedSnapshot {
  readonly snapshot: Snapshot;
  /** Static documents, by path. */
  readonly docs: DocCache;
  /** Answers to queries, by path, query string and whether the caller may see drafts. */
  readonly answers: DocCache;
  /** Whole answers, by request (answer-memo.ts). */
  readonly memo: AnswerMemo;
  /** The content errors of the latest rebuild while `snapshot` is the last good one (health.ts). */
  readonly stale?: readonly ContentIssue[];
}

const shared = new WeakMap<Snapshot, Dialect>();

/**
 * Who words an error: the dialect of the project the request names, else the dialect every project
 * of the snapshot shares (an unknown project of an all-`elmapi` tree), else `cqa`.
 */
function dialectFor(snapshot: Snapshot, r: Route | undefined): Dialect {
  const id = r && 'project' in r ? r.project : undefined;
  const own = id === undefined ? undefined : snapshot.projects.get(id);
  if (own) return own.dialect;
  let d = shared.get(snapshot);
  if (!d) {
    const names = new Set([...snapshot.projects.values()].map((p) => p.dialect));
    d = names.size === 1 ? ([...names][0] as Dialect) : cqa;
    shared.set(snapshot, d);
  }
  return d;
}

const v3NotFound = (path: string): Problem => ({
  status: 404,
  code: 'not_found',
  detail: `nothing at '${path}'; API paths start with /api, with the header project-id: <project uuid> (docs/dialects.md)`,
});

/** Errors are worded by the dialect of the project asked for (cqa for /healthz, /openapi.json). */
function dialectOf(snapshot: Snapshot, r: Route): Dialect {
  return r.kind === 'healthz' || r.kind === 'openapi' ? cqa : dialectFor(snapshot, r);
}

/** `retry-after` → `Retry-After` */
const headerCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

/** `private` in front, `public` removed: for answers that needed a token. */
export function privateCacheControl(value: string): string {
  const parts = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && s.toLowerCase() !== 'public' && s.toLowerCase() !== 'private');
  return ['private', ...parts].join(', ');
}

export class HttpCore {
  private served: ServedSnapshot;
  private readonly cors: CorsPolicy;
  private readonly cacheControl: string;
  private readonly privateCache: string;
  private readonly maxLimit: number;
  private serverUrl: string | undefined;
  private readonly cacheBytes: number;
  private readonly onError: (err: unknown) => void;
  private readonly varyOrigin: string | undefined;
  private readonly explorer: ExplorerPage | undefined;
  private readonly elmapi3: Elmapi3Routes | undefined;
  /** --delay, --fail-rate, Prefer (src/core/http/controls.ts); undefined when none is on. */
  private readonly controls: Controls | undefined;

  constructor(
    snapshot: Snapshot,
    private readonly platform: Platform,
    private readonly engine: QueryEngine,
    options: HttpOptions = {},
    /** Made by the caller already (startServer checks the options before loading); else from `options`. */
    controls: Controls = new Controls(options),
  ) {
    // Plain JavaScript gets no type error for a promise or a path: said here, not as a 500 per request.
    if (!isSnapshot(snapshot))
      throw new TypeError(
        `expected a snapshot (await buildSnapshot({ content: 'content' }), or loadSnapshot(text)), got ${notSnapshot(snapshot)}`,
      );
    this.cors = corsPolicy(options.cors);
    this.cacheControl = options.cacheControl?.trim() || 'no-cache';
    this.privateCache = privateCacheControl(this.cacheControl);
    this.maxLimit = options.maxLimit ?? 1000;
    this.serverUrl = options.serverUrl;
    this.cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024;
    this.onError = options.onError ?? ((err) => console.error('cqa: unexpected error', err));
    this.varyOrigin = this.cors.varyOrigin ? 'Origin' : undefined;
    this.explorer = options.explorer;
    this.elmapi3 = options.elmapi3;
    this.controls = controls.active ? controls : undefined;
    this.served = this.serve(snapshot);
  }

  /** Name `url` in /openapi.json from now on (startServer learns its port only once listening). */
  describeServerAt(url: string): void {
    this.serverUrl = url;
    this.served = this.serve(this.served.snapshot);
  }

  private serve(snapshot: Snapshot): ServedSnapshot {
    return {
      snapshot,
      docs: new DocCache(this.platform, this.cacheBytes),
      answers: new DocCache(this.platform, this.cacheBytes / 4),
      memo: new AnswerMemo(),
    };
  }

  get snapshot(): Snapshot {
    return this.served.snapshot;
  }

  /** Atomically replace the snapshot: one reference swap; requests in flight keep the old one. */
  swap(snapshot: Snapshot): void {
    this.served = this.serve(snapshot);
  }

  /**
   * The latest rebuild failed with these errors (the snapshot stays), or, with none, the content
   * is good again: /healthz says which. Fresh caches, as on a swap: nothing answered before holds.
   */
  markStale(errors: readonly ContentIssue[] | undefined): void {
    if (!errors && !this.served.stale) return;
    this.served = { ...this.serve(this.served.snapshot), ...(errors ? { stale: errors } : {}) };
  }

  /**
   * What the controls (--delay, --fail-rate, Prefer) do to this request, decided once: an adapter
   * that tries an override first (overrides.ts) gives the same decision to `handle` or `own`.
   */
  decide(req: CoreRequest): ControlDecision | undefined {
    // `/api` itself is an endpoint only of an elmapi3 project, named by its header; elsewhere a
    // browser asking for it goes to the explorer (found by round two: a 503 under --fail-rate).
    const apiRoot = header(req.headers, 'project-id') !== undefined;
    return this.controls?.decide(req.method, req.path, header(req.headers, 'prefer'), apiRoot);
  }

  /** The API's answer; `decided`: the controls' decision taken already (`decide`), else taken here. */
  handle(req: CoreRequest, decided?: { readonly decision: ControlDecision | undefined }): CoreResponse {
    const served = this.served;
    try {
      const decision = decided ? decided.decision : this.decide(req);
      if (decision) return this.withControls(req, served, decision);
      // The v3 dialect answers by the `project-id` header, which the memo does not key on.
      if (header(req.headers, 'project-id') !== undefined) return this.dispatch(req, served);
      const { answer, inputs } = served.memo.get(req);
      if (answer) return answer;
      const r = this.dispatch(req, served);
      served.memo.offer(req, inputs, r);
      return r;
    } catch (err) {
      // An answer longer than a string can be, made where it is not measured first: too large, not a bug.
      if (isStringTooLong(err)) {
        const d = this.dialectOfRequest(req);
        return this.problem(req, answerTooLarge(undefined, undefined, d.name === 'elmapi3' ? ELMAPI3_LESS : undefined), {}, d);
      }
      return this.unexpected(req, err);
    }
  }

  /** The answer to an unexpected error (a bug, or an override function that threw): a 500, the error to onError. */
  unexpected(req: CoreRequest, err: unknown): CoreResponse {
    try {
      this.onError(err);
    } catch {
      /* a failing logger must not turn a 500 into a crash */
    }
    return this.problem(req, { status: 500, code: 'internal_error', detail: 'an unexpected error occurred; it has been logged' });
  }

  /**
   * An answer of the test's own (an override) under the controls the API's would have had: held
   * back by the delay, with Preference-Applied — or an injected failure instead of it (a down API
   * answers no override either; the adapters do not ask the override then).
   */
  own(req: CoreRequest, decision: ControlDecision | undefined, answer: CoreResponse): CoreResponse {
    return decision ? this.withControls(req, this.served, decision, answer) : answer;
  }

  /** The answer held back, or a failure instead of it, with the headers that say why. */
  private withControls(req: CoreRequest, served: ServedSnapshot, decision: ControlDecision, own?: CoreResponse): CoreResponse {
    const r = decision.problem ? this.problem(req, decision.problem, {}, this.dialectOfRequest(req)) : (own ?? this.dispatch(req, served));
    const extra = decision.headers;
    if (extra) {
      for (const k in extra) r.headers[k] = extra[k] as string;
      // Browsers' scripts may read them too (a client backing off on Retry-After).
      const expose = r.headers['access-control-expose-headers'];
      if (expose) r.headers['access-control-expose-headers'] = [expose, ...Object.keys(extra).map(headerCase)].join(', ');
    }
    return {
      ...r,
      delay: decision.delay,
      ...(decision.injected ? { injected: true } : {}),
      ...(decision.release ? { release: decision.release } : {}),
    };
  }

  private dispatch(req: CoreRequest, served: ServedSnapshot): CoreResponse {
    const h = req.headers;
    const snapshot = served.snapshot;
    if (req.path.length + req.query.length + 1 > MAX_TARGET) {
      return this.problem(req, { status: 414, code: 'uri_too_long', detail: TARGET_TOO_LONG }, {}, dialectFor(snapshot, undefined));
    }
    const method = req.method;
    const page = this.explorer?.answer(req, this.platform);
    if (page) return page;
    const v3 = method === 'OPTIONS' ? undefined : this.elmapi3Answer(req, snapshot);
    if (v3) return this.v3(req, v3);
    const r = route(req.path);
    const d = dialectOf(snapshot, r);
    if (method === 'OPTIONS') {
      return {
        status: 204,
        headers: { ...this.cors.headers(header(h, 'origin')), ...this.cors.preflight, allow: ALLOWED_METHODS, ...this.vary() },
        body: null,
      };
    }
    if (method !== 'GET' && method !== 'HEAD') {
      return this.problem(
        req,
        { status: 405, code: 'method_not_allowed', detail: `${method} is not allowed; this API is read-only (${ALLOWED_METHODS})` },
        { allow: ALLOWED_METHODS },
        d,
      );
    }
    // An elmapi3 project is read at the v3 routes only: its path here would be an API the real one lacks.
    if (r.kind !== 'media-file' && 'project' in r && snapshot.projects.get(r.project)?.record.dialect === 'elmapi3') {
      const detail = `project '${r.project}' answers as ElmapiCMS v3: ask /api/… with the header project-id: ${r.project} (docs/dialects.md), not /api/${r.project}/…`;
      // v3's `{message}` plus a code, which the client reads to say its own fix (dialect: 'elmapi3').
      const body = JSON.stringify({ message: detail, code: 'elmapi3_project' });
      return this.v3(req, { status: 404, body, warnings: [], private: false });
    }
    switch (r.kind) {
      case 'problem': {
        let problem = r.problem;
        // A tree of elmapi3 projects only (its shared dialect): their paths have no project id; beside others, they are said too.
        if (problem.code === 'not_found' && d.name === 'elmapi3') problem = v3NotFound(req.path);
        else if (problem.code === 'not_found' && [...snapshot.projects.values()].some((p) => p.record.dialect === 'elmapi3'))
          problem = { ...problem, detail: `${problem.detail} (an elmapi3 project's: /api, with the header project-id: <project uuid>)` };
        return this.problem(req, problem, {}, d);
      }
      case 'healthz': {
        if (!this.lenientAccept(h)) return this.notAcceptable(req);
        const doc = served.docs.get('healthz', () => healthBody(snapshot.hash, served.stale)) as Doc;
        // The errors of broken content quote its values (a draft's too): no web page of another
        // origin may read them, only this origin's explorer and tools that are not browsers.
        return this.json(req, doc, 'no-store', undefined, served.stale === undefined);
      }
      case 'openapi':
        return this.openapi(req, served);
      case 'media-file': {
        const found = snapshot.projects.get(r.project)?.mediaById.get(r.id);
        // `/thumbs/…`: only items with a thumbnail have one (src/core/snapshot/thumbs.ts).
        const m = r.thumb && !found?.thumb ? undefined : found;
        if (!m)
          return this.problem(
            req,
            {
              status: 404,
              code: 'not_found',
              detail:
                r.thumb && found
                  ? `media '${r.id}' has no thumbnail: only images over 600 px high in a project of dialect elmapi have one`
                  : `no media file '${r.id}' in project '${r.project}'`,
              situation: { kind: 'media_not_found' },
            },
            {},
            d,
          );
        // CSP sandbox, nosniff, and a download for active types (media-headers.ts): on every adapter.
        const headers = { ...this.cors.headers(header(h, 'origin')), ...this.vary(), ...mediaHeaders(m.record.mime_type) };
        return { status: 200, headers, body: null, media: m.record, ...(r.thumb ? { thumb: true } : {}) };
      }
      default:
        break;
    }
    // The API.
    if (!acceptsJson(header(h, 'accept'))) return this.notAcceptable(req, d);
    const project = snapshot.projects.get(r.project);
    const projectMissing = API_PROBLEMS.projectNotFound(r.project);
    if (!project) return this.problem(req, projectMissing, {}, d);
    const auth = authorize(snapshot, project, header(h, 'authorization'), this.platform.sha256Hex);
    if (auth.kind === 'not_found') return this.problem(req, projectMissing, {}, d);
    if (auth.kind === 'unauthorized') return this.problem(req, auth.problem, { 'www-authenticate': auth.challenge }, d);
    if (auth.kind === 'forbidden') return this.problem(req, auth.problem, {}, d);
    const cacheControl = !project.record.public || auth.tokenUsed ? this.privateCache : this.cacheControl;
    const ctx: QueryContext = { scopes: auth.scopes ?? READ_ONLY, maxLimit: this.maxLimit, utf8: true };
    const q = req.query;
    const base = `/api/${project.record.id}`;

    // The query to run, when there is one (else the static document at `key` answers).
    let query: (() => Utf8Outcome) | undefined;
    let key: string;
    switch (r.kind) {
      case 'project':
        if (q !== '') {
          return this.problem(req, API_PROBLEMS.queryOnProject(), {}, d);
        }
        key = base;
        break;
      case 'media-list':
        key = `${base}/${MEDIA_SEGMENT}`;
        if (q !== '') query = () => this.engine.queryMediaList(project, q, ctx);
        break;
      case 'media-item':
        if (!project.mediaByKey.has(r.id)) {
          return this.problem(req, API_PROBLEMS.mediaItemNotFound(r.project, r.id), {}, d);
        }
        key = `${base}/${MEDIA_SEGMENT}/${r.id}`;
        if (q !== '') query = () => this.engine.queryMediaItem(project, r.id, q, ctx);
        break;
      case 'entries':
      case 'entry': {
        const col = project.collections.get(r.collection);
        if (!col) {
          return this.problem(
            req,
            API_PROBLEMS.collectionNotFound(r.project, r.collection, [...project.collections.keys(), MEDIA_SEGMENT]),
            {},
            d,
          );
        }
        if (r.kind === 'entries') {
          key = `${base}/${r.collection}`;
          if (q !== '') query = () => this.engine.queryEntries(project, col, q, ctx);
        } else {
          key = `${base}/${r.collection}/${r.id}`;
          if (q !== '') query = () => this.engine.queryEntry(project, col, r.id, q, ctx);
        }
        break;
      }
    }
    if (query) {
      // The answer depends on the path, the query and the drafts scope only (the token was checked).
      const answer = this.answerOf(served, `${key}?${q}${ctx.scopes.has('drafts') ? '\0drafts' : ''}`, query);
      return answer instanceof Doc ? this.json(req, answer, cacheControl) : this.problem(req, answer, {}, d);
    }
    let doc: Doc | undefined;
    try {
      doc = served.docs.get(key, () => staticDocument(snapshot, key));
    } catch (err) {
      if (err instanceof ProblemError) return this.problem(req, err.problem, {}, d);
      throw err;
    }
    if (!doc) {
      let missing = r.kind === 'entry' ? API_PROBLEMS.entryNotFound(r.id, r.collection) : API_PROBLEMS.entryNotFound(key);
      // A draft asked for without state=: say so to a token that may read it (found from outside:
      // 'no published entry' left a drafts token guessing); to any other, a draft is not there.
      if (r.kind === 'entry' && ctx.scopes.has('drafts') && project.collections.get(r.collection)?.byId.get(r.id)?.record.draft) {
        missing = { ...missing, detail: `${missing.detail}: it is a draft; ask with ?state=with_draft (this token has the drafts scope)` };
      }
      return this.problem(req, missing, {}, d);
    }
    return this.json(req, doc, cacheControl);
  }

  /**
   * The answer of the elmapi3 route table, or undefined: not a v3 request. A handler made without
   * the table (an edge worker that did not opt in) answers a v3 request 501 naming the option.
   */
  private elmapi3Answer(req: CoreRequest, snapshot: Snapshot): V3Answer | undefined {
    if (!this.elmapi3) {
      const named = snapshot.projects.get(header(req.headers, 'project-id')?.trim() ?? '');
      if (named?.record.dialect !== 'elmapi3') return undefined;
      const detail = `project '${named.record.id}' is in the elmapi3 dialect, and this handler was made without its routes: createHandler(snapshot, { elmapi3: elmapi3Routes }), elmapi3Routes from 'content-query-api/edge'`;
      return { status: 501, body: JSON.stringify({ message: detail }), warnings: [], private: false };
    }
    return this.elmapi3(snapshot, req, this.platform.sha256Hex, (path) => {
      const today = route(path);
      const p = 'project' in today ? snapshot.projects.get(today.project) : undefined;
      return p !== undefined && p.record.dialect !== 'elmapi3';
    });
  }

  /** A v3 answer (src/core/http/elmapi3/): its body, one X-Cqa-Warning per silent quirk, the journal's note. */
  private v3(req: CoreRequest, a: V3Answer): CoreResponse {
    const bytes = this.platform.encodeText(a.body);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(bytes.length),
      'cache-control': a.status !== 200 ? 'no-store' : a.private ? this.privateCache : this.cacheControl,
      'x-ratelimit-limit': '300',
      'x-ratelimit-remaining': '299',
      ...this.cors.headers(header(req.headers, 'origin')),
      ...this.vary('project-id', 'Authorization'),
    };
    const warnings = a.warnings.map(headerText);
    if (warnings.length > 0) {
      // One header line per problem would need a list type here; a comma is inside the texts, so lines are joined by the adapter-safe separator ' | '.
      headers['x-cqa-warning'] = warningHeader(warnings);
      const expose = headers['access-control-expose-headers'];
      headers['access-control-expose-headers'] = expose ? `${expose}, X-Cqa-Warning` : 'X-Cqa-Warning';
    }
    return { status: a.status, headers, body: req.method === 'HEAD' ? null : bytes, ...(warnings.length > 0 ? { warnings } : {}) };
  }

  /** The answer to a query: cached, or computed now. A refusal is not cached (it costs little). */
  private answerOf(served: ServedSnapshot, cacheKey: string, query: () => Utf8Outcome): Doc | QueryProblem {
    let refused: QueryProblem | undefined;
    const doc = served.answers.get(
      cacheKey,
      () => {
        const outcome = query();
        if (outcome.ok) return outcome.body;
        refused = outcome.problem;
        return undefined;
      },
      true,
    );
    return doc ?? (refused as QueryProblem);
  }

  /**
   * /openapi.json describes the public projects; a valid token adds its own project (the token
   * rules of the API apply: a bad token is a 401). Each audience has its own cached document, and
   * a per-token answer is `private`; `Vary: Authorization` keeps caches from mixing them up.
   */
  private openapi(req: CoreRequest, served: ServedSnapshot): CoreResponse {
    const h = req.headers;
    if (!this.lenientAccept(h)) return this.notAcceptable(req);
    const snapshot = served.snapshot;
    const auth = authorizeAudience(snapshot, header(h, 'authorization'), this.platform.sha256Hex);
    if (auth.kind === 'unauthorized') return this.problem(req, auth.problem, { 'www-authenticate': auth.challenge });
    if (auth.kind === 'forbidden') return this.problem(req, auth.problem);
    const own = auth.project;
    const url = this.serverUrl;
    const described = (text: string): string => (url === undefined ? text : withServerUrl(text, url));
    if (!own)
      return this.json(req, served.docs.get('openapi', () => described(snapshot.openapi)) as Doc, this.cacheControl, 'Authorization');
    const ids = [...snapshot.projects.values()].filter((p) => p.record.public || p === own).map((p) => p.record.id);
    const doc = served.docs.get(`openapi:${own.record.id}`, () => described(snapshot.openapiOf(ids))) as Doc;
    return this.json(req, doc, this.privateCache, 'Authorization');
  }

  /** /healthz and /openapi.json also answer without an Accept header (probes, tools). */
  private lenientAccept(h: CoreRequest['headers']): boolean {
    const accept = header(h, 'accept');
    return accept === undefined || accept === '' || acceptsJson(accept);
  }

  private notAcceptable(req: CoreRequest, dialect: Dialect = cqa): CoreResponse {
    return this.problem(
      req,
      {
        status: 406,
        code: 'not_acceptable',
        detail: "this API answers JSON only: send the header 'Accept: application/json'",
      },
      {},
      dialect,
    );
  }

  private vary(...names: string[]): Record<string, string> {
    if (this.varyOrigin) names.push(this.varyOrigin);
    return names.length ? { vary: names.join(', ') } : {};
  }

  /** `varyAlso`: a request header the answer depends on, besides Accept-Encoding and Origin. */
  private json(req: CoreRequest, doc: Doc, cacheControl: string, varyAlso?: string, crossOrigin = true): CoreResponse {
    const h = req.headers;
    const big = doc.bytes.length > COMPRESS_MIN;
    const encoding = big ? negotiateEncoding(header(h, 'accept-encoding'), this.platform.encodings) : undefined;
    const headers: Record<string, string> = {
      'content-type': JSON_TYPE,
      etag: etagOf(doc.tag, encoding),
      'cache-control': cacheControl,
    };
    const cors = crossOrigin ? this.cors.headers(header(h, 'origin')) : {};
    for (const k in cors) headers[k] = cors[k] as string;
    const vary = big ? (this.varyOrigin ? 'Accept-Encoding, Origin' : 'Accept-Encoding') : this.varyOrigin;
    if (vary || varyAlso) headers.vary = varyAlso ? (vary ? `${varyAlso}, ${vary}` : varyAlso) : (vary as string);
    if (ifNoneMatch(header(h, 'if-none-match'), doc.tag)) {
      delete headers['content-type'];
      return { status: 304, headers, body: null };
    }
    let body: Uint8Array = doc.bytes;
    let encode: Encoding | undefined;
    if (encoding) {
      headers['content-encoding'] = encoding;
      const v = doc.variant(encoding);
      if (v) body = v;
      else encode = encoding;
    }
    if (!encode) headers['content-length'] = String(body.length);
    const head = req.method === 'HEAD';
    if (encode) return { status: 200, headers, body: head ? null : body, encode };
    return body === doc.bytes || head
      ? { status: 200, headers, body: head ? null : body }
      : { status: 200, headers, body, plain: doc.bytes };
  }

  /**
   * An error answer that is no answer of the API's (the server is too busy to send one), worded by
   * the dialect of the project the request names, as the API's own errors are.
   */
  refusal(req: CoreRequest, p: Problem, extra: Record<string, string> = {}): CoreResponse {
    return this.problem(req, p, extra, this.dialectOfRequest(req));
  }

  /** The dialect of the project `req` names: by its path, or an elmapi3 project by its `project-id` header. */
  private dialectOfRequest(req: CoreRequest): Dialect {
    const snapshot = this.served.snapshot;
    const r = route(req.path);
    const v3 = snapshot.projects.get(header(req.headers, 'project-id')?.trim() ?? '');
    return v3?.record.dialect === 'elmapi3' && r.kind !== 'healthz' && r.kind !== 'openapi' ? v3.dialect : dialectOf(snapshot, r);
  }

  /** An error answer, worded by `dialect` (default cqa: an RFC 9457 problem document). */
  problem(req: CoreRequest, p: Problem, extra: Record<string, string> = {}, dialect: Dialect = cqa): CoreResponse {
    // What is missing may be in a file that does not load now: say so where it is looked for.
    const stale = this.served.stale;
    const said =
      p.status === 404 && stale
        ? {
            ...p,
            detail: `${p.detail} (the content has ${stale.length} error${stale.length === 1 ? '' : 's'}, so the last good snapshot is served: /healthz lists them)`,
          }
        : p;
    const answer = dialect.error(said);
    const bytes = this.platform.encodeText(answer.body);
    return {
      status: answer.status,
      headers: {
        'content-type': answer.contentType,
        'content-length': String(bytes.length),
        'cache-control': 'no-store',
        ...this.cors.headers(header(req.headers, 'origin')),
        ...this.vary(),
        ...answer.headers,
        ...extra,
      },
      body: req.method === 'HEAD' ? null : bytes,
    };
  }
}

/**
 * The document at `key` (a path without a query), measured before it is joined: a collection's
 * list holds every published entry, and one longer than MAX_ANSWER_CHARS is refused (a 400 saying
 * to ask with a `limit`), as a query's answer is.
 */
function staticDocument(snapshot: Snapshot, key: string): string | undefined {
  const pieces = documentPieces(snapshot, key, refuseLongTexts);
  if (pieces === undefined) return undefined;
  let chars = 0;
  for (const p of pieces) chars += p.length;
  // A list's pieces: its head, the items with a separator between each two, its tail.
  if (chars > MAX_ANSWER_CHARS) throw new ProblemError(answerTooLarge(chars, pieces.length > 1 ? (pieces.length - 1) / 2 : 1));
  return pieces.length === 1 ? pieces[0] : pieces.join('');
}

function isSnapshot(s: unknown): s is Snapshot {
  return typeof s === 'object' && s !== null && (s as Snapshot).projects instanceof Map && typeof (s as Snapshot).hash === 'string';
}

function notSnapshot(s: unknown): string {
  if (typeof (s as { then?: unknown } | null)?.then === 'function') return 'a promise: await it first';
  if (typeof s === 'string')
    return `the string ${JSON.stringify(s.slice(0, 60))} (a snapshot is built from a content folder: await buildSnapshot({ content: folder }))`;
  return s === null ? 'null' : Array.isArray(s) ? 'an array' : typeof s === 'object' ? 'an object without projects and hash' : typeof s;
}
