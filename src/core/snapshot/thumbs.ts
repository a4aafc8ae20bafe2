// Which media items have a thumbnail, and where it lives. The `elmapi` dialect's media objects
// carry `thumb`: a copy scaled to 600 px high, aspect kept. We never enlarge, so an image at most
// 600 px high (or of unknown height) has no copy: its `thumb` is its full URL. BMP is an image to
// the original but libvips (sharp) cannot read it: its `thumb` is the full URL too. No Node imports.
import type { MediaRecord } from '../model/model.js';

export const THUMB_HEIGHT = 600;
const RESIZABLE = /\.(jpe?g|png|gif|webp)$/i;

/** Whether `m` gets a written thumbnail (in a dialect whose media objects carry `thumb`). */
export function hasThumb(m: MediaRecord): boolean {
  return RESIZABLE.test(m.file_name) && m.height !== null && m.height > THUMB_HEIGHT;
}

/**
 * Where a thumbnail is served and written: `/thumbs/<project>/<media id>`, beside `/media/`, under
 * the same name (so the same type and format). Not inside media/<project>/: a folder there could
 * collide with a media folder, or start with `_`, which static hosts (Jekyll) and `cqa preview` skip.
 */
export function thumbUrl(baseUrl: string, projectId: string, mediaId: string): string {
  return `${baseUrl}/thumbs/${encodeURIComponent(projectId)}/${mediaId.split('/').map(encodeURIComponent).join('/')}`;
}
