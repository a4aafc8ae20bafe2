// An object for values that content names (entries' fields): apart from model.ts, whose other
// exports the client bundles, since making the shared prototype is code that runs at import.

// The prototype of entries' values: empty, frozen, itself without one. Object.create(null) would
// give the same safety, but V8 keeps such an object in dictionary mode: ~5× the memory, slower to
// make and to read (docs/benchmarks.md#p4-where-a-builds-time-goes).
const NO_PROTOTYPE: object = Object.freeze(Object.create(null));

/** An empty object for values named by content: no key (`__proto__`, `toString`) reaches Object.prototype. */
export function valueRecord<T>(): Record<string, T> {
  return Object.create(NO_PROTOTYPE) as Record<string, T>;
}
