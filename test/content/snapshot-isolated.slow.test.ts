// loadSnapshotIsolated(): the compiled loader in a child process gives the snapshot `cqa serve`
// holds, answering exactly as one made in this thread; content errors come back as they are, and a
// loader that dies says so instead of leaving the server waiting. (lib/ is compiled by
// test/global-setup.ts.)
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateContent } from '../../scripts/generate-content.mjs';
import type { loadSnapshotIsolated as LoadSnapshot } from '../../src/node/load-path.js';
import { loadContent } from '../../src/node/content/load.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { writeTree } from './helpers.js';

const compiled = (): Promise<{ loadSnapshotIsolated: typeof LoadSnapshot }> => import(pathToFileURL(resolve('lib/node/load-path.js')).href);

/** Limits of zero: the child process even for a small tree (which otherwise loads in this thread). */
const always = { inThreadUpTo: { files: 0, bytes: 0 } };

function expectSameAnswers(
  isolated: Snapshot | undefined,
  root: string,
  model: Parameters<typeof createSnapshot>[0],
  baseUrl?: string,
): void {
  const here = createSnapshot(model, { compact: true, ...(baseUrl ? { baseUrl } : {}) });
  expect(isolated, root).toBeDefined();
  expect(isolated!.hash).toBe(here.hash);
  expect(isolated!.paths).toEqual(here.paths);
  expect(isolated!.openapi).toBe(here.openapi);
  for (const path of here.paths) expect(isolated!.document(path), path).toBe(here.document(path));
}

describe('loadSnapshotIsolated', () => {
  it('loads the sample in a child process into a snapshot answering every document as one made here, reporting progress', async () => {
    const { loadSnapshotIsolated } = await compiled();
    const progress: number[] = [];
    const isolated = await loadSnapshotIsolated('content', { ...always, onProgress: (done) => progress.push(done) });
    const here = await loadContent('content');
    expect(isolated.issues).toEqual([]);
    expect(isolated.warnings).toEqual(here.warnings);
    expectSameAnswers(isolated.snapshot, 'content', here.model);
    expect(progress.length).toBeGreaterThan(0);
  });

  it('passes content errors back with their file, line and field, and no snapshot', async () => {
    const { loadSnapshotIsolated } = await compiled();
    const root = writeTree({
      'p/project.yaml': 'id: p\n',
      'p/posts/_collection.yaml': 'fields:\n  price: number\n',
      'p/posts/a.yaml': 'price: cheap\n',
    });
    const isolated = await loadSnapshotIsolated(root, always);
    expect(isolated.issues).toEqual([expect.objectContaining({ file: 'p/posts/a.yaml', line: 1, field: 'price' })]);
    expect(isolated.issues).toEqual((await loadContent(root)).issues);
    expect(isolated.snapshot).toBeUndefined();
  });

  it('sends a large tree (two parse threads, several batches of records) whole', async () => {
    const { loadSnapshotIsolated } = await compiled();
    const root = writeTree({});
    generateContent({ entries: 2500, out: root, seed: 5, format: 'mixed' });
    const isolated = await loadSnapshotIsolated(root, { baseUrl: 'https://cdn.example' });
    expect(isolated.issues).toEqual([]);
    const here = await loadContent(root);
    expectSameAnswers(isolated.snapshot, root, here.model, 'https://cdn.example');
    expect(isolated.snapshot!.baseUrl).toBe('https://cdn.example');
  }, 120_000);

  // What a crash, an uncaught error and V8 running out of heap look like to the server: each must
  // end the call with a sentence saying so, never leave it waiting. (NODE_OPTIONS reaches the child.)
  it.each([
    [
      'process.kill(process.pid, "SIGKILL")',
      /^the content loader stopped unexpectedly \(killed by SIGKILL, perhaps by the system for want of memory\)$/,
    ],
    ['throw new Error("disk on fire")', /^the content loader stopped unexpectedly \(exit code 1\): Error: disk on fire$/],
    [
      'process.stderr.write("\\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\\n"); process.exit(134)',
      /^the content loader ran out of memory \(its heap may grow to \d+ MiB\): the tree is too large for this machine$/,
    ],
    // Found from outside (prlimit --as=2500M): V8 could not reserve what it needs; the message quoted a `#`.
    [
      'process.stderr.write("\\n#\\n# Fatal process out of memory: Failed to reserve virtual memory for CodeRange\\n#\\n"); process.exit(133)',
      /^the content loader could not reserve the memory Node needs to start: a limit on this process's memory \(ulimit -v, prlimit --as\) is too low; raise it$/,
    ],
  ])('a loader that dies (%s) is a clear error', async (code, message) => {
    const { loadSnapshotIsolated } = await compiled();
    const dir = writeTree({ 'die.cjs': `${code};\n` });
    const before = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = `${before ?? ''} --require ${join(dir, 'die.cjs')}`;
    try {
      await expect(loadSnapshotIsolated('content', always)).rejects.toThrow(message);
    } finally {
      if (before === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = before;
    }
  });
});
