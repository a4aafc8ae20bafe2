// content-query-api/edge: the query API for runtimes without a file system — Cloudflare Workers,
// Deno Deploy, Vercel Edge, Bun, a service worker. A snapshot file (`cqa build --snapshot`) goes
// in through loadSnapshot, requests through createHandler; nothing in this module graph imports
// Node or reads import.meta.url (test/edge/bundle.test.ts checks both, and the bundle's size).
export { createHandler, type FetchHandler, type HandlerOptions, type MediaReader } from './http/fetch.js';
export { loadSnapshot, type SnapshotFile } from './snapshot/portable.js';
// Opt-in (`createHandler(snapshot, { explorer: explorerPage })`): a worker that does not name it
// does not bundle the page.
export { explorerPage, type ExplorerPage } from './http/explorer/index.js';
export type * from './snapshot/model.js';
export type * from './snapshot/types.js';
