// Whether a content tree is within the limits of a load in the calling thread (SMALL_TREE,
// src/node/thresholds.ts; above them it loads in the load process: src/node/load-path.ts).
// Counting stops as soon as a limit is passed, so asking about a large tree costs a few folders'
// listing, not a walk of all of it. Synchronous, as the loader's own listing (files.ts): a walk of
// promises took ~5 ms for the 98-file sample.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { SMALL_TREE, type TreeLimits } from '../thresholds.js';

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
