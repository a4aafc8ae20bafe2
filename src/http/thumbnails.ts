// Thumbnails for `cqa serve` (src/snapshot/thumbs.ts says which media items have one): made at
// the first request from the media file as opened and checked by open-file.ts, on libuv's thread
// pool (sharp), and kept in memory, least recently used first out, within a byte budget. The key
// is the file's identity (real path, size, mtime, inode), so an edited file gets a new thumbnail.
import { createHash } from 'node:crypto';
import { makeThumbnail } from '../snapshot/thumbnail.js';
import { digestTag } from './etag.js';
import type { OpenedFile } from './open-file.js';
import { fileTag } from './send-file.js';

export interface Thumbnail {
  readonly bytes: Buffer;
  /** A strong validator: the digest of the bytes. */
  readonly tag: string;
}

/** 32 MiB: about 500 thumbnails of 600 px high photos (40–80 KB as JPEG). */
export const THUMB_CACHE_BYTES = 32 * 1024 * 1024;

export class ThumbnailCache {
  private readonly made = new Map<string, Promise<Thumbnail>>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;

  constructor(private readonly budget = THUMB_CACHE_BYTES) {}

  /** The thumbnail of `file` (which it closes). Rejects when the file is not a readable image. */
  async get(file: OpenedFile): Promise<Thumbnail> {
    const key = `${file.real}\n${fileTag(file)}`;
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
      throw err;
    }
  }

  private async make(file: OpenedFile): Promise<Thumbnail> {
    let input: Buffer;
    try {
      input = await file.handle.readFile();
    } finally {
      await file.handle.close().catch(() => undefined);
    }
    const bytes = await makeThumbnail(input);
    return { bytes, tag: digestTag(createHash('sha256').update(bytes).digest()) };
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
