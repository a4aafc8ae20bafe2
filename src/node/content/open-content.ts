// Opening a listed content file, checked at the moment it is opened. The listing (files.ts) looked
// at each path with lstat, but the path can be swapped for a symbolic link (to a .env elsewhere,
// to project.yaml) before it is read. So the file is opened without following a final link unless
// the listing said it is one, and what was opened must be, right now, a regular file at exactly
// the place the listing expected: `rel` itself, or the link's listed `target`.
import { closeSync, constants, fstatSync, openSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { FileProblem, NOT_REGULAR } from './file-problem.js';

/** What the listing said about a file: where it is and, for a link, where it leads. */
export interface ListedFile {
  readonly abs: string;
  /** Relative to the content root, '/'-separated. */
  readonly rel: string;
  /** Set when the listing found a symbolic link: its target, relative to the content root. */
  readonly target?: string | undefined;
  /** The device and inode the listing saw at `rel` (a regular file, not a link). */
  readonly dev?: number | undefined;
  readonly ino?: number | undefined;
}

export interface OpenedContent {
  readonly fd: number;
  readonly stats: Stats;
}

export const MOVED =
  'changed while it was read (it is now a symbolic link, or in a folder that was replaced): not read; save it again as a regular file inside the content folder';

// O_NONBLOCK: opening a FIFO waits for a writer otherwise (it is refused below as not a file).
const BASE_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
// Where O_NOFOLLOW does not exist (Windows), the real-path check below still refuses a link.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Opens a listed file; throws FileProblem when it is not what the listing said. Close the fd. */
export function openListed(file: ListedFile): OpenedContent {
  let fd: number;
  try {
    fd = openSync(file.abs, BASE_FLAGS | (file.target === undefined ? NO_FOLLOW : 0));
  } catch (err) {
    // ELOOP: the final component became a symbolic link since the listing.
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new FileProblem(MOVED);
    throw err;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new FileProblem(NOT_REGULAR);
    // The very file the listing saw inside the tree (same device and inode, found by lstat without
    // following links): wherever a swapped folder led the open, nothing else was opened. Any other
    // file is checked by where it is. Saves a readlink per file (docs/benchmarks.md).
    if (file.ino !== undefined && file.target === undefined && stats.ino === file.ino && stats.dev === file.dev) return { fd, stats };
    const expected = file.target ?? file.rel;
    if (openedPath(fd, file.abs, stats, realRoot(rootOf(file))) !== expected) throw new FileProblem(MOVED);
    return { fd, stats };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** The content root: `abs` minus `rel` (every listed path is the root joined with its rel). */
function rootOf(file: ListedFile): string {
  const tail = sep + (sep === '/' ? file.rel : file.rel.split('/').join(sep));
  if (!file.abs.endsWith(tail)) throw new FileProblem(`internal: ${file.abs} does not end with ${file.rel}`);
  return file.abs.slice(0, -tail.length) || sep;
}

// The root's real path, resolved once per root and process: a root later replaced by a link does
// not move what is read. Bounded (a long-lived process may load many roots, e.g. tests).
const realRoots = new Map<string, string>();

function realRoot(root: string): string {
  let real = realRoots.get(root);
  if (real === undefined) {
    real = realpathSync.native(root);
    if (realRoots.size >= 64) realRoots.clear();
    realRoots.set(root, real);
  }
  return real;
}

/**
 * Where the file open on `fd` really is, relative to `root`, '/'-separated; undefined when it is
 * outside. On Linux the kernel says it (/proc/self/fd: no race). Elsewhere the path is resolved
 * and the inode compared, since the path could be swapped again between open and realpath.
 */
function openedPath(fd: number, abs: string, opened: Stats, root: string): string | undefined {
  let real: string | undefined;
  if (process.platform === 'linux') {
    try {
      real = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      real = undefined; // no /proc: resolved below
    }
  }
  if (real === undefined || !isAbsolute(real)) {
    real = realpathSync.native(abs);
    const now = statSync(real);
    if (now.ino !== opened.ino || now.dev !== opened.dev) return undefined;
  }
  // The kernel's path is absolute and canonical: a prefix test is enough (path.relative is slow).
  if (sep === '/' && real.length > root.length + 1 && real.startsWith(root) && real[root.length] === '/' && root !== '/')
    return real.slice(root.length + 1);
  const rel = relative(root, resolve(real));
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return sep === '/' ? rel : rel.split(sep).join('/');
}
