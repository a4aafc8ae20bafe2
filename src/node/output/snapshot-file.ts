// Snapshot → one portable file (`cqa build --snapshot`): the text of portable.ts, written
// atomically (a sibling temp file renamed over the target) and readable by its owner only. The file
// holds drafts and token hashes, so it is a secret: deploy it to the worker, never publish it.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { snapshotText } from '../../core/snapshot/portable.js';
import type { Snapshot } from '../../core/model/types.js';

export interface WriteSnapshotOptions {
  /** Where to write the snapshot file; replaced as a whole. */
  readonly file: string;
  /** Permission bits of the file (default 0o600: owner only). */
  readonly mode?: number;
}

export interface SnapshotFileResult {
  /** Absolute path of the written file. */
  readonly file: string;
  readonly bytes: number;
  /** The file is readable by every user of the machine (a mode that allows it, or a file system that ignores modes). */
  readonly worldReadable: boolean;
}

export async function writeSnapshot(snapshot: Snapshot, options: WriteSnapshotOptions): Promise<SnapshotFileResult> {
  const file = resolve(options.file);
  const mode = options.mode ?? 0o600;
  const text = snapshotText(snapshot);
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // 'wx': a fresh file, created with `mode` (narrowed by the umask) — never readable by others
    // in between; chmod then sets exactly `mode` whatever the umask.
    const handle = await fsp.open(temp, 'wx', mode);
    try {
      await handle.writeFile(text);
      await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await fsp.rename(temp, file);
  } catch (e) {
    await fsp.rm(temp, { force: true });
    throw e;
  }
  const stats = await fsp.stat(file);
  return { file, bytes: stats.size, worldReadable: (stats.mode & 0o004) !== 0 };
}
