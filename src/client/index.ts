// `content-query-api/client`: one client for every place the content API lives.
//
//   const cms = createClient<Types>({ baseUrl: 'https://cdn.example.com', project: 'demo', mode: 'static' });
//   const { data } = await cms.entries('posts', { where: { tags: 'travel' }, sort: 'published_at:desc', limit: 3 });
//
// `mode: 'server'` sends the query to a server that speaks the API (cqa serve, an edge worker, …);
// `mode: 'static'` answers it in place over a static tree (`cqa build`) with the server's own query
// engine. Same methods, same answers, same errors. No Node imports: runs in browsers and edge
// runtimes (docs/client.md).
import { queryString, type QueryObject } from './query-string.js';
import { ServerSource, type Fetch, type Source } from './source.js';
import { StaticSource } from './static.js';
import type {
  AnyProject,
  Collection,
  EntryOf,
  FieldName,
  List,
  Media,
  MediaQuery,
  ProjectInfo,
  ProjectOf,
  ProjectSchema,
  Query,
  Shaped,
} from './types.js';

export type * from './types.js';
export type { Fetch } from './source.js';
export { StaticTreeError } from './published.js';

export interface ClientOptions {
  /**
   * Where the API is: a server's origin (`http://127.0.0.1:4000`), or where a static tree is
   * published (`https://cdn.example.com`, `/content` on this site). Requests go to `<baseUrl>/api/…`.
   */
  readonly baseUrl: string;
  readonly project: string;
  /** Sent as `Authorization: Bearer …` in server mode (a static tree has no tokens). */
  readonly token?: string;
  readonly mode: 'server' | 'static';
  /** Default: the global fetch. */
  readonly fetch?: Fetch;
  /** Static mode: the largest `limit` accepted, as `cqa serve --max-limit` (default 1000; 0 = no cap). */
  readonly maxLimit?: number;
}

/** An answer other than 200: the RFC 9457 problem the server (or the static engine) gave. */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  readonly status: number;
  /** Stable machine-readable word, e.g. 'unknown_field'. */
  readonly code: string;
  /** What to change, for a person. */
  readonly detail: string;
  /** The query parameter at fault, e.g. 'where[prise]'. */
  readonly param: string | undefined;

  constructor(status: number, body: string) {
    let p: { code?: unknown; detail?: unknown; param?: unknown } = {};
    try {
      p = JSON.parse(body) as typeof p;
    } catch {
      /* not a problem document (a proxy's error page) */
    }
    const code = typeof p.code === 'string' ? p.code : 'http_error';
    const detail = typeof p.detail === 'string' ? p.detail : body.slice(0, 200);
    super(`${status} ${code}: ${detail}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.param = typeof p.param === 'string' ? p.param : undefined;
  }
}

type ItemQuery<P extends ProjectSchema, C extends Collection<P>, K extends string, T extends boolean> = Pick<
  Query<P, C, K, T>,
  'state' | 'timestamps' | 'fields' | 'exclude'
>;

export interface Client<P extends ProjectSchema = AnyProject> {
  readonly mode: 'server' | 'static';
  /** `GET /api/<project>`: the project, its collections and their fields. */
  project(): Promise<ProjectInfo>;
  /** A page of entries and `meta` (total before limit/offset). A query string is sent as it is. */
  entries<C extends Collection<P>, K extends FieldName<P, C> = never, T extends boolean = false>(
    collection: C,
    query?: Query<P, C, K, T> | string,
  ): Promise<List<Shaped<EntryOf<P, C>, K, T>>>;
  /** The first match (at `offset`), or null when nothing matches. */
  first<C extends Collection<P>, K extends FieldName<P, C> = never, T extends boolean = false>(
    collection: C,
    query?: Omit<Query<P, C, K, T>, 'limit'>,
  ): Promise<Shaped<EntryOf<P, C>, K, T> | null>;
  /** The number of matches (`count`). */
  count<C extends Collection<P>>(collection: C, query?: Pick<Query<P, C>, 'where' | 'whereRelation' | 'locale' | 'state'>): Promise<number>;
  /** One entry by id; a ClientError with status 404 when there is no such published entry. */
  entry<C extends Collection<P>, K extends FieldName<P, C> = never, T extends boolean = false>(
    collection: C,
    id: string,
    query?: ItemQuery<P, C, K, T>,
  ): Promise<Shaped<EntryOf<P, C>, K, T>>;
  /** The project's media items (the same parameters, on media attributes). */
  media(query?: MediaQuery | string): Promise<List<Media>>;
  mediaItem(id: string): Promise<Media>;
  /** Any API path under `/api/<project>` ('', '/posts', '/posts/hello', …) with a raw query: the parsed JSON. */
  get(path: string, query?: string): Promise<unknown>;
}

/**
 * A client for one project. `createClient<Types>()` with the `Types` that `cqa types` writes
 * checks collection and field names, operators and values, and types the answers; with several
 * projects in `Types`, pick one: `createClient<Types['demo']>()`.
 */
export function createClient<S = AnyProject>(options: ClientOptions): Client<ProjectOf<S>> {
  const doFetch: Fetch = options.fetch ?? ((url, init) => fetch(url, init));
  const base = options.baseUrl.replace(/\/+$/, '');
  const source: Source =
    options.mode === 'static'
      ? new StaticSource(base, options.project, doFetch, options.maxLimit)
      : options.mode === 'server'
        ? new ServerSource(`${base}/api/${encodeURIComponent(options.project)}`, options.token, doFetch)
        : invalidMode(options.mode);

  const get = async (path: string, query = ''): Promise<unknown> => {
    const { status, body } = await source.answer(path, query);
    if (status !== 200) throw new ClientError(status, body);
    return JSON.parse(body);
  };
  const qs = (q: QueryObject | string | undefined, ...extra: string[]) =>
    [typeof q === 'string' ? q : queryString(q), ...extra].filter((s) => s !== '').join('&');

  const client: Client = {
    mode: options.mode,
    project: async () => ((await get('')) as { data: ProjectInfo }).data,
    entries: async (collection, query) => (await get(`/${collection}`, qs(query as QueryObject))) as never,
    first: async (collection, query) => {
      const list = (await get(`/${collection}`, qs(query as QueryObject, 'limit=1'))) as List<never>;
      return list.data[0] ?? null;
    },
    count: async (collection, query) => ((await get(`/${collection}`, qs(query as QueryObject, 'count'))) as { count: number }).count,
    entry: async (collection, id, query) => ((await get(`/${collection}/${id}`, qs(query as QueryObject))) as { data: never }).data,
    media: async (query) => (await get('/project-media', qs(query as QueryObject))) as List<Media>,
    mediaItem: async (id) => ((await get(`/project-media/${id}`)) as { data: Media }).data,
    get,
  };
  return client as unknown as Client<ProjectOf<S>>;
}

function invalidMode(mode: unknown): never {
  throw new TypeError(`createClient: mode must be 'server' or 'static', got ${JSON.stringify(mode)}`);
}
