// createHandler as the main entry exports it: the fetch adapter (fetch.ts) with media files read
// from disk by default. The file is checked as it is opened (open-file.ts), so a link swapped in
// after validation is not followed out of the media folder. open-file.js is imported at the first
// media request, so that importing this module evaluates no Node-only code.
import type { Snapshot } from '../snapshot/types.js';
import { explorerPage } from './explorer/index.js';
import { createHandler as createFetchHandler, type FetchHandler, type HandlerOptions as FetchHandlerOptions, type MediaReader } from './fetch.js';
import { mediaRoot } from './media-root.js';

export type { FetchHandler, MediaReader } from './fetch.js';

export interface HandlerOptions extends FetchHandlerOptions {
  /** Default true: the explorer page for browsers at `/` (docs/explorer.md); false: `/` stays a 404. */
  readonly ui?: boolean;
}

function nodeMediaReader(): MediaReader {
  let files: Promise<typeof import('./open-file.js')> | undefined;
  let roots: import('./open-file.js').ServedRoots | undefined;
  return async (m) => {
    try {
      files ??= import('./open-file.js');
      const { ServedRoots, readInside } = await files;
      roots ??= new ServedRoots();
      return await readInside(roots.get(mediaRoot(m)), m.id);
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
  const readMedia = options.readMedia ?? nodeMediaReader();
  return createFetchHandler(snapshot, {
    ...options,
    readMedia,
    readThumbnail: options.readThumbnail ?? nodeThumbnailReader(readMedia),
    explorer: options.ui === false ? undefined : (options.explorer ?? explorerPage),
  });
}
