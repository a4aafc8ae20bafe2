// Which times an entry without created_at/updated_at gets (`--timestamps git|mtime`, LoadOptions
// .timestamps): its file's commit times inside a git work tree, else its modification time. A file
// with changes not committed falls back to its mtime, and the load says how many did.
import type { FileInfo } from './files.js';
import { confirmGitTimes, readGitTimes, type CommitTimes, type GitTimes, type GitTimesStore, type TimestampSource } from './git-times.js';
import type { IssueList } from './issues.js';

export class EntryTimes {
  private readonly uncommitted = new Set<string>();

  private constructor(private readonly git: GitTimes | undefined) {}

  /**
   * `source` undefined: git when `root` is inside a git work tree, else mtime. An explicit `git`
   * outside one is an error (reported on `issues`), and the load goes on with mtimes. `listing`:
   * the tree as listed by this load (what git said before is checked against it); `store`: where
   * git's answer is kept between runs (the parse cache).
   */
  static async open(
    root: string,
    source: TimestampSource | undefined,
    issues: IssueList,
    listing: ReadonlyMap<string, FileInfo>,
    started?: Promise<GitTimes | undefined>,
    store?: GitTimesStore,
  ): Promise<EntryTimes> {
    if (source === 'mtime') return new EntryTimes(undefined);
    const read = await (started ?? EntryTimes.readGit(root, source, store));
    const git = read && (await confirmGitTimes(root, read, listing, store));
    if (!git && source === 'git') {
      issues.error(
        root,
        '--timestamps git: the content folder is not inside a git work tree (or git could not be run); commit the content to a git repository, or use --timestamps mtime',
      );
    }
    return new EntryTimes(git);
  }

  /**
   * Starts reading git for open() (nothing with `mtime`): git runs in processes of its own, so a
   * load starts it before listing the tree and takes its answer after.
   */
  static readGit(root: string, source: TimestampSource | undefined, store?: GitTimesStore): Promise<GitTimes | undefined> | undefined {
    return source === 'mtime' ? undefined : readGitTimes(root, store);
  }

  /**
   * The same commit times with the files at or under `paths` (relative to the content root,
   * '/'-separated) taken as changed: what `cqa serve --watch` uses after an edit, instead of
   * running git again on every reload (44 ms at 10,000 files).
   */
  edited(paths: readonly string[]): EntryTimes {
    if (!this.git || paths.length === 0) return new EntryTimes(this.git);
    const changed = new Set(this.git.changed);
    for (const rel of this.git.times.keys()) {
      if (paths.some((p) => p === '' || p === '.' || rel === p || rel.startsWith(p.endsWith('/') ? p : `${p}/`))) changed.add(rel);
    }
    return new EntryTimes({ times: this.git.times, changed });
  }

  /** The times an entry of `file` gets when it sets none. */
  readonly of = (file: FileInfo): CommitTimes => {
    if (this.git) {
      const committed = this.git.times.get(file.rel);
      if (committed && !this.git.changed.has(file.rel)) return committed;
      this.uncommitted.add(file.rel);
    }
    return { created: file.mtimeMs, updated: file.mtimeMs };
  };

  /** One warning naming how many entry files fell back to their mtime (none: nothing said). */
  report(issues: IssueList): void {
    const n = this.uncommitted.size;
    if (n === 0) return;
    // Named after the first such file, so the warning points somewhere an author can open.
    const [first] = [...this.uncommitted].sort();
    issues.warn(
      first as string,
      `${n === 1 ? 'this entry file has' : `this and ${n - 1} other entry file${n === 2 ? '' : 's'} (${n} in all) have`} changes not committed to git: ${n === 1 ? 'its' : 'their'} created_at/updated_at (where the file sets none) come from the modification time, so this build is not reproducible; commit ${n === 1 ? 'it' : 'them'}, or pass --timestamps mtime`,
    );
  }
}
