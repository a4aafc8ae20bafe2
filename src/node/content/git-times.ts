// created_at/updated_at of entries that set none, from git: a file's first and last commit times,
// which every clone of the same commit agrees on (file modification times are the checkout's).
// One `git log` for the whole content folder, parsed as it streams, plus one `git diff` for the
// files changed since the last commit: two processes whatever the size of the tree, run side by
// side (a cold start waits for the slower of the two, not for both: docs/performance.md#start-up).
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

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
}

/** Marks a commit's time in the log, so it cannot be taken for a file name. */
const COMMIT = '\x01';

/**
 * The commit times of every file ever committed under `root`, or undefined when `root` is not
 * inside a git work tree or git cannot run (not installed, a repository it refuses to read).
 */
export async function readGitTimes(root: string): Promise<GitTimes | undefined> {
  const times = new Map<string, { created: number; updated: number }>();
  let at: number | undefined;
  const changed = new Set<string>();
  // Started with the log; its answer counts only when the log found commits (see below).
  const diffing = gitLines(root, ['diff', '-z', '--name-only', '--no-renames', '--relative', 'HEAD', '--', '.'], (rel) => {
    if (rel !== '') changed.add(rel);
  });
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
  const diffed = await diffing;
  if (!logged) return undefined;
  // An empty repository has no HEAD (the diff fails): then nothing is committed and there is nothing to compare.
  if (times.size === 0) return { times, changed: new Set() };
  if (!diffed) return undefined;
  return { times, changed };
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

/** Runs git in `root`, calling `onToken` for each NUL-separated token of its output; false when git failed. */
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
      if (code === 0 && rest !== '') onToken(rest);
      resolve(code === 0);
    });
  });
}
