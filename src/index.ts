// The library API: build a snapshot from a content tree, write it as static files, serve it.
export { createSnapshot, type SnapshotOptions } from './snapshot/create.js';
export type * from './snapshot/model.js';
export type * from './snapshot/types.js';
