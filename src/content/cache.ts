// Per-file memo for the incremental loader: a file's read+parse result is reused while its path,
// mtime and size are unchanged, so a reload after one edit re-reads only that file.
import type { FileInfo } from './files.js';

interface Slot {
  readonly mtimeMs: number;
  readonly size: number;
  readonly value: Promise<unknown>;
}

export class FileCache {
  private slots = new Map<string, Slot>();
  private used = new Set<string>();

  /** The cached result for `file`, or `compute()` when the file is new or changed. */
  get<T>(kind: string, file: FileInfo, compute: () => Promise<T>): Promise<T> {
    const key = `${kind}\0${file.abs}`;
    this.used.add(key);
    const slot = this.slots.get(key);
    if (slot && slot.mtimeMs === file.mtimeMs && slot.size === file.size) return slot.value as Promise<T>;
    const value = compute();
    this.slots.set(key, { mtimeMs: file.mtimeMs, size: file.size, value });
    // A failed read is not remembered: the next load tries again.
    value.catch(() => this.slots.delete(key));
    return value;
  }

  /** Forgets files that the last load did not ask for (deleted or renamed). */
  sweep(): void {
    for (const key of this.slots.keys()) if (!this.used.has(key)) this.slots.delete(key);
    this.used = new Set();
  }
}

/** Runs `fn` over `items` with at most `limit` calls in flight; results keep the input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
