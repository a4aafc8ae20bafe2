// Reading a media file for `cqa build`, checked when it is opened, as `cqa serve` does
// (http/open-file.ts): a media file swapped for a link to a file outside its project's media/
// since the content was loaded must not be copied into dist/, where it would be published.
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { openInside, ServedRoot, type OpenedFile } from '../server/open-file.js';
import { readImage } from './thumbnail.js';

/** Where a media item's file is: its project's media folder and its id (the path under it). */
export interface MediaSource {
  readonly root: string;
  readonly id: string;
}

async function opened(media: MediaSource): Promise<OpenedFile> {
  const file = await openInside(new ServedRoot(media.root), media.id);
  if (!file)
    throw new Error(
      `media '${media.id}' is no longer a regular file inside ${media.root} (replaced by a link, or removed since it was read): build again`,
    );
  return file;
}

/** Copies the media file to `target` (a new file); returns the bytes written. */
export async function copyMedia(media: MediaSource, target: string): Promise<number> {
  const file = await opened(media);
  try {
    await pipeline(file.handle.createReadStream({ autoClose: false }), createWriteStream(target, { flags: 'wx' }));
    return file.stats.size;
  } finally {
    await file.handle.close();
  }
}

/** The media file's bytes. */
/** The image's bytes to make a thumbnail of, within THUMBNAIL_LIMITS' file size (readImage). */
export async function readMediaImage(media: MediaSource): Promise<Buffer> {
  const file = await opened(media);
  try {
    return await readImage(file.handle);
  } finally {
    await file.handle.close();
  }
}
