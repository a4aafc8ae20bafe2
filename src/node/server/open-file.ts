// Opening a file to serve it, checked at the moment it is opened: what is sent must be a regular
// file inside the folder it is served from — even when the path was swapped for a symbolic link
// (to /etc/passwd, or to a folder elsewhere) after the content was validated. Checking the path
// before opening it would leave a window; so the file is opened first, and then the real path of
// what was opened is resolved and compared, inode included.
import { constants } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Stats } from 'node:fs';

export interface OpenedFile {
  readonly handle: FileHandle;
  readonly stats: Stats;
  /** Where the opened file really is, relative to the root's real path, '/'-separated. */
  readonly real: string;
}

/**
 * A served folder, pinned to its real path when first seen: a folder later replaced by a link
 * (`media/` → `/etc`) does not move what it serves. `realRoot` is undefined when the folder
 * could not be resolved (then nothing is served from it).
 */
export class ServedRoot {
  private real: Promise<string | undefined> | undefined;

  constructor(readonly path: string) {}

  realRoot(): Promise<string | undefined> {
    this.real ??= realpath(this.path).catch(() => undefined);
    return this.real;
  }
}

/** Roots by path, so each folder is pinned once (bounded: a snapshot swap may bring new ones). */
export class ServedRoots {
  private readonly roots = new Map<string, ServedRoot>();

  get(path: string): ServedRoot {
    const key = resolve(path);
    let root = this.roots.get(key);
    if (!root) {
      if (this.roots.size >= 1024) this.roots.clear();
      root = new ServedRoot(key);
      this.roots.set(key, root);
      void root.realRoot(); // pin now, not at the first request
    }
    return root;
  }
}

// O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below as not a file).
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Opens `rel` (a '/'-separated path already free of `..` and NUL) under `root`, or returns null
 * when it does not exist, is not a regular file, or is not inside the root once opened.
 */
export async function openInside(root: ServedRoot, rel: string): Promise<OpenedFile | null> {
  const realRoot = await root.realRoot();
  if (realRoot === undefined) return null;
  const path = resolve(root.path, rel);
  let handle: FileHandle;
  try {
    handle = await open(path, FLAGS);
  } catch {
    return null;
  }
  try {
    const stats = await handle.stat();
    const real = stats.isFile() ? await realInside(path, stats, realRoot) : undefined;
    if (real !== undefined) return { handle, stats, real };
  } catch {
    /* vanished while checking: not found */
  }
  await handle.close().catch(() => undefined);
  return null;
}

/**
 * The path of the file opened at `path` (`opened` is its fstat) relative to `realRoot`, or
 * undefined when it is not, right now, a file inside `realRoot`.
 */
async function realInside(path: string, opened: Stats, realRoot: string): Promise<string | undefined> {
  const real = await realpath(path);
  const rel = relative(realRoot, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  // The path could have been swapped between open() and realpath(): the inode decides.
  const now = await stat(real);
  if (now.ino !== opened.ino || now.dev !== opened.dev) return undefined;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** Reads a whole file through openInside (the fetch adapter's default media reader). */
export async function readInside(root: ServedRoot, rel: string): Promise<Uint8Array | null> {
  const f = await openInside(root, rel);
  if (!f) return null;
  try {
    return new Uint8Array(await f.handle.readFile());
  } finally {
    await f.handle.close();
  }
}
