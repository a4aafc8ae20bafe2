// createHandler as the main entry exports it: the fetch adapter (fetch.ts) with media files read
// from disk by default. The file is checked as it is opened (open-file.ts), so a link swapped in
// after validation is not followed out of the media folder. open-file.js is imported at the first
// media request, so that importing this module evaluates no Node-only code.
import type { Snapshot } from '../snapshot/types.js';
import { explorerPage } from './explorer/index.js';
import type { MediaRecord } from '../snapshot/model.js';
import { createHandler as createFetchHandler, type FetchHandler, type HandlerOptions as FetchHandlerOptions, type MediaFile, type MediaReader } from './fetch.js';
import { mediaRoot } from './media-root.js';

export type { FetchHandler, MediaFile, MediaReader } from './fetch.js';

export interface HandlerOptions extends FetchHandlerOptions {
  /** Default true: the explorer page for browsers at `/` (docs/explorer.md); false: `/` stays a 404. */
  readonly ui?: boolean;
}

/** Media folders on disk, each pinned at its first use (open-file.ts). */
function nodeRoots(): () => Promise<{ files: typeof import('./open-file.js'); roots: import('./open-file.js').ServedRoots }> {
  let loaded: Promise<{ files: typeof import('./open-file.js'); roots: import('./open-file.js').ServedRoots }> | undefined;
  return () => (loaded ??= import('./open-file.js').then((files) => ({ files, roots: new files.ServedRoots() })));
}

function nodeMediaReader(roots: ReturnType<typeof nodeRoots>): MediaReader {
  return async (m) => {
    try {
      const { files, roots: r } = await roots();
      return await files.readInside(r.get(mediaRoot(m)), m.id);
    } catch {
      return null;
    }
  };
}

/** Media files opened, not read: an answer reads only the bytes it sends (media-file-node.ts). */
function nodeMediaOpener(roots: ReturnType<typeof nodeRoots>): (m: MediaRecord) => Promise<MediaFile | null> {
  let opener: Promise<typeof import('./media-file-node.js')> | undefined;
  return async (m) => {
    try {
      opener ??= import('./media-file-node.js');
      const { roots: r } = await roots();
      return await (await opener).openMediaFile(r.get(mediaRoot(m)), m.id);
    } catch {
      return null;
    }
  };
}

/** Thumbnails made from the media files on disk (src/snapshot/thumbnail.ts, imported at the first one). */
function nodeThumbnailReader(readMedia: MediaReader): MediaReader {
  let thumbnail: Promise<typeof import('../snapshot/thumbnail.js')> | undefined;
  return async (m) => {
    const bytes = await readMedia(m);
    if (!bytes) return null;
    try {
      thumbnail ??= import('../snapshot/thumbnail.js');
      return await (await thumbnail).makeThumbnail(bytes);
    } catch {
      return null;
    }
  };
}

export function createHandler(snapshot: Snapshot, options: HandlerOptions = {}): FetchHandler {
  const roots = nodeRoots();
  const readMedia = options.readMedia ?? nodeMediaReader(roots);
  return createFetchHandler(snapshot, {
    ...options,
    readMedia,
    // A reader of the caller's own is used as it is; files on disk are opened, not read whole.
    ...(options.readMedia || options.openMedia ? {} : { openMedia: nodeMediaOpener(roots) }),
    readThumbnail: options.readThumbnail ?? nodeThumbnailReader(readMedia),
    explorer: options.ui === false ? undefined : (options.explorer ?? explorerPage),
  });
}
