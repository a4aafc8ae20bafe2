// `cqa serve` only — the library never changes the runtime of the process it runs in. After a query
// that built large indexes (startServer's onSlowQuery), collect at once, sweeping included, instead
// of letting V8 mark that garbage during the next thousand requests; after loading a large tree,
// give back the young generation that grew while it arrived. Why and what each buys:
// docs/architecture.md#load-path-and-thresholds.
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { COLLECT_FROM_HEAP_BYTES, SHRINK_YOUNG_FROM_BYTES } from '../thresholds.js';

type Collect = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let exposed: Collect | undefined;

/** What `node --expose-gc` gives, for this process started without it: a context made after the flag is set has `gc`. */
function gc(): Collect {
  if (!exposed) {
    exposed = (globalThis as { gc?: Collect }).gc;
    if (!exposed) {
      setFlagsFromString('--expose-gc');
      exposed = runInNewContext('gc') as Collect;
    }
  }
  return exposed;
}

/** Collects now when the heap holds at least `minHeap` bytes (with `--expose-gc` or without it). */
export function collectGarbage(minHeap = COLLECT_FROM_HEAP_BYTES): void {
  if (getHeapStatistics().used_heap_size < minHeap) return;
  const collect = gc();
  setFlagsFromString('--no-concurrent-sweeping');
  try {
    collect();
  } finally {
    setFlagsFromString('--concurrent-sweeping');
  }
}

/**
 * After the first load: when the young generation grew while the records arrived (Node 24 lets it
 * reach 2 × 64 MiB, and keeps it), a last-resort collection shrinks it back; it regrows if requests
 * need it. Returns whether it collected.
 */
export function shrinkYoungGeneration(minYoung = SHRINK_YOUNG_FROM_BYTES): boolean {
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
  if (young < minYoung) return false;
  gc()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return true;
}
