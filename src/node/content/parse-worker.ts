// Worker-thread side of a ParseThread (parse-thread.ts): reads and parses the files of each request
// and posts their outcomes back as plain data.
import { type MessagePort, parentPort } from 'node:worker_threads';
import { runJob, sharedClaims, type ParseJob, type PortableOutcome } from './file-parser.js';

export interface ParseRequest {
  readonly id: number;
  readonly jobs: readonly ParseJob[];
  readonly lines: boolean;
  /**
   * Shared with another thread that parses the same jobs: each takes the next few from the counter
   * `next` (sharedClaims), and this thread posts the outcomes of each few to `port` as soon as they
   * are parsed, then null: the other thread takes them between its own instead of all at the end.
   */
  readonly shared?: { readonly next: Int32Array; readonly port: MessagePort };
}

export type Outcomes = [abs: string, outcome: PortableOutcome][];

export interface ParseReply {
  readonly id: number;
  readonly outcomes: Outcomes;
}

parentPort?.on('message', ({ id, jobs, lines, shared }: ParseRequest) => {
  if (shared) {
    for (const claim of sharedClaims(jobs, shared.next))
      shared.port.postMessage(claim.map((job) => [job.abs, runJob(job, lines)]) satisfies Outcomes);
    shared.port.postMessage(null);
    return;
  }
  parentPort?.postMessage({ id, outcomes: jobs.map((job) => [job.abs, runJob(job, lines)]) } satisfies ParseReply);
});
