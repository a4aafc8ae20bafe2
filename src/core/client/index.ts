// `content-query-api/client`: one client for every place the content API lives.
//
//   const cms = createClient<Types>({ baseUrl: 'https://cdn.example.com', project: 'demo', mode: 'static' });
//   const { data } = await cms.entries('posts', { where: { tags: 'travel' }, sort: 'published_at:desc', limit: 3 });
//
// `mode: 'server'` sends the query to a server that speaks the API (cqa serve, an edge worker, …);
// `mode: 'static'` answers it in place over a static tree (`cqa build`) with the server's own query
// engine. Same methods, same answers, same errors. `dialect: 'elmapi'` for a project that answers
// in that dialect (bare arrays, integer ids, `{"error": …}`). No Node imports: runs in browsers
// and edge runtimes (docs/client.md).
import { PROJECT_ID } from '../model/identifiers.js';
import { CLIENT_DIALECTS, IGNORED } from './dialects.js';
import { checkQueryKeys, type QueryMethod } from './query-keys.js';
import { closestName } from '../suggest.js';
import { queryString, type QueryObject } from './query-string.js';
import { ServerSource, Unreachable, type Answer, type Fetch, type Source } from './source.js';
import { entryIdProblem, mediaIdProblem, rawPathProblem, slugProblem, UUID, type SegmentProblem } from './segments.js';
import { StaticSource, type Revalidate } from './static.js';
import type {
  AnyElmapi3Project,
  AnyElmapiProject,
  AnyProject,
  Collection,
  DialectName,
  DialectOption,
  Elmapi3Page,
  EntriesOf,
  EntryOf,
  FieldName,
  IdOf,
  ItemQueryExtras,
  MediaListOf,
  MediaOf,
  MediaQuery,
  PageQueryOf,
  ProjectInfoOf,
  ProjectOf,
  ProjectSchema,
  Query,
  Shaped,
  TimestampsOf,
} from './types.js';

export type * from './types.js';
export type { Fetch } from './source.js';
export { StaticTreeError } from './published.js';
export type { Revalidate } from './static.js';
// For clients generated from /openapi.json (openapi-fetch's `querySerializer` option): docs/openapi.md.
export { querySerializer } from './query-serializer.js';

export interface ClientOptions {
  /**
   * Where the API is: a server's origin (`http://127.0.0.1:4000`), or where a static tree is
   * published (`https://cdn.example.com`, `/content` on this site). Requests go to `<baseUrl>/api/…`.
   */
  readonly baseUrl: string;
  readonly project: string;
  /** Sent as `Authorization: Bearer …` in server mode (a static tree has no tokens). */
  readonly token?: string | undefined;
  readonly mode: 'server' | 'static';
  /** Default: the global fetch. */
  readonly fetch?: Fetch | undefined;
  /** Static mode: the largest `limit` accepted, as `cqa serve --max-limit` (default 1000; 0 = no cap). */
  readonly maxLimit?: number | undefined;
  /**
   * The project's dialect (`dialect:` in its project.yaml): 'cqa' (default), 'elmapi' or
   * 'elmapi3'. Its answers do not say which, so the others need it; server mode only for now.
   * `elmapi3`: `project` is the project uuid, sent as the `project-id` header (requests go to
   * `<baseUrl>/api/…` without it in the path).
   */
  readonly dialect?: DialectName | undefined;
  /**
   * Static mode: when a document already downloaded is checked again — `'always'` (default: every
   * call, If-None-Match → 304), `'never'` (the first copy for the client's life) or a number of
   * milliseconds a copy is used without asking. A failed check (network, CORS, 5xx) answers from
   * the copy.
   */
  readonly revalidate?: Revalidate | undefined;
}

/**
 * An answer other than 200: the RFC 9457 problem the server (or the static engine) gave, or the
 * `elmapi` dialect's `{"error": …[, "code": …]}` / `{"message": …}` (then `detail` is that text).
 */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  readonly status: number;
  /** Stable machine-readable word, e.g. 'unknown_field'; 'http_error' when the body has none. */
  readonly code: string;
  /** What to change, for a person. */
  readonly detail: string;
  /** The query parameter at fault, e.g. 'where[prise]'. */
  readonly param: string | undefined;

  /** `cause`: the fetch error of a request that got no answer (status 0, code 'unreachable'). */
  constructor(status: number, body: string, options?: { readonly cause?: unknown }) {
    let p: { code?: unknown; detail?: unknown; param?: unknown; error?: unknown; message?: unknown } = {};
    try {
      p = JSON.parse(body) as typeof p;
    } catch {
      /* not a problem document (a proxy's error page) */
    }
    const code = typeof p.code === 'string' ? p.code : 'http_error';
    const text = [p.detail, p.error, p.message].find((t) => typeof t === 'string') as string | undefined;
    const detail = text ?? body.slice(0, 200);
    super(`${status} ${code}: ${detail}`, options);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.param = typeof p.param === 'string' ? p.param : undefined;
  }
}

