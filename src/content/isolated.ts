// loadContent() in a worker thread. Parsing a large tree makes many times more garbage than the
// model it leaves (100,000 files: ~1 GiB of heap for a ~130 MiB model), and V8 keeps such a
// high-water mark as resident memory for the life of the process. A worker's heap is released when
// the worker ends, and only the model is copied back — so a long-running `cqa serve` holds what it
// serves, not what it took to read it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LoadOptions, LoadResult } from './load.js';

// Resolved when called, not at import time (see dist.ts's distWorker).
const loadWorker = () => new URL('./load-worker.js', import.meta.url);

export function loadContentIsolated(root: string, options: LoadOptions = {}): Promise<LoadResult> {
  // Run from the TypeScript sources (tests), there is no compiled worker: load in this thread.
  // (Imported only then: the parsers' modules are the worker's to load.)
  const url = loadWorker();
  if (!existsSync(fileURLToPath(url))) return import('./load.js').then((m) => m.loadContent(root, options));
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
