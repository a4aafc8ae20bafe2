// Worker-thread side of a ParseThread (parse-thread.ts): reads and parses the files of each request
// and posts their outcomes back as plain data.
import { parentPort } from 'node:worker_threads';
import { CLAIM, runJob, type ParseJob, type PortableOutcome } from './file-parser.js';

export interface ParseRequest {
  readonly id: number;
  readonly jobs: readonly ParseJob[];
  readonly lines: boolean;
  /** Shared with another thread that parses the same jobs: each takes the next CLAIM of them from this counter. */
  readonly next?: Int32Array;
}

export interface ParseReply {
  readonly id: number;
  readonly outcomes: [abs: string, outcome: PortableOutcome][];
}

parentPort?.on('message', ({ id, jobs, lines, next }: ParseRequest) => {
  const outcomes: ParseReply['outcomes'] = [];
  if (!next) for (const job of jobs) outcomes.push([job.abs, runJob(job, lines)]);
  else
    for (let i = Atomics.add(next, 0, CLAIM); i < jobs.length; i = Atomics.add(next, 0, CLAIM))
      for (const job of jobs.slice(i, i + CLAIM)) outcomes.push([job.abs, runJob(job, lines)]);
  parentPort?.postMessage({ id, outcomes } satisfies ParseReply);
});
