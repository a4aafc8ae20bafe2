// Where a client's answers come from. Both modes answer the same requests with the same status and
// the same JSON text: `server` asks a server that speaks the API (cqa serve, an edge worker, …);
// `static` evaluates the query itself over a static tree (static.ts). No Node imports.

/** An API answer: status and JSON text (an RFC 9457 problem unless the status is 200). */
export interface Answer {
  readonly status: number;
  readonly body: string;
}

export interface Source {
  /**
   * `GET /api/<project><path>?<query>`; `path` is '' (the project), `/<collection>`,
   * `/<collection>/<id>`, `/project-media` or `/project-media/<id>`, not encoded.
   */
  answer(path: string, query: string): Promise<Answer>;
}

export type Fetch = (url: string, init: { headers: Record<string, string> }) => Promise<Response>;

/** '/project-media/a b.png' → '/project-media/a%20b.png' (every segment encoded on its own). */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * A query string as sent: as written, but a URL would end it at a `#` and drop tabs, line breaks
 * and trailing spaces, so those are percent-encoded and the server reads what the static client
 * reads (found from outside: `where[color]=#2f5d50` asked the server for an empty colour).
 */
export const sendable = (query: string): string => query.replace(/[\0- #]/g, encodeURIComponent);

/** Why a fetch failed, for a person: undici's `fetch failed` keeps the reason in `cause`. */
function fetchFailure(err: unknown): string {
  const text = (e: unknown) => (e instanceof Error ? e.message : String(e));
  const cause = err instanceof Error && err.cause !== undefined ? text(err.cause) : '';
  return cause && cause !== text(err) ? `${text(err)}: ${cause}` : text(err);
}

/** A request of server mode got no answer (the server is down, the name does not resolve, CORS). */
export class Unreachable extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`could not fetch ${url} (${fetchFailure(cause)})${pageless(url) ? `: ${PAGELESS}` : ''}`, { cause });
  }
}

/** A path from the site's root where no page gives it an origin (Node, a build script). */
export const pageless = (url: string): boolean =>
  !/^[a-z][a-z\d+.-]*:/i.test(url) && (globalThis as { location?: unknown }).location === undefined;
export const PAGELESS =
  "baseUrl is a path from the site's root, which only a page can resolve: outside a browser, give an absolute address ('http://127.0.0.1:4000')";

export class ServerSource implements Source {
  constructor(
    private readonly apiUrl: string,
    private readonly token: string | undefined,
    private readonly fetch: Fetch,
    /** Sent with every request (elmapi3: the `project-id` header). */
    private readonly extraHeaders: Readonly<Record<string, string>> = {},
  ) {}

  async answer(path: string, query: string): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.extraHeaders };
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    const url = `${this.apiUrl}${encodePath(path)}${query ? `?${sendable(query)}` : ''}`;
    let res: Response;
    let body: string;
    try {
      res = await this.fetch(url, { headers });
      body = await res.text();
    } catch (err) {
      throw new Unreachable(url, err);
    }
    return { status: res.status, body };
  }
}
