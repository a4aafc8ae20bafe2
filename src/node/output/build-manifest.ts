// Whether a folder holds a tree `cqa build` wrote: its manifest.json (dist.ts manifestJson) names
// the package and the snapshot. A web app's public/ has a manifest.json of its own.
import { lstatSync, readFileSync } from 'node:fs';

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

/** What a build wrote besides its manifest (dist.ts writeTree): every other regular file, and their bytes. */
export interface BuiltTree {
  readonly files: number;
  readonly bytes: number;
}

/** The `tree` a build's manifest records, or undefined (none: a build of an earlier version). */
export function builtTree(file: string): BuiltTree | undefined {
  try {
    const tree = (JSON.parse(readFileSync(file, 'utf8')) as { tree?: Partial<BuiltTree> }).tree;
    return Number.isSafeInteger(tree?.files) && Number.isSafeInteger(tree?.bytes) ? (tree as BuiltTree) : undefined;
  } catch {
    return undefined;
  }
}
