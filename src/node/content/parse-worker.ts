// Worker-thread side of a ParseThread (parse-thread.ts): reads and parses the files of each request
// and posts their outcomes back as plain data.
import { parentPort } from 'node:worker_threads';
import { runJob, sharedJobs, type ParseJob, type PortableOutcome } from './file-parser.js';

export interface ParseRequest {
  readonly id: number;
  readonly jobs: readonly ParseJob[];
  readonly lines: boolean;
  /** Shared with another thread that parses the same jobs: each takes the next few from this counter (sharedJobs). */
  readonly next?: Int32Array;
}

export interface ParseReply {
  readonly id: number;
  readonly outcomes: [abs: string, outcome: PortableOutcome][];
}

parentPort?.on('message', ({ id, jobs, lines, next }: ParseRequest) => {
  const outcomes: ParseReply['outcomes'] = [];
  for (const job of next ? sharedJobs(jobs, next) : jobs) outcomes.push([job.abs, runJob(job, lines)]);
  parentPort?.postMessage({ id, outcomes } satisfies ParseReply);
});