/**
 * An entry as the query shows it. `X`: the fields `exclude` names (never: none); a query whose type
 * allows every field there (a `Query<P, C>` built ahead) narrows nothing.
 */
type Entry<P extends ProjectSchema, C extends Collection<P>, K extends string, T extends boolean, X extends string = never> = Shaped<
  EntryOf<P, C>,
  K,
  T,
  TimestampsOf<P>,
  [X] extends [never] ? never : FieldName<P, C> extends X ? never : X
>;

type ItemQuery<P extends ProjectSchema, C extends Collection<P>, K extends string, T extends boolean, X extends FieldName<P, C>> = Pick<
  Query<P, C, K, T, X>,
  'state' | 'timestamps' | 'fields' | 'exclude'
> &
  ItemQueryExtras<P>;

export interface Client<P extends ProjectSchema = AnyProject> {
  readonly mode: 'server' | 'static';
  readonly dialect: DialectName;
  /** `GET /api/<project>`: the project, its collections and their fields (`elmapi`: uuid, name, description). */
  project(): Promise<ProjectInfoOf<P>>;
  /**
   * A page of entries and `meta` (total before limit/offset); in `elmapi`, the bare array; in
   * `elmapi3` with `paginate`, Laravel's page. A query string is sent as it is.
   */
  entries<
    C extends Collection<P>,
    K extends FieldName<P, C> = never,
    T extends boolean = false,
    X extends FieldName<P, C> = never,
    G extends number | undefined = undefined,
  >(
    collection: C,
    query?: (Query<P, C, K, T, X> & PageQueryOf<P, G>) | string,
  ): Promise<[G] extends [number] ? Elmapi3Page<Entry<P, C, K, T, X>> : EntriesOf<P, C, Entry<P, C, K, T, X>>>;
  /** The first match (at `offset`), or null when nothing matches. */
  first<C extends Collection<P>, K extends FieldName<P, C> = never, T extends boolean = false, X extends FieldName<P, C> = never>(
    collection: C,
    query?: Omit<Query<P, C, K, T, X>, 'limit'>,
  ): Promise<Entry<P, C, K, T, X> | null>;
  /** The number of matches (`count`). */
  count<C extends Collection<P>>(collection: C, query?: Pick<Query<P, C>, 'where' | 'whereRelation' | 'locale' | 'state'>): Promise<number>;
  /** One entry by id; a ClientError with status 404 when there is no such published entry. */
  entry<C extends Collection<P>, K extends FieldName<P, C> = never, T extends boolean = false, X extends FieldName<P, C> = never>(
    collection: C,
    id: IdOf<P>,
    query?: ItemQuery<P, C, K, T, X>,
  ): Promise<Entry<P, C, K, T, X>>;
  /**
   * The project's media items (the same parameters, on media attributes); in `elmapi3` a page of
   * assets (`/api/files`: a query string such as 'paginate=50&page=2&type=image').
   */
  media(query?: MediaQuery<MediaOf<P>> | string): Promise<MediaListOf<P>>;
  /** One media item; in `elmapi` and `elmapi3` also `name/<file name>`. */
  mediaItem(id: IdOf<P>): Promise<MediaOf<P>>;
  /** Any API path under `/api/<project>` ('', '/posts', '/posts/hello', …) with a raw query: the parsed JSON. */
  get(path: string, query?: string): Promise<unknown>;
}

/**
 * A client for one project. `createClient<Types>()` with the `Types` that `cqa types` writes
 * checks collection and field names, operators and values, and types the answers; with several
 * projects in `Types`, pick one: `createClient<Types['demo']>()`. An `elmapi` project in `Types`
 * requires `dialect: 'elmapi'`.
 */
