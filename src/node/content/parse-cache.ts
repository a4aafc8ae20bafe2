// What the files parsed to, kept between runs of `cqa serve` in <content>/.cqa-cache/ (its
// .gitignore ignores everything in it, as pytest's .pytest_cache does). A cold process parses and
// renders the whole tree before the JIT has compiled the parsers: ~100 ms of the sample's ~300 ms
// start. With the cache a start reads the files, hashes their text and takes the results of the
// texts it has seen before.
// - Keyed by the exact text (SHA-256) and the versions of cqa, yaml, marked and image-size, never
//   by a path or an mtime: a file rewritten within one mtime tick is parsed again.
// - It holds only what the tree holds: each file's parsed value, the HTML its Markdown renders
//   to and the pixel size of each image (keyed by the bytes it was read from), for the files the
//   last load read. Results with problems are never kept: every error comes from a fresh parse.
// - Signed: the file starts with an HMAC of the rest, made with a key kept outside the tree
//   (cache-key.ts). A file it does not match (edited, planted, from another user) is ignored, so
//   results and HTML nobody reviewed are never served; without a key nothing is cached.
// - It also keeps what git said about the tree's history (git-times.ts), checked before use
//   against the repository and the files as they are then.
// - Best effort: a folder that cannot be written, or a cache file that is corrupt, a symlink or
//   from another version, is ignored (and written anew when it can be). Written atomically.
// - The loader never lists names starting with '.', so the folder is neither content nor media
//   (nor copied to dist/), and the watcher ignores it.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cacheKey } from './cache-key.js';
import type { GitTimesStore, KeptGitTimes } from './git-times.js';
import type { Dimensions } from './media.js';
import type { EntryFormat, ParsedEntry, ParsedYaml } from './parse.js';

export const CACHE_FOLDER = '.cqa-cache';
const FILE = 'parse.json';
/**
 * Bumped when what is kept changes shape (3: entries keep the numbers written in another form), or
 * what cqa renders does (4: richtext after an open <kbd>, <code>, <pre> or <script> is escaped;
 * HTML kept before may hold live markup), or a text it accepted is now refused (5: a merge key
 * `<<:`, and front matter closed with `...` before more YAML; a result kept before would pass them).
 */
const FORMAT = 5;

/** cqa's version, and those of the packages whose output is kept: an update of marked may change the HTML. */
function version(): string {
  const require = createRequire(import.meta.url);
  const own = (require('../../../package.json') as { version: string }).version;
  return [
    `cqa@${own}`,
    ...['yaml', 'marked', 'image-size'].map((name) => `${name}@${packageVersion(require, name)}`),
    `format ${FORMAT}`,
  ].join(' ');
}

/**
 * From the package's own package.json, in the first node_modules folder that has the package (as
 * Node resolves a bare name); not every package exports its package.json. Looked up by path: a
 * require.resolve() of the three packages took 7–17 ms of a cold start, this 2–6 ms.
 */
function packageVersion(require: NodeJS.Require, name: string): string {
  try {
    for (const folder of require.resolve.paths(name) ?? []) {
      const file = join(folder, name, 'package.json');
      if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    }
  } catch {
    // unreadable: as if absent
  }
  return 'unknown';
}

interface Stored {
  readonly cqa: string;
  /** `<kind>:<sha256 of the text>` → the parse result as plain data. */
  readonly results: Record<string, unknown>;
  /** sha256 of a Markdown text → its HTML. */
  readonly html: Record<string, string>;
  /** git's answer about the tree (KeptGitTimes as plain data). */
  git?: StoredGit;
}

interface StoredGit {
  readonly state: KeptGitTimes['state'];
  /** [path, created, updated] */
  readonly times: [string, number, number][];
  readonly changed: string[];
  /** [path, stamp] */
  readonly stamps: [string, string][];
}

type Kind = EntryFormat | 'settings' | 'image';

