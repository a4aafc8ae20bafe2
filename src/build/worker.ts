// Worker-thread side of buildOutputIsolated(): the whole build happens here — loading (on two
// threads for a large tree), the snapshot and the written files — and only the events (progress,
// issues, what was written) go back to the calling thread.
import { parentPort, workerData } from 'node:worker_threads';
import { splitParser } from '../content/split-parser.js';
import { buildOutput, type BuildEvent, type BuildOptions } from './output.js';

const { root, options } = workerData as { root: string; options: BuildOptions };

const { parser, close } = splitParser();
let last = 0;
await buildOutput(
  root,
  options,
  (event: BuildEvent) => {
    if (event.kind === 'progress') {
      // A message per file would cost more than it tells: at most one every 50 ms.
      const now = Date.now();
      if (now - last < 50 && event.done < event.total) return;
      last = now;
    } else if (event.kind === 'loaded') {
      void close(); // the parse thread's part is over: its heap goes before the writing starts
    }
    parentPort?.postMessage(event);
  },
  parser,
);
await close(); // idempotent; when loading threw before 'loaded'
