// After a request that built large indexes, `cqa serve` collects garbage at once (src/node/commands/serve-gc.ts)
// instead of leaving V8 to mark a large old generation during the requests that follow. The
// collection must happen in a process started without --expose-gc, as `cqa serve` is.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const lib = fileURLToPath(new URL('../../lib/node/commands/serve-gc.js', import.meta.url));

describe('collecting after a slow request', () => {
  it('runs a full collection in a process started without --expose-gc, only when the heap is large', () => {
    const script = `
      import { PerformanceObserver } from 'node:perf_hooks';
      import { collectGarbage } from ${JSON.stringify(lib)};
      const kinds = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) kinds.push(e.detail.kind); }).observe({ entryTypes: ['gc'] });
      collectGarbage(); // this small heap: left to V8
      setTimeout(() => {
        const before = kinds.length;
        collectGarbage(0);
        setTimeout(() => console.log(JSON.stringify({ before: kinds.slice(0, before), after: kinds.slice(before), exposed: typeof globalThis.gc })), 50);
      }, 50);
    `;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 }));
    expect(out.before).not.toContain(4);
    expect(out.after).toContain(4); // NODE_PERFORMANCE_GC_MAJOR
    expect(out.exposed).toBe('undefined'); // the process's own globals are not changed
  });

  it('gives back a young generation grown while loading, and leaves a small one alone', () => {
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      import { shrinkYoungGeneration } from ${JSON.stringify(lib)};
      const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      const small = shrinkYoungGeneration(); // nothing grew yet
      const keep = [];
      for (let i = 0; i < 2e6; i++) keep.push({ i, s: 'x' + i }); // survivors, as arriving records are
      const grown = young();
      const shrunk = shrinkYoungGeneration(0);
      console.log(JSON.stringify({ small, shrunk, grown, after: young(), kept: keep.length, exposed: typeof globalThis.gc }));
    `;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 }));
    expect(out.small).toBe(false);
    expect(out.shrunk).toBe(true);
    // Node 20's V8 takes no last-resort flavour: a full collection, the young generation kept.
    if (Number(process.versions.node.split('.')[0]) >= 22) expect(out.after).toBeLessThan(out.grown);
    else expect(out.after).toBeLessThanOrEqual(out.grown);
    expect(out.exposed).toBe('undefined');
  });
});