export interface ParseCache {
  /** `parse(text)` of an entry, or what it gave for the same text on an earlier run. */
  entry(format: EntryFormat, text: string, parse: () => ParsedEntry, portable: PortableCodec<ParsedEntry>): ParsedEntry;
  /** `parse(text)` of a settings file (project.yaml, _collection.yaml, _media.yaml), likewise. */
  settings(text: string, parse: () => ParsedYaml, portable: PortableCodec<ParsedYaml>): ParsedYaml;
  /** The width and height read from an image whose first bytes are `head`, on an earlier run. */
  dimensions(head: Uint8Array): Dimensions | undefined;
  keepDimensions(head: Uint8Array, dimensions: Dimensions): void;
  /** `render(markdown)`, or the HTML it gave on an earlier run. */
  html(markdown: string, render: (markdown: string) => string): string;
  /** What git said about the tree on an earlier run. */
  readonly gitTimes: GitTimesStore;
  /** Writes what this load used, if anything was new; never throws. */
  save(): void;
}

/** How a result becomes plain data (JSON) and back. */
export interface PortableCodec<T> {
  toPlain(result: T): unknown;
  fromPlain(plain: unknown): T;
}

const sha256 = (text: string | Uint8Array) => createHash('sha256').update(text).digest('base64url');

/**
 * The cache of the tree at `root`, read now (an unreadable or unsigned one is empty). `keyFolder`:
 * where the signing key is kept (cache-key.ts; the user's cache folder unless said).
 */
export function openParseCache(root: string, keyFolder?: string): ParseCache {
  const dir = join(root, CACHE_FOLDER);
  const current = version();
  const key = cacheKey(keyFolder);
  const old = key && readStored(dir, current, key);
  // git's answer is carried over: it is checked against the repository before it is used.
  const used: Stored = { cqa: current, results: {}, html: {}, ...(old?.git ? { git: old.git } : {}) };
  let changed = false;
  let kept: KeptGitTimes | undefined;

  const cached = <T>(kind: Kind, text: string, parse: () => T, codec: PortableCodec<T>, clean: (r: T) => boolean): T => {
    const key = `${kind}:${sha256(text)}`;
    const hit = old?.results[key];
    // A result of another shape (a file edited by hand) is parsed again, as a miss.
    const restored = isRecord(hit) ? attempt(() => codec.fromPlain(hit)) : undefined;
    if (restored !== undefined) {
      used.results[key] = hit;
      return restored;
    }
    const result = parse();
    const plain = clean(result) ? codec.toPlain(result) : undefined;
    if (plain !== undefined && isJsonSafe(plain)) {
      used.results[key] = plain;
      changed = true;
    }
    return result;
  };

  return {
    entry: (format, text, parse, codec) =>
      cached(format, text, parse, codec, (r) => r.data !== undefined && r.problems.length === 0 && r.unkept === undefined),
    settings: (text, parse, codec) => cached('settings', text, parse, codec, (r) => r.problems.length === 0),
    dimensions(head) {
      const key = `image:${sha256(head)}`;
      const hit = old?.results[key] as Dimensions | undefined;
      if (!isRecord(hit) || !isSize(hit.width) || !isSize(hit.height)) return undefined;
      used.results[key] = hit;
      return hit;
    },
    keepDimensions(head, dimensions) {
      used.results[`image:${sha256(head)}`] = { width: dimensions.width, height: dimensions.height };
      changed = true;
    },
    html(markdown, render) {
      const key = sha256(markdown);
      const hit = old?.html[key];
      if (typeof hit === 'string') return (used.html[key] = hit);
      const html = render(markdown);
      used.html[key] = html;
      changed = true;
      return html;
    },
    gitTimes: {
      get kept() {
        kept ??= attempt(() => fromStoredGit(old?.git));
        return kept;
      },
      keep(answer) {
        kept = answer;
        used.git = {
          state: answer.state,
          times: [...answer.times].map(([rel, t]) => [rel, t.created, t.updated]),
          changed: [...answer.changed],
          stamps: [...answer.stamps],
        };
        changed = true;
      },
    },
    save() {
      // Also when fewer texts were used than are kept: the file holds the last load's texts only.
      const count = (s: Stored) => Object.keys(s.results).length + Object.keys(s.html).length;
      if (!key || (!changed && old && count(old) === count(used))) return;
      writeStored(dir, used, key);
    },
  };
}

