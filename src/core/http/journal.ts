// The request journal of startServer: the last N requests as plain records, so that a consumer's
// contract test can assert what its client sent (`server.requests()`), and the same records as
// `cqa serve --log json` lines. Credentials never go in: no Authorization, Proxy-Authorization
// or Cookie header, only the scheme of Authorization (`Bearer`); headers and query parameters
// whose names look like secrets (redact.ts: `x-api-key`, `accessToken`) keep their name, not their value.
import { authScheme, isSecretName } from './redact.js';

export interface RequestRecord {
  /** When the request arrived (ISO 8601, UTC). */
  readonly time: string;
  /** Upper-case. */
  readonly method: string;
  /** The request target as sent: `/api/demo/posts?where[locale]=de&limit=3` (encoding kept). */
  readonly url: string;
  /** The path as sent (not decoded). */
  readonly path: string;
  /**
   * The query string's parameters, decoded, by name as written (bracket names stay whole: the
   * key is `where[locale]`); a name given more than once has the list of its values.
   */
  readonly query: Readonly<Record<string, string | string[]>>;
  /** Lower-case names; several values of one header joined with `, `. No credentials (see above). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The scheme of the Authorization header (`Bearer`), never its credentials; `invalid` when the
   * header has no scheme (a bare token); null without one.
   */
  readonly auth: string | null;
  /** The status sent; 0 when the client left before anything was (see `aborted`). */
  readonly status: number;
  /** From the request's arrival to the end of the answer, delay included (0.1 ms steps). */
  readonly ms: number;
  /** The status was injected by --fail-rate or `Prefer: status=`, not answered by the API. */
  readonly injected: boolean;
  /**
   * Only when so: the answer did not go out whole — the client left first (during a delay: then
   * `status` is 0 and `response` has no headers and no body), or the connection was cut.
   */
  readonly aborted?: true;
  /**
   * elmapi3 only, and only when there were some: what the real API would have done silently with
   * this request, one text a problem, as sent in the answer's X-Cqa-Warning header.
   */
  readonly warnings?: readonly string[];
  /**
   * What was answered: always there in the journal (`requests()`, `waitForRequest`, typed
   * `JournaledRequest`); not in `cqa serve --log json`, nor given to `onRequest` when `journal: 0`.
   */
  readonly response?: ResponseRecord;
}

/**
 * A record of the journal of startServer() and of the MSW handlers (`requests()`,
 * `waitForRequest`): its answer is always there.
 */
export interface JournaledRequest extends RequestRecord {
  readonly response: ResponseRecord;
}

/** The record has its answer (what the journal keeps). */
export function isJournaled(r: RequestRecord): r is JournaledRequest {
  return r.response !== undefined;
}

/** The answer to a journaled request. */
export interface ResponseRecord {
  readonly status: number;
  /** Lower-case names, as sent. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body as text, before any compression, cut at RESPONSE_BODY_MAX bytes (see `truncated`);
   * null when there was none (HEAD, 304), it was a media file, or its bytes are no UTF-8 text.
   */
  readonly body: string | null;
  /** The body was longer than RESPONSE_BODY_MAX bytes: `body` has the start of it. */
  readonly truncated: boolean;
}

/** 64 KiB of each answer's body are kept: a journal of 1000 requests stays under ~64 MiB. */
export const RESPONSE_BODY_MAX = 64 * 1024;
const strict = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/**
 * `bytes` as text; null when they are no UTF-8 (an image, an override's bytes: found from outside,
 * they read as U+FFFD soup). `cut`: they end where a limit cut them, maybe inside a character,
 * which is left out.
 */
function utf8Text(bytes: Uint8Array, cut = false): string | null {
  try {
    return cut ? new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true }) : strict.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * An answer as the journal keeps it: the bytes, decoded to text only when a test reads `body`
 * (decoding every answer as it went out cost ~60% of the throughput on 43 KB lists). Bytes up to
 * the limit are the answer's own (immutable, usually the cached document: no copy); a longer
 * body is copied up to the limit, so a record never holds a large answer alive.
 */
