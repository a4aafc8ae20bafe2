// content-query-api/edge: the query API for runtimes without a file system — Cloudflare Workers,
// Deno Deploy, Vercel Edge, Bun, a service worker. A snapshot file (`cqa build --snapshot`) goes
// in through loadSnapshot, requests through createHandler; nothing in this module graph imports
// Node or reads import.meta.url (test/edge/bundle.test.ts checks both, and the bundle's size).
export { createHandler, type FetchHandler, type HandlerOptions, type MediaReader } from './core/http/fetch.js';
export { loadSnapshot, type SnapshotFile } from './core/snapshot/portable.js';
// Opt-in (`createHandler(snapshot, { explorer: explorerPage })`): a worker that does not name it
// does not bundle the page.
export { explorerPage, type ExplorerPage } from './core/http/explorer/index.js';
// Opt-in as well (`{ elmapi3: elmapi3Routes }`): today's ElmapiCMS routes, for snapshots with
// elmapi3 projects (without it, a request for one is answered 501 naming this option).
export { elmapi3Routes, type Elmapi3Routes } from './core/http/elmapi3/handler.js';
export type * from './core/model/model.js';
export type * from './core/model/types.js';
