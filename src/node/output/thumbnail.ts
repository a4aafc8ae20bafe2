// Making a thumbnail (Node only): sharp (libvips), loaded at the first thumbnail so that a build or
// server without one never loads the native library. The output format is the input's (a PNG stays
// a PNG), EXIF orientation is applied first (media sizes are reported as displayed), metadata is
// dropped, and the bytes depend only on the input: two builds write the same file.
//
// Media come from contributors and third-party APIs, so an image is measured from its header
// first (image-size: no decoding) and refused before libvips sees it when it is too large or too
// elongated; libvips is held to the same pixel limit in case the header lied.
import type { FileHandle } from 'node:fs/promises';
import { imageSizePackage } from '../content/image-size-package.js';
import { THUMB_HEIGHT } from '../../core/snapshot/thumbs.js';

type Sharp = typeof import('sharp').default;
let sharp: Promise<Sharp> | undefined;

export interface ThumbnailLimits {
  /** Most pixels (width × height, every frame of an animation counted) an image may have. */
  readonly maxPixels: number;
  /** Most the width may be of the height (a 200000×1300 strip is 153:1): its thumbnail is 600 px high, so that many times as wide. */
  readonly maxAspect: number;
  /** Largest file read to make one (default 128 MiB): the file is read whole before its header is measured. */
  readonly maxBytes?: number;
}

/** 40 Mpx: a 7300×5500 photo; decoding that costs ~160 MB. 20:1 covers panoramas. */
export const THUMBNAIL_LIMITS: ThumbnailLimits = { maxPixels: 40_000_000, maxAspect: 20 };

/** A 40 Mpx photo saved as PNG is ~120 MB; two made at once stay within ~256 MiB of input. */
const MAX_IMAGE_BYTES = 128 * 2 ** 20;

/**
 * The opened image's bytes, refused (ThumbnailRefused) before any is read when the file is over
 * `limits.maxBytes` (found from outside: a 900 MB file took a server from 0.27 to 1.15 GB).
 * Reads at most the size it checked, should the file grow meanwhile.
 */
export async function readImage(handle: FileHandle, limits: ThumbnailLimits = THUMBNAIL_LIMITS): Promise<Buffer> {
  const max = limits.maxBytes ?? MAX_IMAGE_BYTES;
  const { size } = await handle.stat();
  if (size > max)
    throw new ThumbnailRefused(
      `the file is ${(size / 2 ** 20).toFixed(1)} MiB: thumbnails are made of files up to ${(max / 2 ** 20).toFixed(0)} MiB`,
    );
  const bytes = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return bytes.subarray(0, filled);
}

const RASTER = new Set(['png', 'jpg', 'gif', 'webp']);

/** An image a thumbnail is not made of, and why: the answer is a 422 naming the limit. */
export class ThumbnailRefused extends Error {}

/** Refuses `bytes` unless its header names a size within `limits` (throws ThumbnailRefused). */
export function checkImage(bytes: Uint8Array, limits: ThumbnailLimits = THUMBNAIL_LIMITS): void {
  let size: ReturnType<typeof import('image-size').imageSize>;
  try {
    size = imageSizePackage().imageSize(bytes);
  } catch (err) {
    throw new ThumbnailRefused(`the image header cannot be read (${(err as Error).message})`);
  }
  // libvips renders SVG (and PDF, TIFF…) at a cost the header does not bound: only these formats.
  if (!RASTER.has(size.type ?? '')) {
    throw new ThumbnailRefused(
      `the file's bytes are ${size.type?.toUpperCase() ?? 'of no known image type'}: thumbnails are made of PNG, JPEG, GIF and WebP images only (name the file by what it holds)`,
    );
  }
  const { width, height } = size;
  if (!width || !height) throw new ThumbnailRefused('the image header names no width and height');
  const frames = size.images?.length ?? 1;
  const pixels = width * height * Math.max(1, frames);
  if (pixels > limits.maxPixels) {
    throw new ThumbnailRefused(
      `the image is ${width}×${height} px${frames > 1 ? ` × ${frames} frames` : ''} (${(pixels / 1e6).toFixed(1)} Mpx): thumbnails are made of images up to ${limits.maxPixels / 1e6} Mpx`,
    );
  }
  // Tall strips are cheap (the thumbnail is narrower still); wide ones make a wide thumbnail.
  const aspect = width / height;
  if (aspect > limits.maxAspect)
    throw new ThumbnailRefused(
      `the image is ${width}×${height} px (${aspect.toFixed(0)}:1): thumbnails are made of images up to ${limits.maxAspect}:1`,
    );
}

/** A copy of the image `bytes` scaled to THUMB_HEIGHT px high, aspect kept, never enlarged. */
export async function makeThumbnail(bytes: Uint8Array, limits: ThumbnailLimits = THUMBNAIL_LIMITS): Promise<Buffer> {
  checkImage(bytes, limits);
  sharp ??= import('sharp').then((m) => m.default);
  const s = await sharp;
  // animated: every frame of a GIF or WebP animation is scaled, not only the first.
  return s(bytes, { animated: true, limitInputPixels: limits.maxPixels })
    .autoOrient()
    .resize({ height: THUMB_HEIGHT, withoutEnlargement: true })
    .toBuffer();
}