const mac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();

function readStored(dir: string, current: string, key: Buffer): Stored | undefined {
  try {
    // Not through a symlink, of the folder or of the file: nothing outside the content tree is read.
    if (!lstatSync(dir).isDirectory()) return undefined;
    const fd = openSync(join(dir, FILE), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    let text: string;
    try {
      if (!fstatSync(fd).isFile()) return undefined;
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
    // `<HMAC in base64url>\n<JSON>`: checked before the JSON is even parsed.
    const newline = text.indexOf('\n');
    const body = text.slice(newline + 1);
    const expected = mac(key, body);
    const given = Buffer.from(text.slice(0, Math.max(newline, 0)), 'base64url');
    if (newline < 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const stored = JSON.parse(body) as Partial<Stored> | null;
    if (stored?.cqa !== current || !isRecord(stored.results) || !isRecord(stored.html)) return undefined;
    return stored as Stored;
  } catch {
    return undefined;
  }
}

function writeStored(dir: string, stored: Stored, key: Buffer): void {
  try {
    try {
      if (!lstatSync(dir).isDirectory()) return; // a file or a symlink of that name: leave it be
    } catch {
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, '.gitignore'), '# Made by cqa serve (parse results kept between runs); safe to delete.\n*\n');
    }
    // A name no one can plant a link at, created here or not at all (O_EXCL fails on any existing
    // path, a symlink included): a committed `.cqa-cache/` must not make this write anywhere else.
    const tmp = join(dir, `${FILE}.${randomBytes(9).toString('base64url')}.tmp`);
    // The owner's only, whatever the files it was read from allow: a project.yaml may hold tokens.
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
    try {
      const body = JSON.stringify(stored);
      writeFileSync(fd, `${mac(key, body).toString('base64url')}\n${body}`);
    } catch (err) {
      attempt(() => unlinkSync(tmp));
      throw err;
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(tmp, join(dir, FILE)); // replaces a link of that name, never writes through it
    } catch (err) {
      attempt(() => unlinkSync(tmp)); // a folder named parse.json: no temp file (tokens) left each start
      throw err;
    }
  } catch {
    // Not writable (a read-only tree, a full disk): the next start parses again.
  }
}

/** A stored answer as KeptGitTimes; throws (see attempt()) when it has another shape. */
function fromStoredGit(git: StoredGit | undefined): KeptGitTimes | undefined {
  if (git === undefined) return undefined;
  const text = (v: unknown): string => {
    if (typeof v !== 'string') throw new TypeError('not a string');
    return v;
  };
  const number = (v: unknown): number => {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError('not a number');
    return v;
  };
  const { state } = git;
  return {
    state: { history: text(state.history), index: text(state.index) },
    times: new Map(git.times.map(([rel, created, updated]) => [text(rel), { created: number(created), updated: number(updated) }])),
    changed: new Set(git.changed.map(text)),
    stamps: new Map(git.stamps.map(([rel, s]) => [text(rel), text(s)])),
  };
}

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

const isSize = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether JSON gives `value` back as it is: no NaN, ±Infinity or -0, no `__proto__` key. */
function isJsonSafe(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) return false;
    if (typeof v !== 'object' || v === null) continue;
    if (!Array.isArray(v) && Object.hasOwn(v, '__proto__')) return false;
    // A loop, not push(...values): a list of a few 100,000 items is more arguments than the stack holds.
    for (const child of Object.values(v)) stack.push(child);
  }
  return true;
}
