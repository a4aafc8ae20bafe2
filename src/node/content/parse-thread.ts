// A worker thread that reads and parses content files on request (a FileParser). The watch-mode
// loader parses on one so that the thread answering requests never does: a large file would stall
// every answer for as long as it takes to parse. The load process parses a large tree on one and
// its own thread together (split-parser.ts).
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { fromOutcome, type FileParser, type Outcome, type ParseJob } from './file-parser.js';
import type { Outcomes, ParseReply, ParseRequest } from './parse-worker.js';
import { workerScript } from './worker-script.js';

// Made when needed, not at import: where import.meta.url is no file URL (a bundle), importing must not fail.
const parseWorker = () => workerScript('./parse-worker.js', import.meta.url);

/** A parse shared with the calling thread (ParseThread.shared). */
export interface SharedParse {
  take(into: Map<string, Outcome>): void;
  rest(into: Map<string, Outcome>): Promise<void>;
}

/**
 * A shared parse without a thread: `new Worker` throws at once when the system refuses a thread
 * (ERR_WORKER_INIT_FAILED: EAGAIN under a limit on threads or memory), as after one that stopped.
 * It takes nothing from the counter, so the caller parses every file: a load never fails for
 * want of a parse thread (split-parser.ts).
 */
const NO_THREAD: SharedParse = { take: () => {}, rest: async () => {} };

export class ParseThread implements FileParser {
  private worker: Worker | undefined;
  /** Requests in flight, with the thread that has them. */
  private readonly waiting = new Map<number, { worker: Worker; resolve: (r: ParseReply) => void; reject: (err: unknown) => void }>();
  private nextId = 0;

  /** `lines`: outcomes carry their line maps, so that messages never need a parse here. */
  constructor(private readonly options: { lines: boolean }) {}

  async parse(jobs: readonly ParseJob[]): Promise<Map<string, Outcome>> {
    const id = this.nextId++;
    const worker = this.held();
    const reply = await new Promise<ParseReply>((resolve, reject) => {
      this.waiting.set(id, { worker, resolve, reject });
      worker.postMessage({ id, jobs, lines: this.options.lines } satisfies ParseRequest);
    }).finally(() => this.release(worker));
    return new Map(reply.outcomes.map(([abs, outcome]) => [abs, fromOutcome(outcome)]));
  }

  /**
   * Parses `jobs` together with the calling thread, each taking the next few from the counter
   * `next` (sharedClaims). The thread sends the outcomes of each few as soon as they are parsed:
   * take() adds those that have arrived (between the caller's own), rest() the others once the
   * thread is done — or has stopped, leaving what it took to the caller. Never throws: a thread
   * that cannot be started takes none of the jobs (see NO_THREAD).
   */
  shared(jobs: readonly ParseJob[], next: Int32Array): SharedParse {
    const id = this.nextId++;
    let worker: Worker;
    try {
      worker = this.held();
    } catch {
      return NO_THREAD;
    }
    const { port1, port2 } = new MessageChannel();
    let done = false;
    // Settled by the thread's null after its last claim, or by its failure: a thread that stops
    // never sends the null (see started()), and what it took is left to the caller.
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const add = (outcomes: Outcomes | null, into: Map<string, Outcome>) => {
      if (outcomes === null) {
        done = true;
        finish();
      } else for (const [abs, outcome] of outcomes) into.set(abs, fromOutcome(outcome));
    };
    const take = (into: Map<string, Outcome>) => {
      for (let m = receiveMessageOnPort(port1); m !== undefined && !done; m = receiveMessageOnPort(port1))
        add(m.message as Outcomes | null, into);
    };
    this.waiting.set(id, { worker, resolve: () => {}, reject: () => finish() });
    worker.postMessage({ id, jobs, lines: this.options.lines, shared: { next, port: port2 } } satisfies ParseRequest, [port2]);
    return {
      take,
      rest: async (into) => {
        take(into);
        if (!done) {
          port1.on('message', (outcomes: Outcomes | null) => add(outcomes, into));
          await finished;
        }
        port1.close();
        this.waiting.delete(id);
        this.release(worker);
      },
    };
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

  /** The thread, held while it works: idle, it must not keep the process alive. */
  private held(): Worker {
    const worker = this.started();
    if (this.waiting.size === 0) worker.ref();
    return worker;
  }

  private release(worker: Worker): void {
    if (this.waiting.size === 0) worker.unref();
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
