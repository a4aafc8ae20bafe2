// Worker-thread side of buildOutputIsolated(): the whole build happens here — loading (on two
// threads for a large tree), the snapshot and the written files — and only the events (progress,
// issues, what was written) go back to the calling thread.
import { parentPort, workerData } from 'node:worker_threads';
import { progressGate } from '../content/progress.js';
import { splitParser } from '../content/split-parser.js';
import { buildOutput, type BuildEvent, type BuildOptions } from './build-output.js';

const { root, options } = workerData as { root: string; options: BuildOptions };

const { parser, close } = splitParser();
const due = progressGate();
await buildOutput(
  root,
  options,
  (event: BuildEvent) => {
    if (event.kind === 'progress') {
      if (!due(event.done, event.total)) return;
    } else if (event.kind === 'loaded') {
      void close(); // the parse thread's part is over: its heap goes before the writing starts
    }
    parentPort?.postMessage(event);
  },
  parser,
);
await close(); // idempotent; when loading threw before 'loaded'
