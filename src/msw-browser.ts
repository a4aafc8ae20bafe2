// content-query-api/msw in a browser (the export's `browser` condition): the same handlers over a
// snapshot file loaded with loadSnapshot — a browser has no content folder to build from. No Node
// imports (test/msw/browser.slow.test.ts runs it in Chromium under setupWorker).
import { handlerOf } from './core/http/fetch.js';
import { type MockApi, type MswOptions, mswHandlers } from './core/http/msw-handlers.js';

export type { JournaledRequest, RequestRecord, ResponseRecord } from './core/http/journal.js';
export type { OverrideAnswer, OverrideFunction, OverrideRequest } from './core/http/overrides.js';
export type { RequestPredicate, WaitOptions } from './core/http/request-waiter.js';
export type { MockApi, MswOptions } from './core/http/msw-handlers.js';

export async function createMswHandlers(options: MswOptions): Promise<MockApi> {
  if (!options.snapshot) {
    throw new TypeError(
      "createMswHandlers: in a browser, give a snapshot: build one with `cqa build content --snapshot snapshot.json` and pass loadSnapshot(text) from 'content-query-api/edge' as snapshot",
    );
  }
  return mswHandlers(options, { snapshot: options.snapshot, createHandler: handlerOf });
}