export function createClient(options: ClientOptions & { readonly dialect: 'elmapi' }): Client<AnyElmapiProject>;
export function createClient(options: ClientOptions & { readonly dialect: 'elmapi3' }): Client<AnyElmapi3Project>;
export function createClient<S = AnyProject>(options: ClientOptions & DialectOption<ProjectOf<S>>): Client<ProjectOf<S>>;
export function createClient(options: ClientOptions): unknown {
  checkClientOptions(options);
  const doFetch: Fetch = options.fetch ?? ((url, init) => fetch(url, init));
  const base = options.baseUrl.replace(/\/+$/, '');
  const dialectName = options.dialect ?? 'cqa';
  const d = Object.hasOwn(CLIENT_DIALECTS, dialectName)
    ? CLIENT_DIALECTS[dialectName]
    : invalid('dialect', "'cqa', 'elmapi' or 'elmapi3'", dialectName);
  const v3 = dialectName === 'elmapi3';
  if (options.mode === 'static' && dialectName !== 'cqa') {
    throw new TypeError(
      `createClient: mode 'static' does not support the ${dialectName} dialect yet; use mode 'server' (cqa serve, or cqa preview for a built tree's plain documents)`,
    );
  }
  if (typeof options.project !== 'string' || !PROJECT_ID.test(options.project))
    invalid('project', 'a project id (letters, digits, _ and -)', options.project);
  if (v3 && !UUID.test(options.project)) invalid('project', 'the uuid of an elmapi3 project', options.project);
  const source: Source =
    options.mode === 'static'
      ? new StaticSource(base, options.project, doFetch, options.maxLimit, revalidateOption(options.revalidate))
      : options.mode === 'server'
        ? v3
          ? new ServerSource(`${base}/api`, options.token, doFetch, { 'project-id': options.project })
          : new ServerSource(`${base}/api/${encodeURIComponent(options.project)}`, options.token, doFetch)
        : invalid('mode', "'server' or 'static'", options.mode);
  // elmapi3 lists assets at /api/files (always paginated), the others at /project-media.
  const mediaPath = v3 ? '/files' : '/project-media';

  const get = async (path: string, query = ''): Promise<unknown> => {
    let answer: Answer;
    try {
      answer = await source.answer(path, query);
    } catch (err) {
      if (!(err instanceof Unreachable)) throw err;
      // fetch's bare `TypeError: fetch failed` says neither where nor why.
      const detail = `${err.message}: no server answered at ${base}; is it running, and is this its address? (mode 'server' asks a server that speaks the API: cqa serve, startServer(), an edge worker)`;
      throw new ClientError(0, JSON.stringify({ code: 'unreachable', detail }), { cause: err.cause });
    }
    const { status, body } = answer;
    if (status !== 200) {
      const { code, detail } = new ClientError(status, body);
      // The server's code for an elmapi3 project asked at cqa's paths: a client user builds no URL.
      if (code === 'elmapi3_project')
        throw new ClientError(
          status,
          JSON.stringify({ code, detail: `project '${options.project}' is an elmapi3 project: pass dialect: 'elmapi3' to createClient` }),
        );
      // It asked <baseUrl>/api/api/…: the 404 named project 'api' (found from outside).
      const fix = `baseUrl ends in /api, which the client adds itself: give '${base.slice(0, -4)}'`;
      throw new ClientError(status, status === 404 && base.endsWith('/api') ? JSON.stringify({ code, detail: `${detail}; ${fix}` }) : body);
    }
    return JSON.parse(body);
  };
  // Every argument that becomes part of the request path is checked first (segments.ts).
  const checked = (problem: SegmentProblem): void => {
    if (problem) throw new ClientError(400, JSON.stringify({ code: 'invalid_path_segment', detail: problem.detail, param: problem.param }));
  };
  const col = (slug: unknown) => {
    checked(slugProblem(slug));
    return `/${slug as string}`;
  };
  const qs = (method: QueryMethod, q: QueryObject | string | undefined, ...extra: string[]) => {
    checkQueryKeys(method, q, dialectName);
    return [typeof q === 'string' ? q : queryString(d.query(q)), ...extra].filter((s) => s !== '').join('&');
  };

  /**
   * A list longer than the limit asked for: the server ignored the query, as a static host does
   * (found from outside: a server-mode client on a static tree got 24 entries for limit 1, silently).
   */
  const honoured = (json: unknown, limit: unknown): unknown => {
    // elmapi3 ignores a limit under 1: its whole list is the answer.
    if (typeof limit === 'number' && limit > 0) {
      const got = d.listItems(json).length;
      if (got > limit) throw new TypeError(`asked for at most ${limit} entries, got ${got}: ${IGNORED}`);
    }
    return json;
  };

  const client: Client = {
    mode: options.mode,
    dialect: dialectName,
    project: async () => d.item(await get('')) as never,
    entries: async (collection, query) =>
      d.list(honoured(await get(col(collection), qs('entries', query as QueryObject)), (query as QueryObject | undefined)?.limit)) as never,
    first: async (collection, query) => {
      // `limit=1` rather than `first`: nothing matching is null, not a 404.
      checkQueryKeys('first', query, dialectName);
      const q =
        dialectName === 'cqa' ? qs('first', query as QueryObject, 'limit=1') : qs('entries', { ...(query as QueryObject), limit: 1 });
      return (d.listItems(honoured(await get(col(collection), q), 1))[0] ?? null) as never;
    },
    count: async (collection, query) => d.count(await get(col(collection), qs('count', query as QueryObject, 'count'))),
    entry: async (collection, id, query) => {
      checked(entryIdProblem(id, dialectName));
      return d.item(await get(`${col(collection)}/${String(id)}`, qs('entry', query as QueryObject))) as never;
    },
    media: async (query) => {
      if (v3 && typeof query === 'object') throw new TypeError("media(): elmapi3 takes a query string ('paginate=50')");
      return d.list(await get(mediaPath, qs('media', query as QueryObject))) as never;
    },
    mediaItem: async (id) => {
      checked(mediaIdProblem(id, dialectName));
      return d.item(await get(`${mediaPath}/${String(id)}`)) as never;
    },
    get: async (path, query) => {
      checked(rawPathProblem(path));
      return get(path, query);
    },
  };
  return client;
}

