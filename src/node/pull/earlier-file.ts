// A media file of the earlier pull, reused when the server answers 304: it is opened without
// following links and only when it is a regular file of the stated size at exactly its place in
// the earlier tree's media/ (open-content.ts). A link planted there (media/x.png → ~/.ssh/id_rsa)
// was followed by copyFile, and the outside file landed in the new tree, which `serve` publishes.
import { closeSync, createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openListed } from '../content/open-content.js';

export interface EarlierFile {
  readonly fd: number;
  readonly size: number;
}

/** The earlier copy of media `path`, open, or undefined when it cannot be trusted (then it is downloaded again). */
export function openEarlier(tree: string, path: string, size: number): EarlierFile | undefined {
  try {
    const { fd, stats } = openListed({ abs: join(tree, 'media', ...path.split('/')), rel: `media/${path}` });
    if (stats.size === size) return { fd, size };
    closeSync(fd);
  } catch {
    // Missing, a link, a FIFO, moved: not reused.
  }
  return undefined;
}

/** Copies the open earlier file into `target`, a new file (never through a link); false when it was not `size` bytes after all. */
export async function copyEarlier(file: EarlierFile, target: string): Promise<boolean> {
  let copied = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      copied += chunk.length;
      done(copied > file.size ? new Error('grew') : null, chunk);
    },
  });
  try {
    await pipeline(createReadStream('', { fd: file.fd, start: 0, autoClose: false }), count, createWriteStream(target, { flags: 'wx' }));
    return copied === file.size;
  } catch {
    return false;
  }
}

export function closeEarlier(file: EarlierFile | undefined): void {
  if (file) closeSync(file.fd);
}
