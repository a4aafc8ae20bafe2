// What a running mock offers a contract test, whichever way it answers: startServer()'s server
// and the MSW handlers (docs/contract-tests.md) share these members and their meaning.
import type { Snapshot } from '../model/types.js';
import type { JournaledRequest } from './journal.js';
import type { Problem } from './problem.js';
import type { OverrideAnswer, OverrideFunction } from './overrides.js';
import type { RequestPredicate, WaitOptions } from './request-waiter.js';

export interface ContractControls {
  /** The snapshot being served right now. */
  readonly snapshot: Snapshot;
  /** The seed of the draws of the fail rate and a delay range: pass it as `seed` to replay a run. */
  readonly seed: number;
  /** The controls in force, for a person: `delay 100-400 ms, fail-rate 0.1 (503, Retry-After: 1), seed 42`; '' when none. */
  readonly controls: string;
  /** The last requests answered (the journal), oldest first: copies, without credentials, each with its `response`. */
  requests(): JournaledRequest[];
  /** Forget them (between the tests of one server). */
  clearRequests(): void;
  /**
   * The first journaled request, or the next one answered, that `predicate` accepts; rejects
   * after `timeout` ms (default 5000) saying how many it turned down.
   */
  waitForRequest(predicate: RequestPredicate, options?: WaitOptions): Promise<JournaledRequest>;
  /**
   * Answer `method` (`GET`, `*`…) on paths matching `pathPattern` (`/api/demo/posts/:id`, a final
   * `*`) with `answer` ({ status, headers, body }), or with what `fn(request)` returns (undefined:
   * the next override, then the API). The latest override is tried first.
   */
  override(method: string, pathPattern: string, answer: OverrideAnswer | OverrideFunction): void;
  /** Drop every override. */
  reset(): void;
}

/**
 * What a request gets when the mock is closed while its override has not answered yet (a promise
 * that never settles must not hold close() up): a 503, in the dialect of the project asked for.
 */
export function closedBeforeOverride(method: string, path: string): Problem {
  return {
    status: 503,
    code: 'service_unavailable',
    detail: `the server was closed before the override of ${method} ${path} answered`,
  };
}
