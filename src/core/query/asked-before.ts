// Admission to a cache from the second asking. Caches of what one request made (a plan, a query's
// kept matches, a query's answer) keep it only when it is asked for again. No Node imports.
import { fnv1a } from '../dialects/media-number.js';

/**
 * Whether `key` was asked before: `seen` remembers one hash per slot (a key is forgotten when
 * another takes its slot). Caches keep an entry from its second asking this way, so that what a
 * one-off request made dies young — kept, it would outlive a young-generation collection and make
 * the next one (and in the end a full one) pay for it.
 */
export function askedBefore(seen: Uint32Array, key: string): boolean {
  const h = fnv1a(key);
  const slot = h & (seen.length - 1);
  if (seen[slot] === h) return true;
  seen[slot] = h;
  return false;
}
