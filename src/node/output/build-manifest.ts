// Whether a folder holds a tree `cqa build` wrote, as it wrote it: its manifest.json (dist.ts
// manifestJson) names the package and the snapshot (a web app's public/ has a manifest.json of its
// own), and records the tree's files, which a rebuild checks before it replaces them.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The manifest a build writes, as far as the checks here read it (dist.ts manifestJson). */
export interface BuildManifest {
  readonly name: 'content-query-api';
  readonly snapshot: string;
  /** What the build wrote besides it; absent from the trees of earlier versions. */
  readonly tree?: BuiltTree;
}

/** `file` as a build's manifest: a regular file naming the package and a snapshot, else undefined. */
export function readBuildManifest(file: string): BuildManifest | undefined {
  try {
    const stat = lstatSync(file);
    // A build's manifest lists projects and collections: far below this, however large the tree.
    if (!stat.isFile() || stat.size > 64 * 2 ** 20) return undefined;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; snapshot?: unknown; tree?: Partial<BuiltTree> } | null;
    if (manifest?.name !== 'content-query-api' || typeof manifest.snapshot !== 'string') return undefined;
    const { tree } = manifest;
    const recorded = Number.isSafeInteger(tree?.files) && Number.isSafeInteger(tree?.bytes) && typeof tree?.names_sha256 === 'string';
    return { name: manifest.name, snapshot: manifest.snapshot, ...(recorded ? { tree: tree as BuiltTree } : {}) };
  } catch {
    return undefined; // none, unreadable, or not JSON
  }
}

export const isBuildManifest = (file: string): boolean => readBuildManifest(file) !== undefined;

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
 * Why the tree at `out` is no longer as the build that wrote it left it (`then`, its manifest's
 * record), or undefined: a file added, removed or renamed (its names, count or bytes differ), or
 * one written after the manifest (edited, even to the same size). Found from outside: a rebuild
 * deleted what users put there.
 */
export function treeChange(out: string, then: BuiltTree): string | undefined {
  const manifest = join(out, MANIFEST);
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
