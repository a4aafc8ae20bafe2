// created_at/updated_at of entries that set none, from git: a file's first and last commit times,
// which every clone of the same commit agrees on (file modification times are the checkout's).
// One `git log` for the whole content folder, parsed as it streams, plus one `git diff` for the
// files changed since the last commit: two processes whatever the size of the tree, run side by
// side (a cold start waits for the slower of the two, not for both: docs/performance.md#start-up).
// Their answer is kept for the next load of the same tree in this process, and holds while HEAD
// has not moved and no committed file has changed (docs/performance.md#gits-answer-kept).
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { FileInfo } from './files.js';
import { outsideWorkTree, repoState, type RepoState } from './git-repo.js';

export type TimestampSource = 'git' | 'mtime';
export const TIMESTAMP_CHOICES: readonly TimestampSource[] = ['git', 'mtime'];

export interface CommitTimes {
  /** Milliseconds since the epoch of the file's first commit. */
  readonly created: number;
  /** …and of its last commit. */
  readonly updated: number;
}

export interface GitTimes {
  /** By path relative to the content root, '/'-separated. */
  readonly times: ReadonlyMap<string, CommitTimes>;
  /** Committed files with changes since (staged or not): their commit times would be stale. */
  readonly changed: ReadonlySet<string>;
  /** The repository as it was when git was asked (git-repo.ts), when it could be read without git. */
  readonly state?: RepoState;
  /** When git was asked which files changed (Date.now()). */
  readonly asked?: number;
  /**
   * Set when the answer was kept from an earlier load: `changed` holds only while every committed
   * file is as listed then (confirmGitTimes()).
   */
  readonly stamps?: ReadonlyMap<string, string>;
}

/** An answer kept for a later load: in this process, and in the parse cache between runs. */
export interface KeptGitTimes {
  readonly state: RepoState;
  readonly times: ReadonlyMap<string, CommitTimes>;
  readonly changed: ReadonlySet<string>;
  /** Each committed file as listed when git was asked (stamp()); absent: not in the tree then. */
  readonly stamps: ReadonlyMap<string, string>;
}

/** Where a kept answer outlives the process (`.cqa-cache/`, parse-cache.ts). */
export interface GitTimesStore {
  readonly kept: KeptGitTimes | undefined;
  keep(kept: KeptGitTimes): void;
}

/** Marks a commit's time in the log, so it cannot be taken for a file name. */
const COMMIT = '\x01';

/**
 * The commit times of every file ever committed under `root`, or undefined when `root` is not
 * inside a git work tree or git cannot run (not installed, a repository it refuses to read). The
 * answer may be one kept from an earlier load: confirmGitTimes() with this load's listing says.
 */
export async function readGitTimes(root: string, store?: GitTimesStore): Promise<GitTimes | undefined> {
  if (outsideWorkTree(root)) return undefined;
  const state = repoState(root);
  const kept = state && [keptByRoot.get(root), store?.kept].find((k) => k?.state.history === state.history);
  // The same history: the log holds. What changed holds while the index and the files are as they were.
  if (kept && kept.state.index === state?.index) return kept;
  if (kept) return askChanged(root, state, kept.times);
  const times = new Map<string, { created: number; updated: number }>();
  let at: number | undefined;
  const since = Date.now();
  // Started with the log; its answer counts only when the log found commits (see below).
  const diffing = changedFiles(root);
  const logged = await gitLines(
    root,
    ['log', '-z', `--format=${COMMIT}%ct`, '--name-only', '--no-renames', '--relative', '--', '.'],
    (token) => {
      // A commit is `\x01<seconds>`; the first file after it starts with the newline git puts there.
      if (token.startsWith(COMMIT)) {
        at = Number(token.slice(1)) * 1000;
        return;
      }
      const rel = token.startsWith('\n') ? token.slice(1) : token;
      if (rel === '' || at === undefined) return;
      const seen = times.get(rel);
      if (!seen) times.set(rel, { created: at, updated: at });
      else {
        // Commit dates need not follow the log's order (rebases, clock skew): keep the extremes.
        if (at < seen.created) seen.created = at;
        if (at > seen.updated) seen.updated = at;
      }
    },
  );
  const changed = await diffing;
  // A repository with no commit yet: git log fails, yet every file is one not committed.
  if (!logged) return (await noCommitYet(root)) ? { times, changed: new Set() } : undefined;
  // A history that never touched this folder: nothing is committed here and there is nothing to compare.
  if (times.size === 0) return { times, changed: new Set() };
  if (!changed) return undefined;
  return { times, changed, asked: since, ...settled(root, state) };
}

/** `times`, with git asked now which files changed; undefined when git failed. */
async function askChanged(
  root: string,
  state: RepoState | undefined,
  times: ReadonlyMap<string, CommitTimes>,
): Promise<GitTimes | undefined> {
  const since = Date.now();
  const changed = await changedFiles(root);
  return changed && { times, changed, asked: since, ...settled(root, state) };
}

/** The committed files under `root` with changes since HEAD (staged or not); undefined when git failed. */
async function changedFiles(root: string): Promise<Set<string> | undefined> {
  const changed = new Set<string>();
  const ok = await gitLines(root, ['diff', '-z', '--name-only', '--no-renames', '--relative', 'HEAD', '--', '.'], (rel) => {
    if (rel !== '') changed.add(rel);
  });
  return ok ? changed : undefined;
}

/**
 * `{ state }` when the repository is still in `state` after git ran: else what git said is not
 * kept. (`git diff` rewrites the index when its record of the files' times is stale, after a
 * clone or a checkout: then the next load asks again.)
 */
