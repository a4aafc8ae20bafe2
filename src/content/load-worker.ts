// Worker-thread side of loadContentIsolated(): loads the tree, parsing the entry files of a large
// one on two threads (this one and a parse thread), and posts the result back.
import { parentPort, workerData } from 'node:worker_threads';
import { loadContent } from './load.js';
import { splitParser } from './split-parser.js';

const { root, drafts } = workerData as { root: string; drafts: boolean };

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
parentPort?.postMessage({ kind: 'result', result });
