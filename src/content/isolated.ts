// loadContent() in a worker thread. Parsing a large tree makes many times more garbage than the
// model it leaves (100,000 files: ~1 GiB of heap for a ~130 MiB model), and V8 keeps such a
// high-water mark as resident memory for the life of the process. A worker's heap is released when
// the worker ends, and only the model is copied back — so a long-running `cqa serve` holds what it
// serves, not what it took to read it. A small tree (see tree-size.ts) is loaded in the calling
// thread instead: there the worker's start-up would cost more than the memory it saves.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LoadOptions, LoadResult } from './load.js';
import { isSmallTree, SMALL_TREE, type TreeLimits } from './tree-size.js';

export interface IsolatedLoadOptions extends LoadOptions {
  /** Trees within these limits load in the calling thread (default SMALL_TREE; zeros: always a worker). */
  readonly inThreadUpTo?: TreeLimits;
}

// Resolved when called, not at import time (see dist.ts's distWorker).
const loadWorker = () => new URL('./load-worker.js', import.meta.url);

export async function loadContentIsolated(root: string, options: IsolatedLoadOptions = {}): Promise<LoadResult> {
  // Run from the TypeScript sources (tests), there is no compiled worker: load in this thread.
  // (Imported only then: the parsers' modules are otherwise the worker's to load.)
  const url = loadWorker();
  const { inThreadUpTo = SMALL_TREE, ...loadOptions } = options;
  if (!existsSync(fileURLToPath(url)) || (await isSmallTree(root, inThreadUpTo))) {
    return import('./load.js').then((m) => m.loadContent(root, loadOptions));
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = new Worker(url, { workerData: { root, drafts: options.drafts ?? false } });
    worker.on('message', (m: { kind: 'progress'; done: number; total: number } | { kind: 'result'; result: LoadResult }) => {
      if (m.kind === 'progress') options.onProgress?.(m.done, m.total);
      else {
        settled = true;
        resolve(m.result);
      }
    });
    worker.on('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`the content loader stopped unexpectedly (exit code ${code})`));
    });
  });
}
