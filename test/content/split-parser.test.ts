// The split parser (src/node/content/split-parser.ts) when its parse thread fails: whatever the
// thread does not deliver is parsed by the calling thread or left to the loader, and the parse
// never fails for it. Here the thread stops before the parse and no other can be started (`new
// Worker` throws ERR_WORKER_INIT_FAILED at once when the system refuses a thread: EAGAIN under a
// limit on threads or memory). The worker starts from lib/ (test/global-setup.ts compiles it).
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import type { Outcome, ParseJob } from '../../src/node/content/file-parser.js';
import { PARALLEL_PARSE_FILES } from '../../src/node/thresholds.js';
import { writeTree } from './helpers.js';

const threads = vi.hoisted(() => ({ started: [] as Worker[], refuse: 0 }));
vi.mock('node:worker_threads', async (original) => {
  const m = await original<typeof import('node:worker_threads')>();
  class RefusableWorker extends m.Worker {
    constructor(script: string | URL, options?: import('node:worker_threads').WorkerOptions) {
      if (threads.refuse > 0) {
        threads.refuse--;
        throw Object.assign(new Error('Worker initialization failure: EAGAIN'), { code: 'ERR_WORKER_INIT_FAILED' });
      }
      super(script, options);
      threads.started.push(this);
    }
  }
  return { ...m, Worker: RefusableWorker };
});
// The split needs two cores: said so here, whatever machine runs the test.
vi.mock('node:os', async (original) => ({ ...(await original<typeof import('node:os')>()), availableParallelism: () => 2 }));

const { splitParser } = await import('../../src/node/content/split-parser.js');

describe('splitParser: a parse thread that cannot be had', () => {
  it('a thread that stopped before the parse and cannot be started again: this thread parses every file', async () => {
    const files = PARALLEL_PARSE_FILES + 100;
    const spec: Record<string, string> = {};
    for (let i = 0; i < files; i++) spec[`p/posts/e${i}.md`] = `---\ntitle: T${i}\n---\nBody ${i}\n`;
    const root = writeTree(spec);
    const jobs: ParseJob[] = Object.keys(spec).map((rel) => ({ abs: join(root, rel), rel, kind: 'entry' }));

    const { parser, close } = splitParser();
    try {
      // The thread started with the split parser stops (its exit is seen), and the next is refused.
      expect(threads.started).toHaveLength(1);
      await threads.started[0]?.terminate();
      threads.refuse = 1;
      const outcomes: Map<string, Outcome> = await parser.parse(jobs);
      expect(threads.refuse).toBe(0); // a thread was asked for, and refused
      expect(outcomes.size).toBe(files);
      const last = outcomes.get(jobs[files - 1]?.abs as string);
      expect(last && 'entry' in last ? last.entry.data?.title : undefined).toBe(`T${files - 1}`);
    } finally {
      threads.refuse = 0;
      await close();
    }
  });
});
