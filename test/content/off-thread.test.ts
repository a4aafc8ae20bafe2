// The sources (what vitest runs) take the same off-thread path as the compiled package: a tree past
// the in-thread limits loads in a worker, `cqa build` builds in its worker, and the watch loader
// parses on its parse thread — each started from lib/ (src/node/content/worker-script.ts), never
// silently replaced by the calling thread.
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const started = vi.hoisted(() => ({ workers: [] as string[] }));
vi.mock('node:worker_threads', async (original) => {
  const m = await original<typeof import('node:worker_threads')>();
  class CountedWorker extends m.Worker {
    constructor(script: string | URL, options?: import('node:worker_threads').WorkerOptions) {
      super(script, options);
      started.workers.push(String(script));
    }
  }
  return { ...m, Worker: CountedWorker };
});

const { loadContentIsolated } = await import('../../src/node/content/isolated.js');
const { loadContent } = await import('../../src/node/content/load.js');
const { ParseThread } = await import('../../src/node/content/parse-thread.js');
const ALWAYS_OFF_THREAD = { files: 0, bytes: 0 };

describe('off-thread paths, run from the sources', () => {
  it('loadContentIsolated loads in the compiled worker and gives the model loadContent gives', async () => {
    started.workers.length = 0;
    const isolated = await loadContentIsolated('content', { inThreadUpTo: ALWAYS_OFF_THREAD });
    expect(started.workers).toEqual([expect.stringMatching(/\/lib\/node\/content\/load-worker\.js$/)]);
    expect(isolated.model).toEqual((await loadContent('content')).model);
  });

  it('a parse thread starts from lib/ and parses', async () => {
    started.workers.length = 0;
    const thread = new ParseThread({ lines: true });
    try {
      const outcomes = await thread.parse([{ abs: resolve('content/demo/project.yaml'), rel: 'demo/project.yaml', kind: 'yaml' }]);
      expect(outcomes.size).toBe(1);
    } finally {
      await thread.close();
    }
    expect(started.workers).toEqual([expect.stringMatching(/\/lib\/node\/content\/parse-worker\.js$/)]);
  });
});
