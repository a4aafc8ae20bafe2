// Per-file memo for the incremental loader: a file's read+parse result is reused while its path,
// mtime and size are unchanged, so a reload after one edit re-reads only that file.
import { sep } from 'node:path';
import type { FileInfo } from './files.js';

interface Slot<T> {
  readonly mtimeMs: number;
  readonly size: number;
  readonly value: T;
  /** The load that last used this slot; older slots are dropped by sweep(). */
  generation: number;
}

export class FileCache<T> {
  private readonly slots = new Map<string, Slot<T>>();
  private generation = 0;

  /** `keep`: false for a loader that loads once, which asks for each file once (nothing kept). */
  constructor(private readonly keep = true) {}

  /** The cached result for `file`, or `compute()` when the file is new or changed. */
  get(file: FileInfo, compute: () => T): T {
    if (!this.keep) return compute();
    const slot = this.slots.get(file.abs);
    if (slot && slot.mtimeMs === file.mtimeMs && slot.size === file.size) {
      slot.generation = this.generation;
      return slot.value;
    }
    const value = compute();
    this.slots.set(file.abs, { mtimeMs: file.mtimeMs, size: file.size, value, generation: this.generation });
    return value;
  }

  /** Whether there is a result for `file` as it is now. */
  holds(file: FileInfo): boolean {
    const slot = this.slots.get(file.abs);
    return slot !== undefined && slot.mtimeMs === file.mtimeMs && slot.size === file.size;
  }

  /** Forgets one file's result (e.g. a failed read), so the next load tries again. */
  forget(file: FileInfo): void {
    this.slots.delete(file.abs);
  }

  /** Forgets `path` and everything under it (a watcher said it changed, whatever its mtime says). */
  forgetPath(path: string): void {
    this.slots.delete(path);
    const prefix = `${path}${sep}`;
    for (const key of this.slots.keys()) if (key.startsWith(prefix)) this.slots.delete(key);
  }

  /** Forgets what the last load did not ask for (deleted or renamed files); starts the next load. */
  sweep(): void {
    for (const [key, slot] of this.slots) if (slot.generation !== this.generation) this.slots.delete(key);
    this.generation++;
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
