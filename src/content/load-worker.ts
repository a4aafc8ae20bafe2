// Worker-thread side of loadContentIsolated(): loads the tree, parsing the entry files of a large
// one on two threads (this one and a parse thread), and posts the result back.
import { availableParallelism } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { fromOutcome, runJob, type FileParser, type Outcome } from './file-parser.js';
import { loadContent } from './load.js';
import { ParseThread } from './parse-thread.js';
import type { SnapshotOptions } from '../snapshot/create.js';

/** Below this many files a second thread costs more (start-up, copying) than it saves. */
const PARALLEL_MIN = 1000;

const { root, drafts, snapshot } = workerData as { root: string; drafts: boolean; snapshot?: SnapshotOptions };

const other = new ParseThread({ lines: false });

/** Half of the files here, half on the parse thread; none when not worth it (the loader parses them). */
const parser: FileParser = {
  async parse(jobs) {
    const outcomes = new Map<string, Outcome>();
    if (availableParallelism() < 2 || jobs.length < PARALLEL_MIN) return outcomes;
    const half = jobs.length >> 1;
    const theirs = other.parse(jobs.slice(half)).catch(() => new Map<string, Outcome>()); // left to the loader
    for (const job of jobs.slice(0, half)) outcomes.set(job.abs, fromOutcome(runJob(job, false)));
    for (const [abs, outcome] of await theirs) outcomes.set(abs, outcome);
    return outcomes;
  },
};

let last = 0;
const result = await loadContent(root, {
  drafts,
  parser,
  onProgress: (done, total) => {
    // A message per file would cost more than it tells: at most one every 50 ms.
    const now = Date.now();
    if (now - last < 50 && done < total) return;
    last = now;
    parentPort?.postMessage({ kind: 'progress', done, total });
  },
});
await other.close();
if (snapshot && result.issues.length === 0) {
  // The compact snapshot instead of the model (loadSnapshotIsolated): only what the server keeps.
  const { createSnapshot } = await import('../snapshot/create.js');
  const { compactParts, transferList } = await import('../snapshot/compact.js');
  const parts = compactParts(createSnapshot(result.model, snapshot));
  parentPort?.postMessage({ kind: 'result', result: { ...result, model: { projects: [] } }, parts }, transferList(parts));
} else {
  parentPort?.postMessage({ kind: 'result', result });
}
