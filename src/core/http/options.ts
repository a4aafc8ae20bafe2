// The options objects of the library's entry points (startServer, createHandler, the MSW
// handlers) are checked for names they do not know: from JavaScript, `failrate: 1` for `failRate`
// would otherwise be ignored in silence. The lists are checked against the option types at
// compile time, so an option added to a type and not to its list does not compile.
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

/**
 * Throws a TypeError when `options` is not an object, or names an option not in `known`: the
 * message names it, the known option closest to it, and the others.
 */
export function checkOptions(fn: string, options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(
      `${fn}: options must be an object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`,
    );
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const near = closestName(key, known);
    throw new TypeError(
      `${fn}: unknown option '${key}'${near ? `; did you mean '${near}'?` : ''} (the options: ${[...known].sort().join(', ')})`,
    );
  }
}
