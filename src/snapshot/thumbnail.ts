// Making a thumbnail (Node only): sharp (libvips), loaded at the first thumbnail so that a build or
// server without one never loads the native library. The output format is the input's (a PNG stays
// a PNG), EXIF orientation is applied first (media sizes are reported as displayed), metadata is
// dropped, and the bytes depend only on the input: two builds write the same file.
import { THUMB_HEIGHT } from './thumbs.js';

type Sharp = typeof import('sharp').default;
let sharp: Promise<Sharp> | undefined;

/** A copy of the image `bytes` scaled to THUMB_HEIGHT px high, aspect kept, never enlarged. */
export async function makeThumbnail(bytes: Uint8Array): Promise<Buffer> {
  sharp ??= import('sharp').then((m) => m.default);
  const s = await sharp;
  // animated: every frame of a GIF or WebP animation is scaled, not only the first.
  return s(bytes, { animated: true })
    .autoOrient()
    .resize({ height: THUMB_HEIGHT, withoutEnlargement: true })
    .toBuffer();
}
