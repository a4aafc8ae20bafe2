// Media names: a file with `\` in its name passed `cqa check`, was listed by `serve` with a
// full_url that answered 404, and made `cqa build` fail. Now every name the loader accepts is
// served at its full_url by `cqa serve`, written by `cqa build` and served by `cqa preview` (a
// static host); every other name is a content error naming the file (src/core/model/media-name.ts).
// The names are generated from characters that URLs, file systems and hosts treat specially.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { loadContent, type LoadResult } from '../../src/node/content/load.js';
import { mediaNameProblem } from '../../src/core/model/media-name.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { writeDist } from '../../src/node/output/dist.js';
import { writeTree } from './helpers.js';

// Pieces of names: plain, URL-special, percent sequences (valid, invalid, encoded separators),
// controls (C0, DEL, C1), non-ASCII, and the backslash.
const PIECES = [
  'a',
  'B',
  '1',
  '.',
  '-',
  '_',
  ' ',
  '~',
  '+',
  '&',
  '=',
  ';',
  ':',
  '@',
  '!',
  '$',
  "'",
  '(',
  ')',
  '*',
  ',',
  '[',
  ']',
  '?',
  '#',
  '%',
  '%41',
  '%zz',
  '%2F',
  '%5C',
  '%00',
  '%25',
  '\\',
  '\t',
  '\n',
  '\x01',
  '\x1b',
  '\x7f',
  '\u0085',
  'é',
  'ß',
  '\u00a0',
  '\u200b',
  '😀',
  '中',
];

/** A seeded generator (mulberry32), so a failure names a name that can be tried again. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generatedNames(count: number, seed: number): string[] {
  const next = random(seed);
  const names = new Set<string>();
  while (names.size < count) {
    let name = '';
    const length = 1 + Math.floor(next() * 4);
    for (let i = 0; i < length; i++) name += PIECES[Math.floor(next() * PIECES.length)];
    // Names starting with . or _ are not media at all (hidden), and . / .. cannot be files.
    if (/^[._]/.test(name)) name = `m${name}`;
    names.add(`${name}.txt`);
  }
  return [...names];
}

const NAMES = [
  ...generatedNames(150, 20),
  'a\\b.txt',
  'x\x01.txt',
  'ctl\u0085.txt',
  '100%.txt',
  'q?.txt',
  'h#1.txt',
  'p%41.txt',
  'sp ace.txt',
  'd/nested %2F.txt',
];
const SECRET_FREE = (name: string) => `bytes of ${name}`;

let root: string;
let loaded: LoadResult;
let server: RunningServer;
let preview: PreviewServer;
let out: string;

beforeAll(async () => {
  root = writeTree({ 'p/project.yaml': 'id: p\npublic: true\n' });
  for (const name of NAMES) {
    const file = join(root, 'p/media', name);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, SECRET_FREE(name));
  }
  // A name that is not valid UTF-8 (Latin-1 'ü'): read back with U+FFFD, it would open nothing.
  writeFileSync(Buffer.concat([Buffer.from(join(root, 'p/media/latin')), Buffer.from([0xfc]), Buffer.from('.txt')]), 'latin-1 name');
  // A path under media/ longer than 1024 bytes.
  const deep = join(root, 'p/media', ...Array.from({ length: 6 }, () => 'd'.repeat(200)));
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(deep, 'long.txt'), 'long');
  loaded = await loadContent(root);
  const snapshot = createSnapshot(loaded.model);
  server = await startServer({ snapshot, port: 0 });
  out = join(mkdtempSync(join(tmpdir(), 'cqa-names-')), 'dist');
  await writeDist(snapshot, { out });
  preview = await startPreview({ dir: out, port: 0 });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await preview?.close();
});

const published = () => new Map((loaded.model.projects[0]?.media ?? []).map((m) => [m.id, m]));

describe('media names', () => {
  it('are each either published or a content error naming the file', () => {
    const errors = new Map(loaded.issues.map((i) => [i.file, i.message]));
    const media = published();
    for (const name of NAMES) {
      const problem = mediaNameProblem(name);
      if (problem === undefined) expect(media.has(name), JSON.stringify(name)).toBe(true);
      else {
        expect(media.has(name), JSON.stringify(name)).toBe(false);
        expect(errors.get(`p/media/${name}`), JSON.stringify(name)).toBe(`not published: ${problem}`);
      }
    }
    expect(media.size).toBeGreaterThan(50); // the generator makes mostly servable names
  });

  it('refuses a backslash, control characters, bytes that are not UTF-8 and an over-long path, naming the file', () => {
    const errors = loaded.issues.map((i) => `${i.file}: ${i.message}`);
    expect(errors).toContain('p/media/a\\b.txt: not published: its name has a backslash (\\), which no URL can serve: rename the file');
    expect(errors).toContain(
      'p/media/x\x01.txt: not published: its name has a control character (U+0001), which no URL can serve: rename the file',
    );
    expect(errors).toContain(
      'p/media/ctl\u0085.txt: not published: its name has a control character (U+0085), which no URL can serve: rename the file',
    );
    expect(errors).toContain(
      'p/media/latin\uFFFD.txt: its name is not valid UTF-8 (saved in another encoding), so it cannot be read or published: rename it',
    );
    expect(
      errors.some((e) => /long\.txt: not published: its path under media\/ is 1214 bytes long, more than 1024: shorten it$/.test(e)),
    ).toBe(true);
  });

  it('every published name is served at its full_url by cqa serve, and by cqa preview from the built tree', async () => {
    const media = published();
    const list = (await (await fetch(`${server.url}/api/p/project-media?limit=1000`)).json()) as {
      data: { id: string; full_url: string }[];
    };
    expect(list.data.map((m) => m.id).sort()).toEqual([...media.keys()].sort());
    for (const m of list.data) {
      for (const base of [server.url, preview.url]) {
        const res = await fetch(`${base}${m.full_url}`);
        expect(res.status, `${base} ${JSON.stringify(m.id)} ${m.full_url}`).toBe(200);
        expect(await res.text()).toBe(SECRET_FREE(m.id));
      }
    }
  }, 60_000);

  it('cqa build writes every published media file under its own name', () => {
    for (const id of published().keys()) expect(readFileSync(join(out, 'media/p', ...id.split('/')), 'utf8')).toBe(SECRET_FREE(id));
  });
});
