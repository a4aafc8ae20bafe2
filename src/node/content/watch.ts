// Watches a content tree for `serve --watch`: one non-recursive fs.watch (inotify / FSEvents /
// ReadDirectoryChangesW) per directory. A content tree has few directories and many files, so this
// is cheap; Node 20's recursive mode on Linux instead rescans a whole directory (10,000 entries)
// on every event, and chokidar's change filter drops rapid same-file edits. Raw events are
// passed on unfiltered: the incremental loader decides by mtime and size what really changed.
import { lstatSync, watch, type FSWatcher, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

const IGNORED = new Set(['.git', 'node_modules']);

export interface ContentWatcher {
  close(): Promise<void>;
}

/**
 * Calls `onChange(absolutePath)` for every change under `root`, or `onChange(undefined)` when
 * directories came or went (then the whole tree should be listed again).
 */
export function watchContent(root: string, onChange: (path: string | undefined) => void, onError: (err: unknown) => void): ContentWatcher {
  const watchers = new Map<string, FSWatcher>();

  const unwatch = (dir: string) => {
    for (const [path, w] of watchers) {
      if (path === dir || path.startsWith(`${dir}${sep}`)) {
        w.close();
        watchers.delete(path);
      }
    }
  };

  const add = (dir: string) => {
    if (watchers.has(dir)) return;
    let subdirs: string[];
    try {
      const w = watch(dir, (_event, name) => {
        if (name === null || name === undefined) return onChange(undefined);
        const path = join(dir, name.toString());
        if (watchers.has(path) || isDirectory(path)) {
          // A directory appeared, vanished or was renamed: rewatch it and relist the tree.
          unwatch(path);
          if (isDirectory(path)) add(path);
          onChange(undefined);
        } else {
          onChange(path);
        }
      });
      w.on('error', (err) => {
        // The directory was removed: its parent reports that; anything else is worth a line.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'EPERM') onError(err);
        unwatch(dir);
      });
      watchers.set(dir, w);
      subdirs = readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && !IGNORED.has(d.name))
        .map((d) => join(dir, d.name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') onError(err);
      return;
    }
    for (const sub of subdirs) add(sub);
  };

  add(root);
  // A folder swapped in at the root's path (`mv content content.old && mv new content`, a deploy
  // tool's rename) sends no event: the watchers follow the old folder. Its inode, looked at once
  // a second, tells.
  let rootId = folderId(root);
  const poll = setInterval(() => {
    const now = folderId(root);
    if (now === rootId) return;
    rootId = now;
    unwatch(root);
    if (now !== undefined) add(root);
    onChange(undefined);
  }, ROOT_POLL_MS);
  poll.unref();
  return {
    close: async () => {
      clearInterval(poll);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}

const ROOT_POLL_MS = 1000;

/** The device and inode of the folder at `path` (a link followed: the root may be one), or undefined. */
function folderId(path: string): string | undefined {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    return s?.isDirectory() ? `${s.dev}:${s.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A directory itself, not a link to one: a link's target is outside what is watched (the loader
 * refuses a link to a folder), and following one could walk `/` or loop. Never throws: it runs in
 * fs.watch callbacks, where an error (ELOOP, EACCES) would end the process.
 */
function isDirectory(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/**
 * Calls `onMove()` when git's HEAD moves (a commit, checkout, reset, merge): the entries' commit
 * times change then while their files may not. git locks HEAD (`HEAD.lock`) for each move and
 * appends to `logs/HEAD`; both folders are watched, not recursively.
 */
export function watchGitHead(gitDir: string, onMove: () => void): ContentWatcher {
  const watchers: FSWatcher[] = [];
  for (const dir of [gitDir, join(gitDir, 'logs')]) {
    try {
      const w = watch(dir, (_event, name) => {
        if (name === 'HEAD' || name === 'HEAD.lock') onMove();
      });
      w.on('error', () => w.close()); // the repository went away: the content's own watcher says what matters
      watchers.push(w);
    } catch {
      // no logs folder (before the first commit): HEAD.lock still tells
    }
  }
  return {
    close: async () => {
      for (const w of watchers) w.close();
    },
  };
}
