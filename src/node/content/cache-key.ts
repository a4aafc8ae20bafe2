// The key that signs the parse cache (parse-cache.ts). The cache lives in the content tree, hidden
// and git-ignored, so whoever can drop files into a tree could plant results no review sees; a
// cache is therefore only trusted when it carries an HMAC made with this key, which is kept
// outside every tree, in the user's own cache folder ($XDG_CACHE_HOME/cqa or ~/.cache/cqa), made
// on first use, readable by its owner only.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const KEY_FILE = 'parse-cache.key';
const KEY_BYTES = 32;

/** Where the key is kept unless a caller says otherwise. */
export function defaultKeyFolder(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cqa');
}

/**
 * The key in `folder`, made if there is none; undefined when no key can be kept there or the one
 * there is not the user's own (then nothing is cached). Never throws.
 */
export function cacheKey(folder: string = defaultKeyFolder()): Buffer | undefined {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    return readKey(join(folder, KEY_FILE)) ?? makeKey(join(folder, KEY_FILE));
  } catch {
    return undefined;
  }
}

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

function readKey(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NO_FOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const stat = fstatSync(fd);
    // Another user's key, or one others may read, could be known to an attacker: not used.
    const own = process.getuid === undefined || stat.uid === process.getuid();
    if (!stat.isFile() || !own || (stat.mode & 0o077) !== 0 || stat.size !== KEY_BYTES) throw new Error('unusable cache key');
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function makeKey(file: string): Buffer | undefined {
  const key = randomBytes(KEY_BYTES);
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o600);
  } catch (err) {
    // Made meanwhile by another process: that one is the key.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readKey(file);
    throw err;
  }
  try {
    writeSync(fd, key);
  } finally {
    closeSync(fd);
  }
  return key;
}
