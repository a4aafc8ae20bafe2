// createHandler as the main entry exports it: the fetch adapter (fetch.ts) with media files read
// from disk by default. The file is checked as it is opened (open-file.ts), so a link swapped in
// after validation is not followed out of the media folder. open-file.js is imported at the first
// media request, so that importing this module evaluates no Node-only code.
import type { Snapshot } from '../../core/model/types.js';
import { elmapi3Routes } from '../../core/http/elmapi3/handler.js';
import { nodeExplorer } from './explorer.js';
import type { MediaRecord } from '../../core/model/model.js';
import type { ThumbnailLimits } from '../output/thumbnail.js';
import {
  HANDLER_KEYS,
  handlerOf,
  MediaProblem,
  mediaClash,
  type FetchHandler,
  type HandlerOptions as FetchHandlerOptions,
  type MediaFile,
  type MediaReader,
} from '../../core/http/fetch.js';
import { mediaRoot } from '../../core/http/media-root.js';
import { checkOptions, HTTP_KINDS, optionKeys, refuseTogether } from '../../core/http/options.js';
import { checkControls } from '../../core/http/controls.js';

export type { FetchHandler, MediaFile, MediaReader } from '../../core/http/fetch.js';

export interface HandlerOptions extends FetchHandlerOptions {
  /**
   * Thumbnails are made of images up to this size only (default THUMBNAIL_LIMITS: 40 Mpx, 20:1);
   * larger ones answer 422 (docs/security.md, "Image processing"). Not with a readThumbnail of your own.
   */
  readonly thumbnailLimits?: ThumbnailLimits;
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

/**
 * Thumbnails made from the media files on disk, kept within a byte budget, failures remembered,
 * a few made at a time (thumbnails.ts, as in `cqa serve`); a refused image answers 422.
 */
function nodeThumbnailReader(roots: ReturnType<typeof nodeRoots>, limits: ThumbnailLimits | undefined): MediaReader {
  let cache: Promise<{ thumbs: import('./thumbnails.js').ThumbnailCache; problem: typeof import('./thumbnail-problem.js') }> | undefined;
  return async (m) => {
    cache ??= Promise.all([import('./thumbnails.js'), import('./thumbnail-problem.js')]).then(([t, problem]) => ({
      thumbs: new t.ThumbnailCache(t.THUMB_CACHE_BYTES, limits),
      problem,
    }));
    const { thumbs, problem } = await cache;
    const { files, roots: r } = await roots();
    const file = await files.openInside(r.get(mediaRoot(m)), m.id);
    if (!file) return null;
    try {
      return (await thumbs.get(file)).bytes;
    } catch (err) {
      const p = problem.thumbnailProblem(m.id, err);
      throw new MediaProblem(p, p.status === 503 ? { 'retry-after': '1' } : {});
    }
  };
}

const NODE_HANDLER_KEYS: readonly string[] = [
  ...HANDLER_KEYS,
  ...optionKeys<Omit<HandlerOptions, keyof FetchHandlerOptions>>()(['thumbnailLimits', 'ui']),
];

/** The handler of `snapshot`; an option it does not know throws a TypeError naming the closest one. */
export function createHandler(snapshot: Snapshot, options: HandlerOptions = {}): FetchHandler {
  checkOptions('createHandler', options, NODE_HANDLER_KEYS, HTTP_KINDS);
  refuseTogether('createHandler', [
    mediaClash(options),
    [
      options.thumbnailLimits !== undefined && options.readThumbnail !== undefined,
      'thumbnailLimits bounds the thumbnails made from files on disk, and your readThumbnail makes its own; leave thumbnailLimits out',
    ],
  ]);
  checkControls(options, 'createHandler');
  return nodeHandlerOf(snapshot, options);
}

/** createHandler without the check of its options (the MSW handlers pass on options of their own). */
export function nodeHandlerOf(snapshot: Snapshot, options: HandlerOptions = {}): FetchHandler {
  const roots = nodeRoots();
  const readMedia = options.readMedia ?? nodeMediaReader(roots);
  return handlerOf(snapshot, {
    ...options,
    readMedia,
    // A reader of the caller's own is used as it is; files on disk are opened, not read whole.
    ...(options.readMedia || options.openMedia ? {} : { openMedia: nodeMediaOpener(roots) }),
    readThumbnail: options.readThumbnail ?? nodeThumbnailReader(roots, options.thumbnailLimits),
    explorer: options.ui === false ? undefined : (options.explorer ?? nodeExplorer()),
    elmapi3: options.elmapi3 ?? elmapi3Routes,
  });
}
