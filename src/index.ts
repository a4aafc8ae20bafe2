// The library API: build a snapshot from a content tree, write it as static files, serve it.
export { createSnapshot, type SnapshotOptions } from './snapshot/create.js';
export type * from './snapshot/model.js';
export type * from './snapshot/types.js';
export { buildSnapshot, type BuildSnapshotOptions } from './build-snapshot.js';
export { createContentLoader, loadContent, ContentError, type ContentLoader, type LoadOptions, type LoadResult } from './content/index.js';
export { querySerializer } from './client/query-serializer.js';
export { startServer, type StartServerOptions, type RunningServer, type ReloadEvent } from './http/start.js';
export type { ControlOptions, Delay, FailStatus } from './http/controls.js';
export type { RequestRecord } from './http/journal.js';
export { createHandler, type FetchHandler, type HandlerOptions, type MediaFile, type MediaReader } from './http/fetch-node.js';
export type { HttpOptions } from './http/core.js';
export { writeDist, DistError, type WriteDistOptions, type DistResult } from './snapshot/dist.js';
export type { Precompress } from './snapshot/dist-compression.js';
export { loadSnapshot, SnapshotFormatError, type SnapshotFile } from './snapshot/portable.js';
export { writeSnapshot, type WriteSnapshotOptions, type SnapshotFileResult } from './snapshot/snapshot-file.js';
export { startPreview, type PreviewOptions, type PreviewServer } from './commands/preview.js';
