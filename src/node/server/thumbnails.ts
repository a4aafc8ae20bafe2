// Thumbnails for `cqa serve` and createHandler on Node (src/core/snapshot/thumbs.ts says which media
// items have one): made at the first request from the media file as opened and checked by
// open-file.ts, on libuv's thread pool (sharp), and kept in memory, least recently used first out,
// within a byte budget. The key is the file's identity (real path, size, mtime, inode), so an
// edited file gets a new thumbnail. A refusal or failure is remembered by the same key, so a
// bomb costs its work once, and at most THUMB_CONCURRENCY are made at a time (the rest wait, up
// to THUMB_QUEUE; beyond that the server says it is busy) so that media reads keep their threads.
import { createHash } from 'node:crypto';
import { makeThumbnail, readImage, THUMBNAIL_LIMITS, ThumbnailRefused, type ThumbnailLimits } from '../output/thumbnail.js';
import { digestTag } from '../../core/http/etag.js';
import type { OpenedFile } from './open-file.js';
import { fileTag } from './send-file.js';
import { whyNoThumbnail } from '../output/thumbnail-check.js';

export { ThumbnailRefused } from '../output/thumbnail.js';

export interface Thumbnail {
  readonly bytes: Buffer;
  /** A strong validator: the digest of the bytes. */
  readonly tag: string;
}

/** 32 MiB: about 500 thumbnails of 600 px high photos (40–80 KB as JPEG). */
export const THUMB_CACHE_BYTES = 32 * 1024 * 1024;
/** Thumbnails made at once: half of libuv's default pool of 4, the rest for file reads. */
const THUMB_CONCURRENCY = 2;
/** Requests waiting for a slot; more are answered 503 at once. */
const THUMB_QUEUE = 64;
/** Failures remembered (by file identity), oldest forgotten first. */
const FAILURES_KEPT = 1024;

/** Too many thumbnails wait already: try again shortly (503 with Retry-After). */
export class ThumbnailBusy extends Error {}

export class ThumbnailCache {
  private readonly made = new Map<string, Promise<Thumbnail>>();
  private readonly sizes = new Map<string, number>();
  private readonly failed = new Map<string, Error>();
  private bytes = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly budget = THUMB_CACHE_BYTES,
    private readonly limits: ThumbnailLimits = THUMBNAIL_LIMITS,
  ) {}

  /** The thumbnail of `file` (which it closes). Rejects when the file is not a readable image. */
  async get(file: OpenedFile): Promise<Thumbnail> {
    const key = `${file.real}\n${fileTag(file)}`;
    const failure = this.failed.get(key);
    if (failure) {
      await file.handle.close().catch(() => undefined);
      throw failure;
    }
    let thumb = this.made.get(key);
    if (thumb) {
      await file.handle.close().catch(() => undefined);
      this.made.delete(key); // re-inserted: most recently used
      this.made.set(key, thumb);
      return thumb;
    }
    thumb = this.make(file);
    this.made.set(key, thumb);
    try {
      const t = await thumb;
      this.account(key, t.bytes.length);
      return t;
    } catch (err) {
      this.made.delete(key);
      throw err instanceof ThumbnailBusy ? err : this.remember(key, err as Error);
    }
  }

  private async make(file: OpenedFile): Promise<Thumbnail> {
    try {
      await this.slot();
    } catch (err) {
      await file.handle.close().catch(() => undefined);
      throw err;
    }
    try {
      let input: Buffer;
      try {
        input = await readImage(file.handle, this.limits);
      } finally {
        await file.handle.close().catch(() => undefined);
      }
      const bytes = await makeThumbnail(input, this.limits);
      return { bytes, tag: digestTag(createHash('sha256').update(bytes).digest()) };
    } finally {
      this.release();
    }
  }

  private slot(): Promise<void> {
    if (this.running < THUMB_CONCURRENCY) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= THUMB_QUEUE) return Promise.reject(new ThumbnailBusy(`${THUMB_QUEUE} thumbnails are waiting to be made`));
    return new Promise((go) => this.waiting.push(go)); // the slot passes from release()
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  /** Keeps the failure of `key` (as a refusal: a file that cannot be decoded is bad input too). */
  private remember(key: string, err: Error): ThumbnailRefused {
    if (this.failed.size >= FAILURES_KEPT) this.failed.delete(this.failed.keys().next().value as string);
    const refused = err instanceof ThumbnailRefused ? err : new ThumbnailRefused(whyNoThumbnail(err));
    this.failed.set(key, refused);
    return refused;
  }

  private account(key: string, size: number): void {
    if (!this.made.has(key) || this.sizes.has(key)) return;
    this.sizes.set(key, size);
    this.bytes += size;
    for (const old of this.made.keys()) {
      if (this.bytes <= this.budget || old === key) break;
      const s = this.sizes.get(old);
      if (s === undefined) continue; // still being made
      this.made.delete(old);
      this.sizes.delete(old);
      this.bytes -= s;
    }
  }
}
