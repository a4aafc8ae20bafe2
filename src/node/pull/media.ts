// Media files for `cqa pull --media`: downloaded from full_url into media/<path>, each checked
// against the size the API states and the pull's limits (limits.ts). A file unchanged since the
// earlier pull (304 to If-None-Match) is copied from the earlier tree instead of downloaded again,
// only from a regular file at its place there (earlier-file.ts).
import { promises as fsp } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mapLimit } from '../content/cache.js';
import { closeEarlier, copyEarlier, openEarlier } from './earlier-file.js';
import { bodyChunks, type Fetcher } from './fetch.js';
import { overLimit, type PullLimits } from './limits.js';
import { PullError, type PulledMedia } from './model.js';

/** ETag and size per media path, remembered for the next pull. */
export type MediaEtags = Record<string, { readonly etag: string; readonly size: number }>;

export interface MediaDownload {
  readonly fetcher: Fetcher;
  /** The project folder being written, and the earlier pull's (for unchanged files). */
  readonly into: string;
  readonly previousTree: string | undefined;
  readonly previous: MediaEtags;
  readonly concurrency: number;
  readonly limits: PullLimits;
  readonly onFile?: () => void;
}

const wrongSize = (m: PulledMedia, got: string) =>
  `media '${m.path}': got ${got} bytes from ${m.url}, the API says ${m.size}; pull again (the file may have changed meanwhile)`;

/** Whether `bytes` is the size the API states (elmapi3: one that prints as it states). */
function sizeFits(m: PulledMedia, bytes: number): boolean {
  return m.sizeRange ? bytes >= m.sizeRange[0] && bytes <= m.sizeRange[1] : bytes === m.size;
}

/** Refuses, before anything is downloaded, media that the limits do not allow. */
function checkLimits(media: readonly PulledMedia[], limits: PullLimits): void {
  let total = 0;
  for (const m of media) {
    if (m.size > limits.maxFileBytes) throw overLimit(limits, 'maxFileBytes', `media '${m.path}' (the API states ${m.size} bytes)`);
    total += m.size;
  }
  if (total > limits.maxMediaBytes)
    throw overLimit(limits, 'maxMediaBytes', `the ${media.length} media files (the API states ${total} bytes in all)`);
}

export async function downloadMedia(
  media: readonly PulledMedia[],
  o: MediaDownload,
): Promise<{ etags: MediaEtags; bytes: number; reused: number }> {
  checkLimits(media, o.limits);
  const etags: MediaEtags = {};
  let bytes = 0;
  let reused = 0;
  await mapLimit(media, o.concurrency, async (m) => {
    const protocol = new URL(m.url).protocol;
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new PullError(`media '${m.path}': its URL ${m.url} is not http(s); only http and https media are downloaded`);
    const target = join(o.into, 'media', ...m.path.split('/'));
    await fsp.mkdir(dirname(target), { recursive: true });
    const before = Object.hasOwn(o.previous, m.path) ? o.previous[m.path] : undefined;
    const earlier = before && sizeFits(m, before.size) && o.previousTree ? openEarlier(o.previousTree, m.path, before.size) : undefined;
    // Never more than stated, nor than the per-file limit (m.size is a checked integer: limits.ts).
    const cap = Math.min(m.size, o.limits.maxFileBytes);
    try {
      // A download that breaks halfway is sent again from the start (Fetcher.request), its partial file removed.
      await o.fetcher.request(m.url, { accept: '*/*', etag: earlier ? before?.etag : undefined }, async (response) => {
        if (response.status === 304 && earlier && before) {
          if (!(await copyEarlier(earlier, target))) {
            await fsp.rm(target, { force: true });
            throw new PullError(`media '${m.path}': the earlier pull's copy changed while it was copied; pull again`);
          }
          etags[m.path] = before;
          reused++;
          return;
        }
        let got = 0;
        if (!response.ok || !response.body) {
          await response.body?.cancel();
          throw new PullError(`media '${m.path}': HTTP ${response.status} from ${m.url}`);
        }
        // Counted as it streams: a file larger than the API states is cut off at once, not downloaded whole.
        const count = new Transform({
          transform(chunk: Buffer, _enc, done) {
            got += chunk.length;
            done(got > cap ? new PullError(wrongSize(m, `more than ${m.size}`)) : null, chunk);
          },
        });
        // Opened before the stream: a stream opens its file later, so a failure could remove the
        // partial file before it existed, and the next try would find it there (EEXIST).
        const file = await fsp.open(target, 'wx');
        try {
          await pipeline(Readable.from(bodyChunks(response, m.url)), count, file.createWriteStream());
          if (!sizeFits(m, got)) throw new PullError(wrongSize(m, String(got)));
        } catch (err) {
          await file.close().catch(() => undefined);
          await fsp.rm(target, { force: true });
          throw err;
        }
        const etag = response.headers.get('etag');
        if (etag) etags[m.path] = { etag, size: got };
        bytes += got;
        if (bytes > o.limits.maxMediaBytes) throw overLimit(o.limits, 'maxMediaBytes', 'the media files downloaded');
      });
    } finally {
      closeEarlier(earlier);
    }
    o.onFile?.();
  });
  return { etags, bytes, reused };
}