function settled(root: string, state: RepoState | undefined): { state?: RepoState } {
  const now = state && repoState(root);
  return now && now.history === state.history && now.index === state.index ? { state } : {};
}

// What git said, by content root, for the next load: bounded (a long-lived process, a test suite,
// may load many trees).
const keptByRoot = new Map<string, KeptGitTimes>();
const KEPT_ROOTS = 16;
/** A file changed this close before git was asked may have been read by git before or after the change: not kept. */
const RACY_MS = 2000;

/** What tells a file changed, as git's own index does: its times, size and inode (ctime is set by the system alone). */
function stamp(file: FileInfo | undefined): string | undefined {
  if (file?.ctimeMs === undefined || file.ino === undefined || file.target !== undefined) return undefined;
  return `${file.mtimeMs}:${file.ctimeMs}:${file.size}:${file.ino}`;
}

/**
 * `git` checked against the tree as listed now. A kept answer whose committed files all have the
 * stamps they had is still true; otherwise git is asked again which files changed (the log holds
 * while the history is the same). An answer is kept for later loads when every committed file can
 * be stamped and none changed within RACY_MS before git was asked.
 */
export async function confirmGitTimes(
  root: string,
  git: GitTimes,
  listing: ReadonlyMap<string, FileInfo>,
  store?: GitTimesStore,
): Promise<GitTimes | undefined> {
  const answer = git.stamps && !sameFiles(git.times, git.stamps, listing) ? await askChanged(root, repoState(root), git.times) : git;
  const kept = answer && keepable(answer, listing);
  if (kept) {
    if (keptByRoot.size >= KEPT_ROOTS && !keptByRoot.has(root)) keptByRoot.clear();
    keptByRoot.set(root, kept);
    if (store?.kept !== kept) store?.keep(kept);
  } else keptByRoot.delete(root);
  return answer;
}

function sameFiles(
  times: ReadonlyMap<string, CommitTimes>,
  stamps: ReadonlyMap<string, string>,
  listing: ReadonlyMap<string, FileInfo>,
): boolean {
  for (const rel of times.keys()) {
    const now = listing.get(rel);
    if (now === undefined ? stamps.has(rel) : stamp(now) === undefined || stamp(now) !== stamps.get(rel)) return false;
  }
  return true;
}

/** `git` as it can be kept (itself, when it was kept already), or undefined. */
function keepable(git: GitTimes, listing: ReadonlyMap<string, FileInfo>): KeptGitTimes | undefined {
  if (git.stamps && git.state) return git as KeptGitTimes;
  if (!git.state || git.asked === undefined) return undefined;
  const before = git.asked - RACY_MS;
  const stamps = new Map<string, string>();
  for (const rel of git.times.keys()) {
    const file = listing.get(rel);
    if (file === undefined) continue;
    const s = stamp(file);
    if (s === undefined || file.mtimeMs >= before || (file.ctimeMs as number) >= before) return undefined;
    stamps.set(rel, s);
  }
  return { state: git.state, times: git.times, changed: git.changed, stamps };
}

/**
 * Of `rels` (paths relative to `root`), those committed and now the same as at HEAD: an edit
 * undone (`git restore`, an editor's undo) leaves no change for git, and moves no HEAD.
 */
export async function cleanAmong(root: string, rels: readonly string[]): Promise<string[]> {
  const tracked = new Set<string>();
  const changed = new Set<string>();
  // Named one by one, or for many (a command line has a limit) the whole folder, then picked.
  const paths = ['--', ...(rels.length <= 256 ? rels.map((rel) => `:(literal)${rel}`) : ['.'])];
  const asked = new Set(rels);
  const [listed, diffed] = await Promise.all([
    gitLines(root, ['ls-files', '-z', ...paths], (rel) => tracked.add(rel)),
    gitLines(root, ['diff', '-z', '--name-only', '--no-renames', '--relative', 'HEAD', ...paths], (rel) => changed.add(rel)),
  ]);
  return listed && diffed ? [...tracked].filter((rel) => asked.has(rel) && !changed.has(rel)) : [];
}

/** Whether `root` is in a git work tree whose HEAD names no commit yet (after `git init`). */
async function noCommitYet(root: string): Promise<boolean> {
  const said: string[] = [];
  // Exits 1 once --verify finds no HEAD, after printing whether this is a work tree.
  const headFound = await gitLines(root, ['rev-parse', '--is-inside-work-tree', '--verify', '-q', 'HEAD'], (t) => said.push(t));
  return !headFound && said.join('').trim() === 'true';
}

/** Runs git in `root`, calling `onToken` for each NUL-separated token of its output; false when git failed (what it said is then no answer). */
function gitLines(root: string, args: readonly string[], onToken: (token: string) => void): Promise<boolean> {
  return new Promise((resolve) => {
    let child: ChildProcessByStdio<null, Readable, null>;
    try {
      // core.quotepath off is moot with -z; no pager, no prompts, no user config that changes the output format.
      child = spawn('git', ['-c', 'log.showSignature=false', '-c', 'diff.external=', ...args], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { ...process.env, GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
      });
    } catch {
      resolve(false);
      return;
    }
    let rest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const tokens = (rest + chunk).split('\0');
      rest = tokens.pop() as string;
      for (const t of tokens) onToken(t);
    });
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      if (rest !== '') onToken(rest); // also on failure: a caller that asks may want what git said
      resolve(code === 0);
    });
  });
}
