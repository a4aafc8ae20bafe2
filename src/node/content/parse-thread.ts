// A worker thread that reads and parses content files on request (a FileParser). The watch-mode
// loader parses on one so that the thread answering requests never does: a large file would stall
// every answer for as long as it takes to parse. The load process parses a large tree on one and
// its own thread together (split-parser.ts).
import { Worker } from 'node:worker_threads';
import { fromOutcome, type FileParser, type Outcome, type ParseJob } from './file-parser.js';
import type { ParseReply, ParseRequest } from './parse-worker.js';
import { workerScript } from './worker-script.js';

// Made when needed, not at import: where import.meta.url is no file URL (a bundle), importing must not fail.
const parseWorker = () => workerScript('./parse-worker.js', import.meta.url);

export class ParseThread implements FileParser {
  private worker: Worker | undefined;
  /** Requests in flight, with the thread that has them. */
  private readonly waiting = new Map<number, { worker: Worker; resolve: (r: ParseReply) => void; reject: (err: unknown) => void }>();
  private nextId = 0;

  /** `lines`: outcomes carry their line maps, so that messages never need a parse here. */
  constructor(private readonly options: { lines: boolean }) {}

  /** `next`: share the jobs with another thread through this counter (see ParseRequest); only those this thread took come back. */
  async parse(jobs: readonly ParseJob[], next?: Int32Array): Promise<Map<string, Outcome>> {
    const id = this.nextId++;
    const worker = this.started();
    // Held only while it works: idle, it must not keep the process alive.
    if (this.waiting.size === 0) worker.ref();
    const reply = await new Promise<ParseReply>((resolve, reject) => {
      this.waiting.set(id, { worker, resolve, reject });
      const request: ParseRequest = { id, jobs, lines: this.options.lines, ...(next ? { next } : {}) };
      worker.postMessage(request);
    }).finally(() => {
      if (this.waiting.size === 0) worker.unref();
    });
    return new Map(reply.outcomes.map(([abs, outcome]) => [abs, fromOutcome(outcome)]));
  }

  /** Starts the thread now, so that it boots while this one lists the tree (it otherwise starts at the first parse()). */
  start(): void {
    this.started();
  }

  /** Ends the thread; a later parse() starts another. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  /**
   * Starts a fresh thread in place of this one. After parsing a whole tree a thread's heap stays
   * at its high-water mark (hundreds of MiB at 100,000 files) for as long as the thread lives;
   * the small parses of later reloads do not need it.
   */
  async restart(): Promise<void> {
    await this.close();
    this.started();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(parseWorker());
    worker.unref(); // see parse()
    worker.on('message', (reply: ParseReply) => {
      this.waiting.get(reply.id)?.resolve(reply);
      this.waiting.delete(reply.id);
    });
    const fail = (err: unknown) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, w] of this.waiting) {
        if (w.worker !== worker) continue;
        w.reject(err);
        this.waiting.delete(id);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the parser thread stopped unexpectedly (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
