// The library API: build a snapshot from a content tree, write it as static files, serve it.
export { createSnapshot, type SnapshotOptions } from './core/snapshot/create.js';
export type * from './core/model/model.js';
export type * from './core/model/types.js';
export { buildSnapshot, type BuildSnapshotOptions } from './node/build-snapshot.js';
export {
  createContentLoader,
  loadContent,
  ContentError,
  type ContentLoader,
  type LoadOptions,
  type LoadResult,
} from './node/content/index.js';
export { querySerializer } from './core/client/query-serializer.js';
export { startServer, type StartServerOptions, type RunningServer, type ReloadEvent } from './node/server/start.js';
export type { ControlOptions, Delay, FailStatus } from './core/http/controls.js';
export type { JournaledRequest, RequestRecord, ResponseRecord } from './core/http/journal.js';
export { createHandler, type FetchHandler, type HandlerOptions, type MediaFile, type MediaReader } from './node/server/fetch-node.js';
export type { HttpOptions } from './core/http/core.js';
export { writeDist, DistError, type WriteDistOptions, type DistResult } from './node/output/dist.js';
export type { Precompress } from './node/output/dist-compression.js';
export { loadSnapshot, SnapshotFormatError, type SnapshotFile } from './core/snapshot/portable.js';
export { writeSnapshot, type WriteSnapshotOptions, type SnapshotFileResult } from './node/output/snapshot-file.js';
export { startPreview, type PreviewOptions, type PreviewServer } from './node/server/preview.js';
