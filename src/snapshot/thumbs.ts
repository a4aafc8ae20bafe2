// Which media items have a thumbnail, and where it lives. The `elmapi` dialect's media objects
// carry `thumb`: a copy scaled to 600 px high, aspect kept. We never enlarge, so an image at most
// 600 px high (or of unknown height) has no copy: its `thumb` is its full URL. BMP is an image to
// the original but libvips (sharp) cannot read it: its `thumb` is the full URL too. No Node imports.
import type { MediaRecord } from './model.js';

export const THUMB_HEIGHT = 600;
/**
 * Thumbnails are served and written under `media/<project>/_thumbs/<media id>`: a media id never
 * starts with `_` (files and folders named so are not content), so the two cannot collide.
 */
export const THUMBS_FOLDER = '_thumbs';
const RESIZABLE = /\.(jpe?g|png|gif|webp)$/i;

/** Whether `m` gets a written thumbnail (in a dialect whose media objects carry `thumb`). */
export function hasThumb(m: MediaRecord): boolean {
  return RESIZABLE.test(m.file_name) && m.height !== null && m.height > THUMB_HEIGHT;
}

/** The thumbnail's path under `media/<project>/` (the same name: the same type, the same format). */
export function thumbPath(mediaId: string): string {
  return `${THUMBS_FOLDER}/${mediaId}`;
}

/** The media id whose thumbnail a path under `media/<project>/` names, or undefined. */
export function thumbOf(path: string): string | undefined {
  return path.startsWith(`${THUMBS_FOLDER}/`) ? path.slice(THUMBS_FOLDER.length + 1) : undefined;
}
