// Whether a content tree is within the limits of a load in the calling thread (SMALL_TREE,
// src/node/thresholds.ts; above them it loads in the load process: src/node/load-path.ts).
// Counting stops as soon as a limit is passed, so asking about a large tree costs a few folders'
// listing, not a walk of all of it, and files are sized only once their count is within the
// limit. Synchronous, as the loader's own listing (files.ts): a walk of promises took ~5 ms for
// the sample (then 98 files).
import { opendirSync, statSync, type Dir, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { SMALL_TREE, type TreeLimits } from '../thresholds.js';

const PARSED = /\.(md|markdown|ya?ml|json)$/i;

/** True when `root` holds at most `limits` (an unreadable folder counts as empty: the loader reports it). */
export async function isSmallTree(root: string, limits: TreeLimits = SMALL_TREE): Promise<boolean> {
  // Counted first and sized after: a large tree is told by its count alone, without a stat per file.
  const parsed: string[] = [];
  let files = 0;
  const folders = [root];
  while (folders.length > 0) {
    const folder = folders.pop() as string;
    // Read entry by entry: a folder of 10,000 entries is told after its first 2,001.
    let dir: Dir;
    try {
      dir = opendirSync(folder, { bufferSize: 256 });
    } catch {
      continue;
    }
    try {
      for (let entry = readEntry(dir); entry; entry = readEntry(dir)) {
        // The loader skips these (see files.ts): they do not count either.
        if (entry.name.startsWith('.') || (entry.name.startsWith('_') && entry.isDirectory())) continue;
        const path = join(folder, entry.name);
        if (entry.isDirectory()) {
          folders.push(path);
          continue;
        }
        if (++files > limits.files) return false;
        if (PARSED.test(entry.name)) parsed.push(path);
      }
    } finally {
      dir.closeSync();
    }
  }
  let bytes = 0;
  for (const path of parsed) {
    bytes += sizeOf(path);
    if (bytes > limits.bytes) return false;
  }
  return true;
}

/** The next entry, or null at the end or when the folder cannot be read further (the loader reports it). */
function readEntry(dir: Dir): Dirent | null {
  try {
    return dir.readSync();
  } catch {
    return null;
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // gone meanwhile, or unreadable: the loader reports it
  }
}
