// The options objects of the library's entry points (startServer, createHandler, the MSW
// handlers, buildSnapshot) are checked for names they do not know: from JavaScript, `failrate: 1`
// for `failRate` would otherwise be ignored in silence. The lists are checked against the option
// types at compile time, so an option added to a type and not to its list does not compile.
// Options that cannot work together are refused too (refuseTogether).
import { closestName } from '../suggest.js';
import type { ControlOptions } from './controls.js';
import type { HttpOptions } from './core.js';

/**
 * `keys`, which must be exactly the keys of T (a missing one makes the argument `never`):
 * `optionKeys<ControlOptions>()(['delay', …])`.
 */
export function optionKeys<T>() {
  return <const K extends readonly (keyof T & string)[]>(
    keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : never),
  ): readonly string[] => keys;
}

const CONTROL_KEYS = optionKeys<ControlOptions>()(['delay', 'failRate', 'failStatus', 'seed', 'prefer', 'retryAfter', 'maxHeld']);

/** The keys of HttpOptions (the answers' options and the controls). */
export const HTTP_KEYS: readonly string[] = [
  ...optionKeys<Omit<HttpOptions, keyof ControlOptions>>()([
    'cors',
    'cacheControl',
    'maxLimit',
    'serverUrl',
    'cacheBytes',
    'onError',
    'explorer',
    'elmapi3',
  ]),
  ...CONTROL_KEYS,
];

/** What an option's value must be, where its type says it simply (objects are checked where they are read). */
export type OptionKind = 'boolean' | 'string' | 'function' | 'count' | 'positive';

const KIND_WORDS: Record<OptionKind, string> = {
  boolean: 'true or false',
  string: 'a string',
  function: 'a function',
  count: 'an integer of 0 or more',
  positive: 'an integer of 1 or more',
};

const KIND_TESTS: Record<OptionKind, (v: unknown) => boolean> = {
  boolean: (v) => typeof v === 'boolean',
  string: (v) => typeof v === 'string',
  function: (v) => typeof v === 'function',
  count: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  positive: (v) => Number.isSafeInteger(v) && (v as number) >= 1,
};

/** The kinds of HttpOptions' simple values (the controls check theirs: controls.ts). */
export const HTTP_KINDS: Readonly<Record<string, OptionKind>> = {
  cors: 'string',
  cacheControl: 'string',
  maxLimit: 'count',
  serverUrl: 'string',
  cacheBytes: 'count',
  onError: 'function',
  prefer: 'boolean',
};

/**
 * A value as a message shows it: a string quoted and called one, so that '503' (a string) and 503
 * are told apart ("must be one of 429, 500, 503, got 503" said nothing; found from outside).
 */
export function shownValue(v: unknown): string {
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  if (typeof v === 'function') return 'a function';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object' && v !== null) return 'an object';
  return String(v);
}

/**
 * Throws a TypeError when `options` is not an object, names an option not in `known` (the message
 * names it, the known option closest to it, and the others), or gives one of `kinds` a value of
 * another kind: from JavaScript, `watch: 'false'` would otherwise mean true and `cors: false` fail
 * on the first request (found from outside).
 */
export function checkOptions(
  fn: string,
  options: unknown,
  known: readonly string[],
  kinds: Readonly<Record<string, OptionKind>> = {},
  /** What a key is called in the message: an override's answer has keys, not options. */
  noun = 'option',
): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(
      `${fn}: options must be an object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`,
    );
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const near = closestName(key, known);
    throw new TypeError(
      `${fn}: unknown ${noun} '${key}'${near ? `; did you mean '${near}'?` : ''} (the ${noun}s: ${[...known].sort().join(', ')})`,
    );
  }
  for (const [key, kind] of Object.entries(kinds)) {
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined && !KIND_TESTS[kind](value))
      throw new TypeError(`${fn}: ${key} must be ${KIND_WORDS[kind]}, got ${shownValue(value)}`);
  }
}

/** A combination of options refused when `clash` holds; `change` says what to write instead. */
export type Clash = readonly [clash: boolean, change: string];

/**
 * Throws a TypeError for the first clash: an option that the others make useless was ignored in
 * silence (found from outside: `{ snapshot, watch: true }` watched ./content). An option whose
 * companion is switched off explicitly (`watch: false`) is no clash: a switch set elsewhere.
 */
export function refuseTogether(fn: string, clashes: readonly Clash[]): void {
  for (const [clash, change] of clashes) if (clash) throw new TypeError(`${fn}: ${change}`);
}

/** `content` and `snapshot` together: the snapshot was served, and content never read. */
export const bothSources = (options: { readonly content?: unknown; readonly snapshot?: unknown }): Clash => [
  options.content !== undefined && options.snapshot !== undefined,
  'content and snapshot were both given; give one: content (a folder or tree to build) or snapshot (one built already, served as it is)',
];
