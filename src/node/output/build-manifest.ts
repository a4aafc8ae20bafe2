// Whether a folder holds a tree `cqa build` wrote: its manifest.json (dist.ts manifestJson) names
// the package and the snapshot. A web app's public/ has a manifest.json of its own.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Whether `file` is a regular file holding the manifest a build writes (manifestJson: name and snapshot). */
export function isBuildManifest(file: string): boolean {
  try {
    const stat = lstatSync(file);
    // A build's manifest lists projects and collections: far below this, however large the tree.
    if (!stat.isFile() || stat.size > 64 * 2 ** 20) return false;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; snapshot?: unknown } | null;
    return manifest?.name === 'content-query-api' && typeof manifest.snapshot === 'string';
  } catch {
    return false; // none, unreadable, or not JSON
  }
}

/** What a build wrote besides its manifest (dist.ts writeTree): every other file, their bytes, and a digest of their names. */
export interface BuiltTree {
  readonly files: number;
  readonly bytes: number;
  /** SHA-256 of the files' names ('/'-separated, sorted, one a line). */
  readonly names_sha256: string;
}

export const MANIFEST = 'manifest.json';
const LITTER = new Set(['.DS_Store', 'Thumbs.db']);

/** The record of a tree holding `names` (the manifest's aside), of `bytes` in all. */
export function treeRecord(names: readonly string[], bytes: number): BuiltTree {
  return { files: names.length, bytes, names_sha256: namesDigest(names) };
}

const namesDigest = (names: readonly string[]) =>
  createHash('sha256')
    .update([...names].sort().join('\n'))
    .digest('hex');

/**
 * Why the tree at `out` is no longer as the build that wrote it left it, or undefined: a file
 * added, removed or renamed (its names, count or bytes differ), or one written after the
 * manifest (edited, even to the same size). A tree whose manifest records nothing (an earlier
 * version's) is taken as it is. Found from outside: a rebuild deleted what users put there.
 */
export function treeChange(out: string): string | undefined {
  const manifest = join(out, MANIFEST);
  const then = builtTree(manifest);
  if (then === undefined) return undefined;
  const since = lstatSync(manifest).mtimeMs;
  const names: string[] = [];
  const newer: string[] = [];
  let bytes = 0;
  const walk = (dir: string, rel: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const name = `${rel}${d.name}`;
      if (LITTER.has(d.name) || (rel === '' && d.name.replace(/\.(gz|br)$/, '') === MANIFEST && d.isFile())) continue;
      if (d.isDirectory()) {
        walk(join(dir, d.name), `${name}/`);
        continue;
      }
      const stat = lstatSync(join(dir, d.name));
      names.push(name);
      bytes += stat.size;
      if (stat.mtimeMs > since) newer.push(name);
    }
  };
  walk(out, '');
  if (newer.length === 0 && names.length === then.files && bytes === then.bytes && namesDigest(names) === then.names_sha256)
    return undefined;
  const listed = (list: string[]) => list.slice(0, 5).join(', ') + (list.length > 5 ? ` and ${list.length - 5} more` : '');
  const what = newer.length > 0 ? `written after it: ${listed(newer)}` : 'a file was added, removed or renamed';
  return `it changed since cqa build wrote it (${what}; ${then.files} files of ${then.bytes} bytes then, ${names.length} of ${bytes} now), which replacing it would lose`;
}

/** The `tree` a build's manifest records, or undefined (none: a build of an earlier version). */
export function builtTree(file: string): BuiltTree | undefined {
  try {
    const tree = (JSON.parse(readFileSync(file, 'utf8')) as { tree?: Partial<BuiltTree> }).tree;
    return Number.isSafeInteger(tree?.files) && Number.isSafeInteger(tree?.bytes) && typeof tree?.names_sha256 === 'string'
      ? (tree as BuiltTree)
      : undefined;
  } catch {
    return undefined;
  }
}
