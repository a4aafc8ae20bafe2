// buildOutput() in a worker thread. The build used to load in a worker and copy the whole model
// back, then build the snapshot and write dist/ here: at a million entries that copy plus the
// snapshot ran out of this thread's 4 GiB heap (after 15 minutes). In the build worker the model,
// the snapshot and the documents stay where they were made, under a heap limit sized to the
// machine, and all of it is released when the worker ends; this thread gets only the events.
// A small tree (see tree-size.ts) is built in the calling thread: a worker would only add its start-up.
import { Worker } from 'node:worker_threads';
import { loaderHeapMb } from '../content/isolated.js';
import { isSmallTree, SMALL_TREE, type TreeLimits } from '../content/tree-size.js';
import { workerScript } from '../content/worker-script.js';
import type { BuildEvent, BuildOptions } from './build-output.js';

// Resolved when called, not at import time (see dist.ts's distWorker).
const buildWorker = () => workerScript('./build-worker.js', import.meta.url);

/**
 * Runs the build, calling `report` for each event; resolves when the build is over (whatever it
 * reported), rejects on a bug. `inThreadUpTo`: trees within these limits are built in this thread
 * (zeros: always a worker).
 */
export async function buildOutputIsolated(
  root: string,
  options: BuildOptions,
  report: (event: BuildEvent) => void,
  inThreadUpTo: TreeLimits = SMALL_TREE,
): Promise<void> {
  // A small tree is built here (imported only then: the loader's and writer's modules are otherwise the worker's).
  if (await isSmallTree(root, inThreadUpTo)) {
    const { buildOutput } = await import('./build-output.js');
    return buildOutput(root, options, report);
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(buildWorker(), {
      workerData: { root, options },
      // As the loader's: V8's default 4 GiB does not hold a million entries with their snapshot.
      resourceLimits: { maxOldGenerationSizeMb: loaderHeapMb() },
    });
    let failed = false;
    worker.on('message', report);
    worker.on('error', (err) => {
      failed = true;
      reject(err);
    });
    worker.on('exit', (code) => {
      if (failed) return;
      if (code === 0) resolve();
      else reject(new Error(`the build stopped unexpectedly (exit code ${code})`));
    });
  });
}
