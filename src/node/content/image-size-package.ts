// The image-size package (26 modules), loaded when an image is first measured: by the first image
// not in the parse cache (media.ts) or the first thumbnail (thumbnail.ts), never on the way to a
// cold start's first answer (docs/performance.md#start-up). Its CommonJS build, so that it can be
// required in the middle of a synchronous check.
import { createRequire } from 'node:module';

type ImageSize = typeof import('image-size');

let loaded: ImageSize | undefined;

export function imageSizePackage(): ImageSize {
  return (loaded ??= createRequire(import.meta.url)('image-size') as ImageSize);
}
