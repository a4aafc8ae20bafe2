// Worker-thread side of loadContentIsolated(): loads the tree, parsing the entry files of a large
// one on two threads (this one and a parse thread), and posts the result back.
import { parentPort, workerData } from 'node:worker_threads';
import { loadContent } from './load.js';
import { splitParser } from './split-parser.js';
import type { SnapshotOptions } from '../snapshot/create.js';

const { root, drafts, snapshot } = workerData as { root: string; drafts: boolean; snapshot?: SnapshotOptions };

const { parser, close } = splitParser();

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
await close();
if (snapshot && result.issues.length === 0) {
  // The compact snapshot instead of the model (loadSnapshotIsolated): only what the server keeps.
  const { createSnapshot } = await import('../snapshot/create.js');
  const { compactParts, transferList } = await import('../snapshot/compact.js');
  const parts = compactParts(createSnapshot(result.model, snapshot));
  parentPort?.postMessage({ kind: 'result', result: { ...result, model: { projects: [] } }, parts }, transferList(parts));
} else {
  parentPort?.postMessage({ kind: 'result', result });
}
