// The dist workers (dist-worker.ts) as a pool fed with batches of documents: the writer makes each
// document when its batch is due and hands the batch to the least busy worker, waiting while every
// worker already has IN_FLIGHT batches. Workers that finish early take more, so no sorting by size
// is needed to balance them, and only a few batches exist at a time whatever the tree's size.
import { Worker } from 'node:worker_threads';
import type { DistBatch, DistBatchDone } from './dist-worker.js';

/** Batches a worker holds at once: one being written, one waiting, so it never idles between them. */
const IN_FLIGHT = 2;

interface Slot {
  readonly worker: Worker;
  busy: number;
  readonly exited: Promise<void>;
}

export class DistPool {
  private readonly slots: Slot[];
  private failure: unknown;
  private wake: (() => void) | undefined;

  constructor(url: URL, threads: number, workerData: unknown, onDone: (done: DistBatchDone) => void, failed: (code: number) => Error) {
    this.slots = Array.from({ length: threads }, () => {
      const worker = new Worker(url, { workerData });
      const slot: Slot = {
        worker,
        busy: 0,
        exited: new Promise<void>((resolve) =>
          worker.once('exit', (code) => {
            if (code !== 0) this.fail(failed(code));
            resolve();
          }),
        ),
      };
      worker.on('message', (done: DistBatchDone) => {
        slot.busy--;
        onDone(done);
        this.wake?.();
      });
      worker.on('error', (err) => this.fail(err));
      return slot;
    });
  }

  private fail(err: unknown): void {
    this.failure ??= err;
    this.wake?.();
  }

  /** Hands `batch` to the least busy worker, once one has room; throws a worker's failure. */
  async send(batch: NonNullable<DistBatch>): Promise<void> {
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      const slot = this.slots.reduce<Slot | undefined>(
        (best, s) => (s.busy < IN_FLIGHT && (!best || s.busy < best.busy) ? s : best),
        undefined,
      );
      if (slot) {
        slot.busy++;
        slot.worker.postMessage(batch satisfies DistBatch);
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  /** After the last batch: waits until every worker has written its batches and ended; throws the first failure. */
  async close(): Promise<void> {
    for (const s of this.slots) s.worker.postMessage(null satisfies DistBatch);
    await Promise.all(this.slots.map((s) => s.exited));
    if (this.failure !== undefined) throw this.failure;
  }

  /** Stops every worker (after a failure elsewhere); resolves when none writes any more. */
  async terminate(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    await Promise.all(this.slots.map((s) => s.exited));
  }
}
