// loadContent() in a worker thread. Parsing a large tree makes many times more garbage than the
// model it leaves (100,000 files: ~1 GiB of heap for a ~130 MiB model), and V8 keeps such a
// high-water mark as resident memory for the life of the process. A worker's heap is released when
// the worker ends, and only the model is copied back — so a long-running `cqa serve` holds what it
// serves, not what it took to read it. A small tree (see tree-size.ts) is loaded in the calling
// thread instead: there the worker's start-up would cost more than the memory it saves.
import { existsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CompactParts } from '../snapshot/compact.js';
import type { SnapshotOptions } from '../snapshot/create.js';
import type { Snapshot } from '../snapshot/types.js';
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
  const { inThreadUpTo = SMALL_TREE, ...loadOptions } = options;
  if (await inThisThread(root, inThreadUpTo)) return import('./load.js').then((m) => m.loadContent(root, loadOptions));
  return runWorker(root, loadOptions).then((m) => m.result);
}

/** No compiled worker (run from the TypeScript sources), or a tree too small to pay for one. */
async function inThisThread(root: string, upTo: TreeLimits): Promise<boolean> {
  return !existsSync(fileURLToPath(loadWorker())) || (await isSmallTree(root, upTo));
}

export interface SnapshotResult extends Omit<LoadResult, 'model'> {
  /** Undefined when there are issues. */
  readonly snapshot?: Snapshot;
}

/**
 * The compact snapshot of the tree (what `cqa serve` holds, src/snapshot/compact.ts), built in the
 * worker too: only the kept records and the entries' texts are copied back, so this thread never
 * holds the full records beside the texts.
 */
export async function loadSnapshotIsolated(
  root: string,
  options: IsolatedLoadOptions & { readonly baseUrl?: string } = {},
): Promise<SnapshotResult> {
  const { baseUrl, inThreadUpTo = SMALL_TREE, ...load } = options;
  const snapshotOptions = { compact: true, ...(baseUrl !== undefined ? { baseUrl } : {}) };
  if (await inThisThread(root, inThreadUpTo)) {
    const [{ loadContent }, { createSnapshot }] = await Promise.all([import('./load.js'), import('../snapshot/create.js')]);
    const { model, issues, warnings } = await loadContent(root, load);
    return issues.length > 0 ? { issues, warnings } : { issues, warnings, snapshot: createSnapshot(model, snapshotOptions) };
  }
  const { result, parts } = await runWorker(root, load, snapshotOptions);
  const { issues, warnings } = result;
  if (!parts) return { issues, warnings };
  const { snapshotFromParts } = await import('../snapshot/create.js');
  return { issues, warnings, snapshot: snapshotFromParts(parts) };
}

type Message =
  | { kind: 'progress'; done: number; total: number }
  | { kind: 'result'; result: LoadResult; parts?: CompactParts };

function runWorker(root: string, options: LoadOptions, snapshot?: SnapshotOptions): Promise<Extract<Message, { kind: 'result' }>> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = new Worker(loadWorker(), {
      workerData: { root, drafts: options.drafts ?? false, snapshot },
      // V8's default heap limit (4 GiB here) stopped a million entries half-way: the worker holds
      // the records and the full snapshot at once. It ends after loading, so let it use up to 60 %
      // of the machine's memory for that moment.
      resourceLimits: { maxOldGenerationSizeMb: Math.max(4096, Math.floor((totalmem() / 2 ** 20) * 0.6)) },
    });
    worker.on('message', (m: Message) => {
      if (m.kind === 'progress') options.onProgress?.(m.done, m.total);
      else {
        settled = true;
        resolve(m);
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
