// Replacing the output directory of `cqa build`, safely against a build killed at any moment.
//
// The new tree is written into `<out>.tmp-<pid>-<random>` beside `<out>`, then swapped in with two
// renames: `<out>` → `<out>.old-<pid>-<random>`, the temp dir → `<out>`. `<out>` stays a real
// directory (not a link to the newest build): it is what users upload, and tar, zip, rsync -a and
// many upload tools store a link as a link rather than the tree behind it. Without an atomic
// exchange of two directories in Node, a kill between the two renames leaves no `<out>` — only the
// complete previous tree under its `.old-` name. The next build (recoverOutput, which runs first)
// renames that back, and removes what killed builds left: only names of exactly this pattern,
// beside `<out>`, whose process is gone (a build still running in another process is left alone).
// `cqa pull` swaps `<out>/<project>` the same way, with the same names.
import { randomBytes } from 'node:crypto';
import { promises as fsp, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

type Kind = 'tmp' | 'old';

/** `<out>.tmp-<pid>-<hex>` / `<out>.old-<pid>-<hex>`: the pid says whose it is. */
export function siblingName(out: string, kind: Kind, suffix: string): string {
  return join(dirname(out), `${basename(out)}.${kind}-${process.pid}-${suffix}`);
}

/** The suffixes this process gave its own temp and old dirs (see alive()). */
const ownSuffixes = new Set<string>();

export function newSuffix(): string {
  const suffix = randomBytes(6).toString('hex');
  ownSuffixes.add(suffix);
  return suffix;
}

/** `<name>.tmp-<pid>-<hex>` / `<name>.old-<pid>-<hex>`: a folder of a build or pull in flight, or left by one that was killed. */
export const SWAP_FOLDER = /^(.+)\.(tmp|old)-(\d{1,10})-([0-9a-f]{12})$/;

/**
 * What Linux says of process `pid` (/proc/<pid>/stat): its state letter and when it started (ms
 * since the epoch, from its start in clock ticks after this process's own); undefined elsewhere,
 * or when /proc does not show it (another user's process under `hidepid`).
 */
function procStat(pid: number): { state: string; startMs: number } | undefined {
  const fields = (p: number | 'self') => {
    try {
      const text = readFileSync(`/proc/${p}/stat`, 'latin1');
      // `pid (command) state …`: the command may hold spaces and parentheses, so read after the last ')'.
      return text.slice(text.lastIndexOf(')') + 2).split(' ');
    } catch {
      return undefined;
    }
  };
  const other = fields(pid);
  const self = fields('self');
  if (!other || !self) return undefined;
  // Field 22, starttime, in clock ticks since boot: USER_HZ, which Linux fixes at 100 for /proc.
  const ticks = Number(other[19]) - Number(self[19]);
  return { state: other[0] ?? '', startMs: performance.timeOrigin + ticks * 10 };
}

/** Slack between a process's start as /proc gives it (10 ms ticks) and file times. */
const START_SLACK_MS = 1000;

/**
 * Whether process `pid`, named with `suffix` by a dir made at `made`, may still be writing it. This
 * process: only for a suffix it made (a container starts each run with the same pid, so a killed
 * run's dir can carry ours). Another pid that exists: on Linux, not when it is a zombie (killed and
 * not yet waited for by its parent, as a test harness or a supervisor leaves it: found from
 * outside, the next pull kept the killed pull's dir and `cqa check` then met the project twice),
 * nor when it started after the dir was made (the pid went to another process since).
 */
function alive(pid: number, suffix: string, made: number): boolean {
  if (pid === process.pid) return ownSuffixes.has(suffix);
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
  const stat = procStat(pid);
  if (!stat) return true;
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return stat.startMs <= made + START_SLACK_MS;
}

interface Leftover {
  readonly kind: Kind;
  readonly path: string;
  readonly changed: number;
}

/** The temp and old dirs of builds that were killed: our exact pattern, directories, owner gone. */
async function leftovers(out: string): Promise<Leftover[]> {
  const base = basename(out);
  const names = await fsp.readdir(dirname(out)).catch(() => [] as string[]);
  const found: Leftover[] = [];
  for (const name of names) {
    const m = SWAP_FOLDER.exec(name);
    if (!m || m[1] !== base) continue;
    const path = join(dirname(out), name);
    const info = await fsp.lstat(path).catch(() => null);
    if (!info?.isDirectory()) continue;
    // When it was made: its birth time where the file system keeps one, else its oldest time.
    const made = Math.min(info.birthtimeMs > 0 ? info.birthtimeMs : Number.POSITIVE_INFINITY, info.mtimeMs, info.ctimeMs);
    if (!alive(Number(m[3]), m[4] as string, made)) found.push({ kind: m[2] as Kind, path, changed: info.ctimeMs });
  }
  return found;
}

/**
 * Undoes what a killed build left beside `out`: when `out` is missing but a previous tree was
 * moved aside (killed between the two renames of the swap), renames it back; then removes the
 * other temp and old dirs of killed builds. Returns whether a tree was restored.
 */
export async function recoverOutput(out: string): Promise<boolean> {
  if (dirname(out) === out) return false;
  const found = await leftovers(out);
  const present = await fsp.lstat(out).then(
    () => true,
    () => false,
  );
  // Only one can exist unless builds raced; then the newest moved-aside tree is the last good one.
  const restore = present ? undefined : found.filter((l) => l.kind === 'old').sort((a, b) => b.changed - a.changed)[0];
  if (restore) await fsp.rename(restore.path, out);
  for (const l of found) if (l !== restore) await fsp.rm(l.path, { recursive: true, force: true }).catch(() => undefined);
  return restore !== undefined;
}

/**
 * Test hook: `CQA_TEST_KILL_AT=<step>` makes the build SIGKILL itself at that step of the swap, so a
 * test can check what a kill there leaves. Steps: written, moved-aside, swapped.
 */
function killPoint(step: string): void {
  if (process.env.CQA_TEST_KILL_AT === step) process.kill(process.pid, 'SIGKILL');
}

/** Moves `tmp` to `out`, replacing a previous tree; on failure the previous tree is put back. */
export async function swapIn(tmp: string, out: string, suffix: string): Promise<void> {
  killPoint('written');
  const old = siblingName(out, 'old', suffix);
  let moved = false;
  try {
    await fsp.rename(out, old);
    moved = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  killPoint('moved-aside');
  try {
    await fsp.rename(tmp, out);
  } catch (err) {
    if (moved) await fsp.rename(old, out).catch(() => undefined);
    throw err;
  }
  killPoint('swapped');
  // The new tree is in place: a previous tree that cannot be removed now goes at the next build.
  if (moved) await fsp.rm(old, { recursive: true, force: true }).catch(() => undefined);
}
