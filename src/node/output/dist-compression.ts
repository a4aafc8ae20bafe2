// How dist/ documents are compressed (the .gz and .br siblings): settings shared by the writer in
// this thread (dist.ts), its workers (dist-worker.ts) and the streamed writer (dist-large.ts).
import { constants, type BrotliOptions } from 'node:zlib';

export type Precompress = 'none' | 'gzip' | 'br' | 'all';
export const PRECOMPRESS_CHOICES: readonly Precompress[] = ['none', 'gzip', 'br', 'all'];

/** Which siblings a `precompress` setting writes (plain data, also sent to the dist workers). */
export interface Siblings {
  readonly gzip: boolean;
  readonly br: boolean;
}

export function siblingsOf(precompress: Precompress): Siblings {
  return { gzip: precompress === 'gzip' || precompress === 'all', br: precompress === 'br' || precompress === 'all' };
}

/**
 * Compression settings, chosen on measurements of 10,000 entry documents (24 MB): brotli 9 took
 * 3.8 s of CPU, 6 took 1.7 s for 3 % more bytes, and 10–11 cost 20–200× the time of 9 for 1–3 %
 * less; gzip 9 took 0.9 s, 6 took 0.7 s for 0.2 % more. Compression is most of a large build's
 * CPU, so 6 for both, and brotli 5 for documents over 1 MiB (long lists). The settings depend only
 * on the document, so output stays deterministic; `brotliQuality: 11` is there for who wants it.
 */
const DEFAULT_BROTLI_QUALITY = 6;
const LARGE_DOCUMENT = 1024 * 1024;
const LARGE_BROTLI_QUALITY = 5;
export const GZIP_LEVEL = 6;

/**
 * Brotli settings for a document of `size` bytes — a function of the size only, so output is
 * deterministic: quality `quality` (default 6) up to 1 MiB, 5 above, and a window fitted to the
 * document.
 */
export function brotliOptions(size: number, quality?: number): BrotliOptions {
  const q = quality ?? (size > LARGE_DOCUMENT ? LARGE_BROTLI_QUALITY : DEFAULT_BROTLI_QUALITY);
  const lgwin = Math.max(10, Math.min(24, Math.ceil(Math.log2(size + 1))));
  return {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: q,
      [constants.BROTLI_PARAM_LGWIN]: lgwin,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}
