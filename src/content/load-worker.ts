// Worker-thread side of loadContentIsolated(): loads the tree and posts the result back.
import { parentPort, workerData } from 'node:worker_threads';
import { loadContent } from './load.js';

const { root, drafts } = workerData as { root: string; drafts: boolean };
let last = 0;
const result = await loadContent(root, {
  drafts,
  onProgress: (done, total) => {
    // A message per file would cost more than it tells: at most one every 50 ms.
    const now = Date.now();
    if (now - last < 50 && done < total) return;
    last = now;
    parentPort?.postMessage({ kind: 'progress', done, total });
  },
});
parentPort?.postMessage({ kind: 'result', result });
