// Worker-thread side of a ParseThread (parse-thread.ts): reads and parses the files of each request
// and posts their outcomes back as plain data.
import { parentPort } from 'node:worker_threads';
import { runJob, type ParseJob, type PortableOutcome } from './file-parser.js';

export interface ParseRequest {
  readonly id: number;
  readonly jobs: readonly ParseJob[];
  readonly lines: boolean;
}

export interface ParseReply {
  readonly id: number;
  readonly outcomes: [abs: string, outcome: PortableOutcome][];
}

parentPort?.on('message', ({ id, jobs, lines }: ParseRequest) => {
  const reply: ParseReply = { id, outcomes: jobs.map((job) => [job.abs, runJob(job, lines)]) };
  parentPort?.postMessage(reply);
});
