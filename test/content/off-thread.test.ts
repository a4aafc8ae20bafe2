// The one off-thread path, taken by the sources (what vitest runs) as by the compiled package, on a
// tree past the in-thread limits (SMALL_TREE, src/node/thresholds.ts) with the default limits:
// buildSnapshot(), startServer() and `cqa build`'s work each start the compiled load process
// (lib/node/load-process.js, src/node/content/worker-script.ts) — never silently the calling
// thread — and give what a load in this thread gives. The watch loader's parse thread starts from
// lib/ too.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateContent } from '../../scripts/generate-content.mjs';
import { listFiles } from '../snapshot/fixture.js';

const started = vi.hoisted(() => ({ processes: [] as string[], workers: [] as string[] }));
vi.mock('node:child_process', async (original) => {
  const m = await original<typeof import('node:child_process')>();
  const spawn = ((command: string, args: readonly string[], options: object) => {
    started.processes.push(args.find((a) => a.endsWith('.js')) ?? command);
    return m.spawn(command, args, options);
  }) as typeof m.spawn;
  return { ...m, spawn };
});
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

const { buildSnapshot } = await import('../../src/node/build-snapshot.js');
const { startServer } = await import('../../src/node/server/start.js');
const { buildOutputIsolated } = await import('../../src/node/load-path.js');
const { isSmallTree } = await import('../../src/node/content/tree-size.js');
const { loadContent } = await import('../../src/node/content/load.js');
const { buildOutput } = await import('../../src/node/output/build-output.js');
const { createSnapshot } = await import('../../src/core/snapshot/create.js');
const { ParseThread } = await import('../../src/node/content/parse-thread.js');

const LOAD_PROCESS = /\/lib\/node\/load-process\.js$/;
const work = mkdtempSync(join(tmpdir(), 'cqa-off-thread-'));
const root = join(work, 'content');
afterAll(() => rm(work, { recursive: true, force: true }));

let here: Awaited<ReturnType<typeof loadContent>>;
beforeAll(async () => {
  // Past SMALL_TREE's 2,000 files: the default limits send it off the thread.
  generateContent({ entries: 2100, out: root, seed: 7, format: 'md' });
  here = await loadContent(root);
}, 60_000);

describe('the load process, with the default limits, from the sources', () => {
  it('the generated tree is past the in-thread limits and loads without issues', async () => {
    expect(await isSmallTree(root)).toBe(false);
    expect(here.issues).toEqual([]);
  });

  it('buildSnapshot() loads in the load process: the same snapshot as a load here', async () => {
    started.processes.length = 0;
    const snapshot = await buildSnapshot({ content: root, baseUrl: 'https://cdn.example' });
    expect(started.processes).toEqual([expect.stringMatching(LOAD_PROCESS)]);
    const same = createSnapshot(here.model, { baseUrl: 'https://cdn.example' });
    expect(snapshot.hash).toBe(same.hash);
    expect(snapshot.paths).toEqual(same.paths);
    for (const path of same.paths.filter((_, i) => i % 50 === 0)) expect(snapshot.document(path), path).toBe(same.document(path));
  }, 60_000);

  it('startServer() serves the compact snapshot the load process sent', async () => {
    started.processes.length = 0;
    const server = await startServer({ content: root });
    try {
      expect(started.processes).toEqual([expect.stringMatching(LOAD_PROCESS)]);
      const same = createSnapshot(here.model, { compact: true });
      expect(server.snapshot.hash).toBe(same.hash);
      const res = await fetch(`${server.url}/api/bench/items?where[category]=garden&sort=price:desc&limit=5`, {
        headers: { authorization: 'Bearer bench-token', accept: 'application/json' },
      });
      expect(res.status).toBe(200);
      expect((await res.json()).data.length).toBe(5);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("cqa build's work runs in the load process: the same events and bytes as a build here", async () => {
    started.processes.length = 0;
    const options = (out: string) => ({ drafts: false, baseUrl: '', out, precompress: 'none' as const, includePrivate: true });
    const kinds = (into: string[]) => (e: { kind: string }) => void (e.kind !== 'progress' && into.push(e.kind));
    const there: string[] = [];
    const inThread: string[] = [];
    await buildOutputIsolated(root, options(join(work, 'there')), kinds(there));
    expect(started.processes).toEqual([expect.stringMatching(LOAD_PROCESS)]);
    await buildOutput(root, options(join(work, 'here')), kinds(inThread));
    expect(there).toEqual(['loaded', 'dist']);
    expect(there).toEqual(inThread);
    const digests = (dir: string) =>
      new Map(
        listFiles(dir).map((f) => [
          f,
          createHash('sha256')
            .update(readFileSync(join(dir, f)))
            .digest('hex'),
        ]),
      );
    expect(digests(join(work, 'there'))).toEqual(digests(join(work, 'here')));
  }, 120_000);

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
