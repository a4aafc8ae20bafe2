// Worker-thread side of loadContentIsolated(): loads the tree, parsing the entry files of a large
// one on two threads (this one and a parse thread), and posts the result back.
import { parentPort, workerData } from 'node:worker_threads';
import type { TimestampSource } from './git-times.js';
import { loadSplit } from './split-parser.js';

const { root, drafts, timestamps } = workerData as { root: string; drafts: boolean; timestamps?: TimestampSource };

const result = await loadSplit(root, { drafts, ...(timestamps ? { timestamps } : {}) }, (done, total) => parentPort?.postMessage({ kind: 'progress', done, total }));
parentPort?.postMessage({ kind: 'result', result });
