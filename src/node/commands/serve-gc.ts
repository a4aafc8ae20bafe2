// `cqa serve` only — the library never changes the runtime of the process it runs in. After a query
// that built large indexes (startServer's onSlowQuery), collect at once, sweeping included, instead
// of letting V8 mark that garbage during the next thousand requests. Why and what it buys:
// docs/performance.md#what-a-request-allocates.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { COLLECT_FROM_HEAP_BYTES } from '../thresholds.js';

type Collect = () => void;
let gc: Collect | undefined;

/** Collects now when the heap holds at least `minHeap` bytes (with `--expose-gc` or without it). */
export function collectGarbage(minHeap = COLLECT_FROM_HEAP_BYTES): void {
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
