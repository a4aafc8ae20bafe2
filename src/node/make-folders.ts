// `mkdir -p` for paths a user gives (`cqa init`, `--out`). Node's `mkdir(path, { recursive: true })`
// retries forever where the system answers ENOENT for a folder whose parent exists (`/proc/foo`),
// so the missing folders are made one at a time here and the first refusal is thrown.
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** Makes `path` and its missing parents; resolves to the first folder made, undefined when none was. */
export async function makeFolders(path: string): Promise<string | undefined> {
  const missing: string[] = [];
  for (let at = resolve(path); ; ) {
    const found = await stat(at).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (found) break; // a folder, or a file that the next mkdir reports (ENOTDIR, EEXIST)
    missing.push(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  missing.reverse();
  for (const folder of missing) {
    await mkdir(folder).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err; // made meanwhile by someone else
    });
  }
  return missing[0];
}
