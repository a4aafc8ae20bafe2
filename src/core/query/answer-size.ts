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
export function answerTooLarge(chars: number | undefined, items: number | undefined, less: AskForLess = ASK_FOR_LESS): QueryProblem {
  const size =
    chars === undefined
      ? `longer than the ${n(MAX_STRING_CHARS)} characters a JavaScript string holds`
      : `${n(chars)} characters, more than the ${n(MAX_ANSWER_CHARS)} one answer may hold`;
  const what = items === undefined ? 'this answer' : items === 1 ? 'this answer (one item)' : `this answer (${n(items)} items)`;
  // How many items of their average length would fit.
  const fit = chars === undefined || items === undefined ? 0 : Math.floor((items * MAX_ANSWER_CHARS) / chars);
  const fewer = `ask for fewer entries with ${less.entries}${fit >= 1 ? ` (${n(fit)} of this size would fit)` : ''}, or for fewer fields with ${less.fields}`;
  const ask = items === 1 ? `ask for fewer fields with ${less.fields}` : fewer;
  return problem(400, 'answer_too_large', `${what} would be ${size}: ${ask}`, items === 1 ? 'fields' : 'limit');
}

/** Throws the answerTooLarge problem (caught at the engine's API) when `chars` is over MAX_ANSWER_CHARS. */
export function checkAnswerChars(chars: number, items: number, less?: AskForLess): void {
  if (chars > MAX_ANSWER_CHARS) throw new ProblemError(answerTooLarge(chars, items, less));
}

/** What V8 throws when a string would be longer than it can hold (`'x'.repeat(2 ** 30)`, a join). */
export function isStringTooLong(err: unknown): boolean {
  return err instanceof RangeError && err.message === 'Invalid string length';
}
