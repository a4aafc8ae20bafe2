// startServer({ onSlowQuery }): tells the caller when a query kept the engine busy, once its answer
// is sent. `cqa serve` collects garbage then (src/node/commands/serve-gc.ts); the library itself never
// touches the runtime. Only the engine is timed: an answer from the caches never reaches it.
import type { QueryEngine } from '../../core/http/core.js';
import { SLOW_QUERY_MS } from '../thresholds.js';

export function reportingSlowQueries(engine: QueryEngine, onSlowQuery: (ms: number) => void): QueryEngine {
  const timed =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      const began = performance.now();
      const r = fn(...args);
      const ms = performance.now() - began;
      if (ms > SLOW_QUERY_MS) setImmediate(() => onSlowQuery(ms));
      return r;
    };
  return {
    ...engine,
    queryEntries: timed(engine.queryEntries) as QueryEngine['queryEntries'],
    queryMediaList: timed(engine.queryMediaList),
  };
}
