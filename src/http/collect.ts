// A full garbage collection after a query that built large indexes. The first query of a shape
// on a million entries builds columns, orders and ranks for seconds and leaves the old generation
// hundreds of MB fuller (mostly garbage); V8 then marks it incrementally during the requests that
// follow — steps of up to ~16 ms in ~1,000 of them, and a second core taken from the clients.
// Collecting at once, right after that answer is sent, takes the cost in one go (the next request
// waits for it) instead of spreading it over the next thousand. Its sweeping too: left to
// background threads (V8's default), it slowed the ~20 requests after it to 4–7 ms (sweeping on
// allocation in this thread, both cores taken); done within the pause, it costs the pause no more
// (a 600 MB heap: 357 vs 364 ms) and what follows runs as before the collection. Node only.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { QueryEngine } from './core.js';

/** A query that took this long built something large. */
const SLOW_QUERY_MS = 250;
/** Heaps smaller than this are left to V8 (marking them costs little). */
const LARGE_HEAP = 256 * 1024 * 1024;

type Collect = () => void;
let gc: Collect | undefined;

/** Collects now when the heap holds at least `minHeap` bytes (with `--expose-gc` or without it). */
export function collectGarbage(minHeap = LARGE_HEAP): void {
  if (getHeapStatistics().used_heap_size < minHeap) return;
  if (!gc) {
    // What `node --expose-gc` gives, for this process started without it: a context made after
    // the flag is set has `gc`.
    gc = (globalThis as { gc?: Collect }).gc;
    if (!gc) {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as Collect;
    }
  }
  setFlagsFromString('--no-concurrent-sweeping');
  try {
    gc();
  } finally {
    setFlagsFromString('--concurrent-sweeping');
  }
}

/**
 * `engine` with a collection after each query that took over SLOW_QUERY_MS, once its answer is
 * sent. Only the engine is timed: an answer from the caches costs nothing more.
 */
export function collectingEngine(engine: QueryEngine): QueryEngine {
  const timed =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      const began = performance.now();
      const r = fn(...args);
      if (performance.now() - began > SLOW_QUERY_MS) setImmediate(() => collectGarbage());
      return r;
    };
  return { ...engine, queryEntries: timed(engine.queryEntries) as QueryEngine['queryEntries'], queryMediaList: timed(engine.queryMediaList) };
}
