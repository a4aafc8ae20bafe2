// How long one answer may be, and the 400 that says so. No Node imports.
import { ProblemError, problem } from './problems.js';
import type { QueryProblem } from './types.js';

/**
 * The longest answer the API puts together, in characters (JavaScript's string length). V8's
 * longest string is 2^29 − 24 characters: a list of 200 entries that each embed a related entry of
 * 4 MB went past it, and was a 500 (`Invalid string length`). Below that, an answer is still
 * copied while it is sent (its UTF-8 bytes, a compressed variant): 64 Mi characters (64–192 MiB as
 * UTF-8) keeps what one request costs bounded. A longer answer is refused: 400 `answer_too_large`.
 */
export const MAX_ANSWER_CHARS = 64 * 2 ** 20;

/** V8's longest string (2^29 − 24 on 64-bit platforms). */
const MAX_STRING_CHARS = 2 ** 29 - 24;

/** How a client of the dialect asks for less: its parameters. */
export interface AskForLess {
  /** Fewer entries: `limit` (cqa, elmapi), `limit or paginate` (elmapi3). */
  readonly entries: string;
  /** Fewer fields: `fields=a,b` (cqa, elmapi), `exclude=a,b` (elmapi3). */
  readonly fields: string;
}

export const ASK_FOR_LESS: AskForLess = { entries: 'limit', fields: 'fields=… (or leave some out with exclude=…)' };

/** elmapi3 has no `fields`; it pages with `paginate` too (src/core/http/elmapi3/entries.ts). */
export const ELMAPI3_LESS: AskForLess = { entries: 'limit (or paginate)', fields: 'exclude=…' };

const n = (x: number) => x.toLocaleString('en');

/**
 * The problem of an answer of `chars` characters (undefined: longer than a string can be) made of
 * `items` entries or media items (1: one item; undefined: not known), over MAX_ANSWER_CHARS.
 */
export function answerTooLarge(
  chars: number | undefined,
  items: number | undefined,
  less: AskForLess = ASK_FOR_LESS,
  /** Counted in UTF-8 bytes instead, its characters only as far as the limit (overMaxChars). */
  bytes?: number,
): QueryProblem {
  const size =
    bytes !== undefined
      ? `more than the ${n(MAX_ANSWER_CHARS)} characters one answer may hold (${n(bytes)} bytes as UTF-8)`
      : chars === undefined
        ? `longer than the ${n(MAX_STRING_CHARS)} characters a JavaScript string holds`
        : `${n(chars)} characters, more than the ${n(MAX_ANSWER_CHARS)} one answer may hold`;
  const what = items === undefined ? 'this answer' : items === 1 ? 'this answer (one item)' : `this answer (${n(items)} items)`;
  // How many items of their average length would fit (in bytes: at least as many).
  const length = bytes ?? chars;
  const fit = length === undefined || items === undefined ? 0 : Math.floor((items * MAX_ANSWER_CHARS) / length);
  const fewer = `ask for fewer entries with ${less.entries}${fit >= 1 ? ` (${n(fit)} of this size would fit)` : ''}, or for fewer fields with ${less.fields}`;
  const ask = items === 1 ? `ask for fewer fields with ${less.fields}` : fewer;
  return problem(400, 'answer_too_large', `${what} would be ${size}: ${ask}`, items === 1 ? 'fields' : 'limit');
}

/** Throws the answerTooLarge problem (caught at the engine's API) when `chars` is over MAX_ANSWER_CHARS. */
export function checkAnswerChars(chars: number, items: number, less?: AskForLess): void {
  if (chars > MAX_ANSWER_CHARS) throw new ProblemError(answerTooLarge(chars, items, less));
}

/**
 * Whether texts held as UTF-8 are longer than MAX_ANSWER_CHARS characters (JavaScript's length:
 * one per 1–3 bytes, two per 4), counted without decoding them and only until the limit is passed:
 * a list of large entries was decoded whole before it was refused, the server blocked for seconds
 * (found from outside).
 */
export function overMaxChars(texts: readonly Uint8Array[], extra = 0): boolean {
  let bytes = extra;
  for (const b of texts) bytes += b.length;
  // A character is 1 to 3 bytes (4 for two): the count lies between a third of the bytes and all of them.
  if (bytes <= MAX_ANSWER_CHARS) return false;
  if (bytes > 3 * MAX_ANSWER_CHARS) return true;
  let chars = extra;
  for (const b of texts) {
    for (let i = 0; i < b.length; i++) {
      const x = b[i] as number;
      if ((x & 0xc0) !== 0x80) chars += x >= 0xf0 ? 2 : 1;
    }
    if (chars > MAX_ANSWER_CHARS) return true;
  }
  return false;
}

/**
 * Throws answer_too_large for `entries` when each holds its text as UTF-8 and those texts are too
 * long, before anything is decoded (bytes within the limit: characters are too). Only for answers
 * that hold each text whole or longer (not one cut by `fields=`).
 */
export function refuseLongTexts(entries: readonly { utf8?(): Uint8Array | undefined }[]): void {
  let bytes = 0;
  const texts: Uint8Array[] = [];
  for (const e of entries) {
    const b = e.utf8?.();
    if (!b) return;
    texts.push(b);
    bytes += b.length;
  }
  if (overMaxChars(texts, entries.length)) throw new ProblemError(answerTooLarge(undefined, entries.length, undefined, bytes));
}

/** What V8 throws when a string would be longer than it can hold (`'x'.repeat(2 ** 30)`, a join). */
export function isStringTooLong(err: unknown): boolean {
  return err instanceof RangeError && err.message === 'Invalid string length';
}
