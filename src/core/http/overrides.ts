// Per-route overrides of a running mock (`server.override('GET', '/api/demo/posts/:id', …)`): a
// test answers one route its own way — an empty list, a 500, a slow page — without new fixtures,
// as Mockoon rules or WireMock stubs do. The latest override of a route is tried first; a function
// that returns undefined falls through to the next one, and finally to the API. No Node imports
// (the MSW handlers use it in browsers too).
import { checkOptions } from './options.js';
import type { RequestRecord } from './journal.js';

/** A canned answer. `body`: a string or bytes as they are, anything else as JSON. */
export interface OverrideAnswer {
  /** Default 200. */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** The request an override function sees: the journal's view of it, plus the pattern's `:params`. */
export interface OverrideRequest extends Pick<RequestRecord, 'method' | 'url' | 'path' | 'query' | 'headers'> {
  /** `:name` segments of the pattern, decoded. */
  readonly params: Readonly<Record<string, string>>;
}

export type OverrideFunction = (request: OverrideRequest) => OverrideAnswer | undefined | Promise<OverrideAnswer | undefined>;

/** What goes out: status, headers and the body's bytes. */
export interface OverrideResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array | null;
}

interface Rule {
  readonly method: string;
  readonly pattern: string;
  readonly match: (path: string) => Record<string, string> | undefined;
  readonly answer: OverrideAnswer | OverrideFunction;
}

const encoder = new TextEncoder();

/** `/api/:project/posts/*` → a matcher of raw paths: `:name` is one segment, a final `*` the rest. */
function compile(pattern: string): Rule['match'] {
  if (!pattern.startsWith('/'))
    throw new TypeError(`override: the path pattern ${JSON.stringify(pattern)} must start with '/', e.g. '/api/demo/posts/:id'`);
  const cut = pattern.search(/[?#]/);
  if (cut >= 0)
    throw new TypeError(
      `override: the path pattern ${JSON.stringify(pattern)} holds a '${pattern[cut]}': a pattern matches the path alone, so that would never match; use ${JSON.stringify(pattern.slice(0, cut) || '/')} and tell requests apart in an answer function by request.query`,
    );
  const names: string[] = [];
  // '/api/blog/tags/' is '/api/blog/tags', as the API answers both alike.
  const source = (pattern.length > 1 ? pattern.replace(/\/+$/, '') : pattern)
    .split('/')
    .map((seg, i, all) => {
      if (seg === '*' && i === all.length - 1) return '(?:/.*)?';
      if (seg.startsWith(':') && /^:[A-Za-z_]\w*$/.test(seg)) {
        names.push(seg.slice(1));
        return '/([^/]+)';
      }
      if (seg.includes('*') || seg.startsWith(':'))
        throw new TypeError(`override: in ${JSON.stringify(pattern)}, '${seg}' is neither a name (':id') nor a final '*'`);
      return i === 0 ? '' : `/${seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    })
    .join('');
  const re = new RegExp(`^${source}/?$`);
  return (path) => {
    const m = re.exec(path);
    if (!m) return undefined;
    const params: Record<string, string> = {};
    names.forEach((n, k) => {
      const raw = m[k + 1] as string;
      try {
        params[n] = decodeURIComponent(raw);
      } catch {
        params[n] = raw;
      }
    });
    return params;
  };
}

function checkAnswer(a: OverrideAnswer, where: string): void {
  if (typeof a !== 'object' || a === null)
    throw new TypeError(`${where}: an answer is { status?, headers?, body? }, got ${a === null ? 'null' : typeof a}`);
  // A fetch Response's body cannot be read here: it was answered as "{}" (found from outside).
  if (Object.getPrototypeOf(a) !== Object.prototype && Object.getPrototypeOf(a) !== null)
    throw new TypeError(
      `${where}: an answer is a plain object { status?, headers?, body? }, not a ${a.constructor?.name ?? 'class instance'}`,
    );
  checkOptions(where, a, ANSWER_KEYS, {}, 'answer key'); // `{ stauts: 500 }` was a 200 with no body (found from outside)
  const s = a.status;
  if (s !== undefined && !(Number.isInteger(s) && s >= 200 && s <= 599))
    throw new TypeError(`${where}: status must be an integer from 200 to 599, got ${String(s)}`);
  for (const [name, value] of Object.entries(a.headers ?? {})) {
    if (!TOKEN.test(name))
      throw new TypeError(
        `${where}: header name ${JSON.stringify(name)} is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~ only)`,
      );
    if (FRAMING.has(name.toLowerCase())) throw new TypeError(`${where}: header ${name} is set by the server from the body; leave it out`);
    if (/[\r\n\0]/.test(String(value)))
      throw new TypeError(`${where}: the value of header ${name} holds a line break or NUL; one line only`);
  }
}

const ANSWER_KEYS = ['status', 'headers', 'body'];
/** The methods a request can have here (the API answers GET and HEAD; the others are 405s an override may replace). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** RFC 9110 token: a header name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers that frame the message: the server writes them, an answer never does. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer', 'te']);

/** The bytes and headers of an answer: JSON unless the body is a string or bytes, or a content-type was given. */
function responseOf(a: OverrideAnswer): OverrideResponse {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(a.headers ?? {})) headers[k.toLowerCase()] = String(v);
  const status = a.status ?? 200;
  let body: Uint8Array | null = null;
  if (a.body instanceof Uint8Array) body = a.body;
  else if (typeof a.body === 'string') body = encoder.encode(a.body);
  else if (a.body !== undefined) {
    body = encoder.encode(JSON.stringify(a.body));
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  if (status === 204 || status === 304) body = null;
  if (body) headers['content-length'] = String(body.length);
  return { status, headers, body };
}

export class Overrides {
  private rules: Rule[] = [];

  get size(): number {
    return this.rules.length;
  }

  /** `method`: GET, HEAD, … or `*` for any. Checked now: a mistake throws here, not at the request. */
  add(method: string, pattern: string, answer: OverrideAnswer | OverrideFunction): void {
    if (typeof method !== 'string' || !(method === '*' || METHODS.includes(method.toUpperCase())))
      throw new TypeError(`override: the method must be GET, HEAD, … or '*', got ${JSON.stringify(method)}`);
    if (typeof answer !== 'function') checkAnswer(answer, `override ${method.toUpperCase()} ${pattern}`);
    this.rules.unshift({ method: method.toUpperCase(), pattern, match: compile(pattern), answer });
  }

  reset(): void {
    this.rules = [];
  }

  /** Whether the method and pattern of an override take the request (none is asked). */
  takes(method: string, path: string): boolean {
    return this.rules.some((rule) => (rule.method === '*' || rule.method === method) && rule.match(path) !== undefined);
  }

  /**
   * The answer of the first override that takes the request; undefined (synchronously) when no
   * rule's method and pattern match, so the API answers without a detour.
   */
  answer(request: Omit<OverrideRequest, 'params'>): Promise<OverrideResponse | undefined> | undefined {
    const matching: [Rule, Record<string, string>][] = [];
    for (const rule of this.rules) {
      if (rule.method !== '*' && rule.method !== request.method) continue;
      const params = rule.match(request.path);
      if (params) matching.push([rule, params]);
    }
    if (matching.length === 0) return undefined;
    return (async () => {
      for (const [rule, params] of matching) {
        const where = `override ${rule.method} ${rule.pattern}`;
        const a = typeof rule.answer === 'function' ? await rule.answer({ ...request, params }) : rule.answer;
        if (a === undefined) continue;
        checkAnswer(a, where);
        return responseOf(a);
      }
      return undefined;
    })();
  }
}
