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
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';

type Kind = 'tmp' | 'old';

/** `<out>.tmp-<pid>-<hex>` / `<out>.old-<pid>-<hex>`: the pid says whose it is. */
export function siblingName(out: string, kind: Kind, suffix: string): string {
  return join(dirname(out), `${basename(out)}.${kind}-${process.pid}-${suffix}`);
}

export function newSuffix(): string {
  return randomBytes(6).toString('hex');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether process `pid` may still be writing (this process counts: a build may be in flight). */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

interface Leftover {
  readonly kind: Kind;
  readonly path: string;
  readonly changed: number;
}

/** The temp and old dirs of builds that were killed: our exact pattern, directories, owner gone. */
async function leftovers(out: string): Promise<Leftover[]> {
  const pattern = new RegExp(`^${escapeRegExp(basename(out))}\\.(tmp|old)-(\\d{1,10})-[0-9a-f]{12}$`);
  const names = await fsp.readdir(dirname(out)).catch(() => [] as string[]);
  const found: Leftover[] = [];
  for (const name of names) {
    const m = pattern.exec(name);
    if (!m || alive(Number(m[2]))) continue;
    const path = join(dirname(out), name);
    const info = await fsp.lstat(path).catch(() => null);
    if (info?.isDirectory()) found.push({ kind: m[1] as Kind, path, changed: info.ctimeMs });
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
