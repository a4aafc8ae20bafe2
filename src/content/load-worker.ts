// Worker-thread side of loadContentIsolated(): loads the tree, parsing the entry files of a large
// one on two threads (this one and a parse thread), and posts the result back.
import { parentPort, workerData } from 'node:worker_threads';
import { loadContent } from './load.js';
import { progressGate } from './progress.js';
import { splitParser } from './split-parser.js';

const { root, drafts } = workerData as { root: string; drafts: boolean };

const { parser, close } = splitParser();

const due = progressGate();
const result = await loadContent(root, {
  drafts,
  parser,
  onProgress: (done, total) => {
    if (due(done, total)) parentPort?.postMessage({ kind: 'progress', done, total });
  },
});
await close();
parentPort?.postMessage({ kind: 'result', result });
