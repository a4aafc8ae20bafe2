// waitForRequest(predicate, { timeout }): a contract test waits for the request its code under
// test sends (a prefetch, a retry after a 503) instead of sleeping. Shared by startServer and
// the MSW handlers. No Node imports.
import { checkOptions, shownValue } from './options.js';
import type { JournaledRequest } from './journal.js';

export interface WaitOptions {
  /** Milliseconds before giving up (default 5000; at most 600000). */
  readonly timeout?: number;
}

export type RequestPredicate = (record: JournaledRequest) => boolean;

interface Waiter {
  readonly predicate: RequestPredicate;
  misses: number;
  readonly resolve: (r: JournaledRequest) => void;
  readonly reject: (err: Error) => void;
  readonly timer: ReturnType<typeof setTimeout>;
  /** The promise the caller got (see cancel()). */
  readonly promise: Promise<JournaledRequest>;
}

const MAX_TIMEOUT = 600_000;
const describe = (p: RequestPredicate) => (p.name ? `'${p.name}'` : String(p).length <= 80 ? String(p) : `${String(p).slice(0, 79)}…`);

export class RequestWaiters {
  private readonly waiting = new Set<Waiter>();
  /** Why no request will come any more (the server was closed), once cancel() is called. */
  private closed: string | undefined;

  /** How many waits are open (none: records need not be offered). */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * The first record in `journaled` (oldest first), or answered after this call, that `predicate`
   * accepts. Rejects after `timeout` ms naming how many records it turned down.
   */
  wait(predicate: RequestPredicate, options: WaitOptions, journaled: readonly JournaledRequest[]): Promise<JournaledRequest> {
    if (typeof predicate !== 'function')
      return Promise.reject(new TypeError('waitForRequest: give a function (record) => boolean, e.g. (r) => r.path === "/api/demo/posts"'));
    try {
      checkOptions('waitForRequest', options, ['timeout']); // `{ timout: 100 }` waited 5 s in silence (found from outside)
    } catch (err) {
      return Promise.reject(err);
    }
    const timeout = options.timeout ?? 5000;
    if (!(Number.isInteger(timeout) && timeout >= 0 && timeout <= MAX_TIMEOUT))
      return Promise.reject(
        new RangeError(`waitForRequest: timeout must be an integer from 0 to ${MAX_TIMEOUT} (ms), got ${shownValue(timeout)}`),
      );
    let misses = 0;
    try {
      for (const r of journaled) {
        if (predicate(r)) return Promise.resolve(r);
        misses++;
      }
    } catch (err) {
      return Promise.reject(err);
    }
    // After close no request can come: said at once, not after the whole timeout (found from outside).
    if (this.closed !== undefined) return Promise.reject(new Error(`waitForRequest: ${this.closed}`));
    let resolve!: (r: JournaledRequest) => void;
    let reject!: (err: Error) => void;
    const promise = new Promise<JournaledRequest>((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    const waiter: Waiter = {
      predicate,
      misses,
      resolve,
      reject,
      promise,
      timer: setTimeout(() => {
        this.waiting.delete(waiter);
        reject(
          new Error(
            `waitForRequest: no request matched ${describe(predicate)} within ${timeout} ms; it returned false for ${waiter.misses} request${waiter.misses === 1 ? '' : 's'}`,
          ),
        );
      }, timeout),
    };
    this.waiting.add(waiter);
    return promise;
  }

  /** Offers a record just answered to every waiter (a predicate that throws rejects its own wait). */
  offer(record: JournaledRequest): void {
    for (const w of [...this.waiting]) {
      let hit: boolean;
      try {
        hit = w.predicate(record);
      } catch (err) {
        this.settle(w);
        w.reject(err as Error);
        continue;
      }
      if (!hit) {
        w.misses++;
        continue;
      }
      this.settle(w);
      w.resolve(record);
    }
  }

  /**
   * Rejects every wait (the server is closing): no timer outlives it. Whoever awaits one still
   * gets the rejection, but one left behind (its test failed first, and afterAll closes the
   * server) is no unhandled rejection that fails a run whose tests passed (found from outside).
   */
  cancel(why: string): void {
    this.closed = why;
    for (const w of [...this.waiting]) {
      this.settle(w);
      w.promise.catch(() => {});
      w.reject(new Error(`waitForRequest: ${why}`));
    }
  }

  private settle(w: Waiter): void {
    clearTimeout(w.timer);
    this.waiting.delete(w);
  }
}
