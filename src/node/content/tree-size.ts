// Whether a content tree is small enough to load in the calling thread. A worker costs a fixed
// start-up (its own isolate, the parsers' modules loaded again, the model copied back: ~40 ms idle,
// several times that on a busy machine) and pays off only in memory: the garbage of parsing a large
// tree stays resident in the thread that made it. Counting stops as soon as a limit is passed, so
// asking about a large tree costs a few folders' listing, not a walk of all of it. Synchronous, as
// the loader's own listing (files.ts): a walk of promises took ~5 ms for the 98-file sample.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

export interface TreeLimits {
  /** Files of any kind (entries, media, configuration). */
  readonly files: number;
  /** Bytes of the files that are parsed (Markdown, YAML, JSON); media is only probed. */
  readonly bytes: number;
}

/**
 * Measured on 2 shared, busy cores (loads of 250 to 10,000 generated Markdown entries, median of 5):
 * in the calling thread the load took half the time or less, and left 6–35 MiB more resident memory
 * than in a worker (the parsers' modules and their garbage). Above this, memory is what counts.
 */
export const SMALL_TREE: TreeLimits = { files: 2_000, bytes: 8 * 2 ** 20 };

const PARSED = /\.(md|markdown|ya?ml|json)$/i;

/** True when `root` holds at most `limits` (an unreadable folder counts as empty: the loader reports it). */
export async function isSmallTree(root: string, limits: TreeLimits = SMALL_TREE): Promise<boolean> {
  let files = 0;
  let bytes = 0;
  const folders = [root];
  while (folders.length > 0) {
    const folder = folders.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      // The loader skips these (see files.ts): they do not count either.
      if (entry.name.startsWith('.') || (entry.name.startsWith('_') && entry.isDirectory())) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        folders.push(path);
        continue;
      }
      if (++files > limits.files) return false;
      if (PARSED.test(entry.name)) {
        bytes += sizeOf(path);
        if (bytes > limits.bytes) return false;
      }
    }
  }
  return true;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // gone meanwhile, or unreadable: the loader reports it
  }
}
