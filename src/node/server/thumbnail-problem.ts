// The answer when no thumbnail is made of a media file: 422 naming the limit or the defect (the
// file is bad input: refused, not an error of ours), 503 when too many wait, 404 otherwise. The
// original is not sent instead: it is the very file that is too large to handle.
import type { Problem } from '../../core/http/problem.js';
import { ThumbnailBusy, ThumbnailRefused } from './thumbnails.js';

export function thumbnailProblem(id: string, err: unknown): Problem {
  if (err instanceof ThumbnailRefused) {
    return {
      status: 422,
      code: 'thumbnail_refused',
      // A damaged file is replaced by a readable one; one over a limit by a smaller one.
      detail: `no thumbnail is made of the media file '${id}': ${err.message}; link its full_url instead, or replace the file with ${/cannot be (decoded|read)/.test(err.message) ? 'a readable image' : 'a smaller image'}`,
    };
  }
  if (err instanceof ThumbnailBusy)
    return { status: 503, code: 'busy', detail: `too many thumbnails are being made (${err.message}): try again in a second` };
  return { status: 404, code: 'not_found', detail: `no thumbnail could be made of the media file '${id}': ${(err as Error).message}` };
}
