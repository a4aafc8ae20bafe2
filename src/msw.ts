// content-query-api/msw: the mock API as MSW request handlers (Mock Service Worker, v2), for
// front-end tests that intercept fetch instead of starting a server. The same request core as
// createHandler answers, with the controls of startServer (delay, failRate, seed, Prefer), its
// journal, per-route overrides and waitForRequest. msw is an optional peer dependency: installed
// by the user, never by this package. This is the Node entry (content folders and in-memory
// trees); bundlers for browsers take msw-browser.ts (the export's `browser` condition).
import { nodeHandlerOf } from './node/server/fetch-node.js';
import { snapshotOf } from './node/server/msw-content.js';
import { contentOption } from './node/content/content-option.js';
import { type MockApi, type MswOptions, mswControls, mswHandlers } from './core/http/msw-handlers.js';

export type { ContentTree } from './node/content/tree.js';
export type { JournaledRequest, RequestRecord, ResponseRecord } from './core/http/journal.js';
export type { OverrideAnswer, OverrideFunction, OverrideRequest } from './core/http/overrides.js';
export type { RequestPredicate, WaitOptions } from './core/http/request-waiter.js';
export type { MockApi, MswOptions } from './core/http/msw-handlers.js';

export async function createMswHandlers(options: MswOptions): Promise<MockApi> {
  mswControls(options); // a bad origin or control throws before the content is loaded
  // From a folder or tree, media files are read from disk (the node:fs reader of fetch-node.ts).
  const content = contentOption('createMswHandlers', options.content); // a file: URL names its folder
  const source = options.snapshot ? { snapshot: options.snapshot } : await snapshotOf(content ?? 'content');
  return mswHandlers(options, { ...source, createHandler: nodeHandlerOf });
}