class CapturedResponse implements ResponseRecord {
  readonly truncated: boolean;
  // #private: not enumerable, so a record spread or serialized shows status, headers, truncated
  // (and body, through toJSON) only.
  #bytes: Uint8Array | null;
  #text: string | null = null;

  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    body: Uint8Array | string | null,
    cut: boolean,
  ) {
    const bytes = typeof body === 'string' ? encoder.encode(body) : body;
    this.truncated = bytes !== null && (cut || bytes.length > RESPONSE_BODY_MAX);
    this.#bytes = bytes && this.truncated ? bytes.slice(0, RESPONSE_BODY_MAX) : bytes;
  }

  get body(): string | null {
    if (this.#bytes !== null) {
      this.#text = utf8Text(this.#bytes, this.truncated);
      this.#bytes = null;
    }
    return this.#text;
  }

  toJSON(): ResponseRecord {
    return { status: this.status, headers: this.headers, body: this.body, truncated: this.truncated };
  }
}

/** A response record of `body` (bytes or text), cut at RESPONSE_BODY_MAX bytes; `cut`: `body` is a start of the answer already (redactAnswer). */
export function responseRecord(
  status: number,
  headers: Readonly<Record<string, string>>,
  body: Uint8Array | string | null,
  cut = false,
): ResponseRecord {
  return new CapturedResponse(status, headers, body, cut);
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
const REDACTED = '[redacted]';

/** The values of `query`'s secret-looking parameters (those queryObject() redacts), longest first. */
export function secretValues(query: string): string[] {
  if (query === '') return [];
  const values: string[] = [];
  for (const [k, v] of new URLSearchParams(query)) if (isSecretName(k)) values.push(v);
  return spellings(values);
}

/** Each of `values` as an answer or a URL may spell it, longest first. */
export function spellings(values: readonly string[]): string[] {
  const found = new Set<string>();
  for (const v of values) {
    // As written, trimmed (as Laravel reads it), and as an answer spells it: a header's ASCII
    // (… as ..., others as \uXXXX), JSON's and PHP's escapes, a URL's.
    for (const value of new Set([v, v.trim()])) {
      // Cut out of free text only from 4 characters on: `token=a` would take every 'a' with it
      // (the record's url and query hide any length).
      if (value.length < 4) continue;
      const ascii = value.replace(/…/g, '...').replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      const url = encodeURIComponent(value);
      for (const form of [
        value,
        ascii,
        JSON.stringify(value).slice(1, -1),
        JSON.stringify(ascii).slice(1, -1).replace(/\//g, '\\/'),
        url, // in a page link's query
        url.replace(/%20/g, '+'),
      ])
        found.add(form);
    }
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** At most this many pieces of one request are hashed to find a pasted token (auth.ts tokensAmong). */
const PIECES_MAX = 4096;

/** What of a request is hashed to find a pasted token, and what was left unhashed (past PIECES_MAX). */
export interface RequestPieces {
  readonly pieces: string[];
  /** Values (whole, as sent) not fully cut into pieces: hidden as if they were tokens. */
  readonly unchecked: string[];
}

/**
 * The pieces of a request a token could have been pasted into, other than the credential headers
 * the journal leaves out: the path and each segment, each query parameter name and value (decoded
 * as a form and as a URL), each header name, value and word of one, and the words of each of
 * those (`<token>.json`, `1;<token>`). Bounded: PIECES_MAX; a value past it is `unchecked`, so
 * padding a request with words cannot carry a token into the log (found from outside).
 */
export function requestPieces(
  target: string,
  headers: Readonly<Record<string, string>>,
  /** Header names as sent, where the adapter has them (Node lower-cases `headers`' names). */
  rawNames: readonly string[] = [],
): RequestPieces {
  const pieces = new Set<string>();
  /** Words already cut into their runs (a word that is also a piece whole must be cut all the same). */
  const cut = new Set<string>();
  const unchecked: string[] = [];
  const add = (raw: string) => {
    const plain = decoded(raw);
    // Escapes left after DECODE_ROUNDS_MAX rounds: hidden whole, as a value past PIECES_MAX is.
    if (plain === undefined) unchecked.push(raw);
    for (const s of new Set([raw, plain ?? raw])) {
      const piece = s.trim();
      if (piece === '') continue;
      if (pieces.size >= PIECES_MAX) {
        unchecked.push(raw);
        return;
      }
      pieces.add(piece);
      for (const word of piece.split(/[^A-Za-z0-9_-]+/)) {
        if (cut.has(word)) continue;
        cut.add(word);
        for (const part of glued(word)) {
          if (part === '' || pieces.has(part)) continue;
          if (pieces.size >= PIECES_MAX) {
            unchecked.push(raw);
            return;
          }
          pieces.add(part);
        }
      }
    }
  };
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  add(path);
  for (const segment of path.split('/')) add(segment);
  if (q >= 0) {
    for (const [k, v] of new URLSearchParams(target.slice(q + 1))) {
      add(k);
      add(v);
    }
    // As sent too: a form reads `+` as a space, and a token may hold `+`, `/` and `=`.
    for (const pair of target.slice(q + 1).split('&')) {
      const eq = pair.indexOf('=');
      add(pair.slice(0, eq < 0 ? pair.length : eq));
      if (eq >= 0) add(pair.slice(eq + 1));
    }
  }
  for (const name of rawNames) add(name);
  for (const k in headers) {
    add(k);
    const value = headers[k] as string;
    add(value);
    for (const word of value.split(/[\s,;=:]+/)) add(word);
  }
  return { pieces: [...pieces], unchecked };
}

/** The longest run of a word hashed as a token glued to a `-` or `_` (`cqa token create` makes 43 characters). */
const GLUED_MAX = 256;
/** …and the most `-` and `_` in a word cut so (a token has a few): past it the word is hashed whole only. */
const GLUED_CUTS_MAX = 16;

/**
 * `word`, then, in a word of at most GLUED_CUTS_MAX `-` and `_`, each run of it between them of
 * 4 to GLUED_MAX characters: a token holds them too, so `sort=-<token>` or `_<token>` is one word
 * with it (found from outside). Lazily: the caller stops at PIECES_MAX.
 */
function* glued(word: string): Generator<string> {
  yield word;
  const starts = [0];
  const ends: number[] = [];
  for (let i = 0; i < word.length; i++)
    if (word[i] === '-' || word[i] === '_') {
      // A token pasted by mistake stands among a few; a header of many dashes cost ~1 s to cut.
      if (ends.length === GLUED_CUTS_MAX) return;
      ends.push(i);
      starts.push(i + 1);
    }
  if (ends.length === 0) return;
  ends.push(word.length);
  // Both are in order: the first end far enough from each start only moves on.
  let first = 0;
  for (const a of starts) {
    while (first < ends.length && (ends[first] as number) < a + 4) first++;
    for (let j = first; j < ends.length && (ends[j] as number) - a <= GLUED_MAX; j++)
      if ((ends[j] as number) - a < word.length) yield word.slice(a, ends[j]);
  }
}

/**
 * Rounds of decoding a piece gets (a token encoded this many times is still found). Each round
 * reads the whole text and may shorten it by two characters only: unbounded, `%2525…2541` took
 * rounds in proportion to its length, so time in its square (found from outside: a 16 KB header
 * cost `cqa serve` ~110–160 ms a request, 64 KB passed to createHandler 1.4 s).
 */
const DECODE_ROUNDS_MAX = 16;

/**
 * Percent-escapes decoded, a byte that is no UTF-8 read as U+FFFD: `%64%65…%FF` and `%53ECRET…%`
 * must not keep the token beside them as sent (found from outside). Again while escapes are left,
 * for a token encoded twice or more (`%252564emo-token`); each round shortens the text. Undefined
 * when escapes are still left after DECODE_ROUNDS_MAX rounds: the caller hides such a text whole.
 */
function decoded(text: string): string | undefined {
  let out = text;
  for (let round = 0; out.includes('%'); round++) {
    const next = out.replace(ESCAPE_RUN, decodeRun);
    if (next === out) break;
    if (round === DECODE_ROUNDS_MAX) return undefined;
    out = next;
  }
  return out;
}

const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const lenient = new TextDecoder();

/** A run of escapes as UTF-8, leniently: one pass, whatever the run holds. */
function decodeRun(run: string): string {
  const bytes = new Uint8Array(run.length / 3);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
  return lenient.decode(bytes);
}

/** The record's request with every spelling of `values` (tokens sent where no name said so) replaced. */
export function withoutTokens<R extends Pick<RequestRecord, 'url' | 'path' | 'query' | 'headers'>>(
  record: R,
  values: readonly string[],
): R {
  if (values.length === 0) return record;
  const forms = spellings(values);
  // A run of the URL holding a token in any spelling (`%70lain`, lower-case escapes) goes whole.
  const long = values.filter((v) => v.length >= 4);
  const holds = (text: string) => {
    if (long.some((v) => text.includes(v))) return true;
    const plain = text.includes('%') ? decoded(text) : text;
    return plain === undefined || (plain !== text && long.some((v) => plain.includes(v)));
  };
  const cut = (text: string) => redactValues(text, forms).replace(/[^/?&=;,#\s]+/g, (run) => (holds(run) ? REDACTED : run));
  // A name or value that is a token is hidden whatever its length (free text only from 4 characters: spellings()).
  const exact = new Set(values);
  const hide = (text: string) => (exact.has(text.trim()) ? REDACTED : cut(text));
  const query: Record<string, string | string[]> = Object.create(null);
  for (const k in record.query) {
    const v = record.query[k] as string | string[];
    query[hide(k)] = Array.isArray(v) ? v.map(hide) : hide(v);
  }
  const headers: Record<string, string> = Object.create(null);
  for (const k in record.headers) headers[hide(k)] = hide(record.headers[k] as string);
  return { ...record, url: cut(record.url), path: cut(record.path), query, headers };
}

/** `text` with each of `values` replaced: a warning may quote what the request sent. */
export function redactValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const v of values) out = out.split(v).join(REDACTED);
  return out;
}

/** A cut quote keeps no more of a secret than this (a warning shows a value's first 40 or 60 characters). */
const PREFIX_MIN = 8;

/**
 * `text` with every run that begins as one of `values` does, from PREFIX_MIN characters on,
 * replaced: a warning quotes a value cut short, which left 40 of a token's 43 characters (found
 * from outside). Linear in the text for each value.
 */
function withoutPrefixes(text: string, values: readonly string[]): string {
  let out = text;
  for (const v of values) {
    if (v.length <= PREFIX_MIN) continue;
    const head = v.slice(0, PREFIX_MIN);
    let from = 0;
    let at = out.indexOf(head);
    if (at < 0) continue;
    const parts: string[] = [];
    while (at >= 0) {
      let end = at + PREFIX_MIN;
      while (end < out.length && end - at < v.length && out[end] === v[end - at]) end++;
      parts.push(out.slice(from, at), REDACTED);
      from = end;
      at = out.indexOf(head, end);
    }
    parts.push(out.slice(from));
    out = parts.join('');
  }
  return out;
}

/** Of a captured answer, redactAnswer reads this much: what the record keeps, and room for a secret that begins inside it. */
const REDACTED_BODY_MAX = 2 * RESPONSE_BODY_MAX;

/** A run of what a URL carries unescaped, and escapes (one class: linear, whatever the text). */
const URL_RUN = /[\w.~+%-]+/g;

/**
 * A record's warnings, its response's X-Cqa-Warning and body without the values of the request's
 * secret-looking query parameters (`api_token=…` sent twice is quoted in the warning about it),
 * nor `tokens` (withoutTokens()).
 */
export function redactAnswer(
  warnings: readonly string[],
  answer: { readonly headers: Readonly<Record<string, string>>; readonly body: Uint8Array | string | null },
  query: string,
  tokens: readonly string[] = [],
): { warnings: readonly string[]; headers: Readonly<Record<string, string>>; body: Uint8Array | string | null; cut?: true } {
  // An answer may quote them without a warning too (v3's page links carry the query).
  const secrets =
    tokens.length === 0 ? secretValues(query) : [...secretValues(query), ...spellings(tokens)].sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return { warnings, ...answer };
  const header = answer.headers['x-cqa-warning'];
  // A strict project's 422 quotes them in its body too.
  // And in any escaped spelling a problem quotes as sent (`no entry '%61%6C…'`): a run that decodes to a token goes whole.
  const long = tokens.filter((t) => t.length >= 4);
  const cut = (text: string) => {
    const out = withoutPrefixes(redactValues(text, secrets), secrets);
    return long.length === 0
      ? out
      : out.replace(URL_RUN, (run) => {
          if (!run.includes('%')) return run;
          const plain = decoded(run);
          return plain === undefined || long.some((t) => plain.includes(t)) ? REDACTED : run;
        });
  };
  // Only the start the record keeps is searched, with room for a secret (in any spelling: a query
  // holds 8 KiB at most) begun before RESPONSE_BODY_MAX: each secret is searched for in all of the
  // text, so the whole answer cost its size times their number (found from outside: 500 secret-named
  // parameters and a 1 MB answer, 0.5 s; 4 MB, 1.3 s).
  const over = answer.body !== null && answer.body.length > REDACTED_BODY_MAX;
  const start = over ? (answer.body as Uint8Array | string).slice(0, REDACTED_BODY_MAX) : answer.body;
  const text = start === null || typeof start === 'string' ? start : utf8Text(start, over);
  const body = text === null ? null : cut(text);
  return {
    warnings: warnings.map(cut),
    headers: header === undefined ? answer.headers : { ...answer.headers, 'x-cqa-warning': cut(header) },
    body,
    ...(over ? { cut: true as const } : {}),
  };
}

/** `a=1&a=2&b` → `{ a: ['1', '2'], b: '' }` (a null-prototype object: `__proto__` is just a name). */
export function queryObject(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  if (query === '') return out;
  for (const [k, raw] of new URLSearchParams(query)) {
    const v = isSecretName(k) ? REDACTED : raw;
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

/** The headers without credentials, and the scheme of Authorization. */
export function safeHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): {
  headers: Record<string, string>;
  auth: string | null;
} {
  const out: Record<string, string> = Object.create(null);
  for (const k in headers) {
    const v = headers[k];
    if (v === undefined || SECRET_HEADERS.has(k)) continue;
    out[k] = isSecretName(k) ? REDACTED : Array.isArray(v) ? v.join(', ') : v;
  }
  const a = headers.authorization;
  return { headers: out, auth: authScheme(Array.isArray(a) ? a[0] : a) };
}

/** The request target with the values of secret-looking query parameters replaced. */
export function safeUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        /* a malformed escape: test the name as written */
      }
      return isSecretName(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/** `GET /api/demo/posts 200 1.2ms` — the text request log of `cqa serve`. */
export function logLine(r: RequestRecord): string {
  const warned = r.warnings && r.warnings.length > 0 ? ` warning: ${r.warnings.join(' | ')}` : '';
  return `${r.method} ${r.url.slice(0, 300)} ${r.status} ${r.ms.toFixed(1)}ms${r.injected ? ' (injected)' : ''}${r.aborted ? ' (aborted)' : ''}${warned}`;
}

/** A copy the caller may change without changing the journal. */
function copy(r: JournaledRequest): JournaledRequest {
  const query: Record<string, string | string[]> = {};
  for (const k in r.query) {
    const v = r.query[k] as string | string[];
    Object.defineProperty(query, k, { value: Array.isArray(v) ? [...v] : v, enumerable: true, writable: true, configurable: true });
  }
  const headers: Record<string, string> = {};
  for (const k in r.headers)
    Object.defineProperty(headers, k, { value: r.headers[k], enumerable: true, writable: true, configurable: true });
  const a = r.response;
  const w = r.warnings ? { warnings: [...r.warnings] } : {};
  // Plain data, as written: the body read (decoded) now.
  return { ...r, query, headers, ...w, response: { status: a.status, headers: { ...a.headers }, body: a.body, truncated: a.truncated } };
}

/** A ring of the last `size` records (0: keeps none). */
export class Journal {
  private readonly ring: JournaledRequest[] = [];
  private next = 0;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 0) throw new RangeError(`journal must be a whole number of requests (0: none), got ${size}`);
  }

  add(r: JournaledRequest): void {
    if (this.size === 0) return;
    if (this.ring.length < this.size) this.ring.push(r);
    else this.ring[this.next] = r;
    this.next = (this.next + 1) % this.size;
  }

  /** Oldest first; copies. */
  list(): JournaledRequest[] {
    const full = this.ring.length === this.size;
    const ordered = full ? [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)] : this.ring;
    return ordered.map(copy);
  }

  /** A copy of the newest record (undefined when none). */
  last(): JournaledRequest | undefined {
    if (this.ring.length === 0) return undefined;
    return copy(this.ring[(this.next - 1 + this.size) % this.size] as JournaledRequest);
  }

  clear(): void {
    this.ring.length = 0;
    this.next = 0;
  }
}