/** The keys of ClientOptions (a misspelt one does not compile). */
const CLIENT_KEYS: readonly string[] = [
  'baseUrl',
  'project',
  'token',
  'mode',
  'fetch',
  'maxLimit',
  'dialect',
  'revalidate',
] satisfies (keyof ClientOptions)[];

/**
 * From JavaScript, `baseURL` (axios' spelling) failed later as `Cannot read properties of
 * undefined`, and `tokn` or `headers` were ignored: an unknown name is refused naming the closest
 * (as startServer does), a value of the wrong type says what to give.
 */
function checkClientOptions(o: ClientOptions): void {
  for (const k of Object.keys(o ?? invalid('options', '{ baseUrl, project, mode }', o)))
    if (!CLIENT_KEYS.includes(k)) {
      const near = closestName(k, CLIENT_KEYS);
      const hint =
        k === 'headers'
          ? '; send headers of your own through a fetch: fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, … } })'
          : near
            ? `; did you mean '${near}'?`
            : '';
      throw new TypeError(`createClient: unknown option '${k}'${hint} (the options: ${CLIENT_KEYS.join(', ')})`);
    }
  if (typeof o.baseUrl !== 'string') invalid('baseUrl', "the API's address, e.g. 'http://127.0.0.1:4000' or '/content'", o.baseUrl);
  // What the global fetch cannot ask (a fetch of your own may): found from outside, `file:///…`
  // and `../dist` were accepted and failed on the first call with a message about CORS.
  if (o.fetch === undefined) {
    const scheme = /^([a-z][a-z\d+.-]*):/i.exec(o.baseUrl)?.[1]?.toLowerCase();
    if (scheme !== undefined && scheme !== 'http' && scheme !== 'https')
      invalid(
        'baseUrl',
        `an http(s) address (fetch cannot ask ${scheme}: URLs); to read a tree from disk, serve it (cqa preview) or pass a fetch of your own`,
        o.baseUrl,
      );
    // A path from the site's root ('/content', '') is for a page's fetch; `../dist` is a file path.
    if (scheme === undefined && o.baseUrl !== '' && !o.baseUrl.startsWith('/'))
      invalid('baseUrl', "an http(s) address or a path from the site's root, e.g. 'http://127.0.0.1:4000' or '/content'", o.baseUrl);
  }
  // '' is what an unset variable gives (`process.env.TOKEN ?? ''`): sent, it made a public project answer 401.
  if (!(o.token === undefined || (typeof o.token === 'string' && o.token.trim() !== '')))
    invalid('token', "a token (sent as 'Authorization: Bearer <token>'), or left out for a public project", o.token);
  if (!(o.fetch === undefined || typeof o.fetch === 'function')) invalid('fetch', 'a function (url, init) => Promise<Response>', o.fetch);
  if (!(o.maxLimit === undefined || (Number.isInteger(o.maxLimit) && o.maxLimit >= 0)))
    invalid('maxLimit', 'a whole number ≥ 0 (0: no cap)', o.maxLimit);
}

function revalidateOption(value: Revalidate | undefined): Revalidate {
  if (value === undefined || value === 'always' || value === 'never') return value ?? 'always';
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  return invalid('revalidate', "'always', 'never' or a number of milliseconds ≥ 0", value);
}

function invalid(option: string, expected: string, value: unknown): never {
  throw new TypeError(`createClient: ${option} must be ${expected}, got ${JSON.stringify(value)}`);
}
