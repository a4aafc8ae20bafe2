// `cqa build --host serve` writes a redirect for each folder serve would list; serve reads a
// source as a path pattern and a glob, so a media folder named `:all*` took every media path of
// its project (found from outside). Each folder's redirect must match that folder alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { writeDist } from '../../src/node/output/dist.js';
import { writeTree } from '../content/helpers.js';
import { type RunningHost, startServe } from './servers.js';

const FOLDERS = [':all*', 'a:b', 'x(1)', '[ab]', '{a,b}', '!x', '@(y)', 'q?', 'p+'];
// Downloads whose names read as globs: `logo (1).svg` is how browsers name a second download; `*`
// (no extension: application/octet-stream, a download too) would match every media file of its folder.
const DOWNLOADS = ['logo (1).svg', '[ab].svg', '{a,b}.svg', '*.svg', 'q?.svg', '!x.svg', '@(y).svg', 'p+(z).svg', '*'];
// More active files than serve takes header rules (50), one with a path over its 100 characters.
const ICONS = [...Array.from({ length: 60 }, (_, i) => `icons/icon-${i}.svg`), `icons/${'long-name-'.repeat(10)}.SVG`, 'docs/manual.pdf'];
// Names of characters outside the BMP (two UTF-16 units, four bytes each), within 255 bytes.
const ASTRAL = [`${'🎉'.repeat(45)}.txt`, `${'𠮷'.repeat(60)}.txt`];
const work = mkdtempSync(join(tmpdir(), 'cqa-serve-names-'));
let server: RunningHost;

beforeAll(async () => {
  const tree: Record<string, string> = {
    's/project.yaml': 'id: s\npublic: true\n',
    's/posts/one.yaml': 'title: One\n',
    's/media/readme.txt': 'hello',
    's/media/ab.txt': 'ab',
    's/media/ax.txt': 'ax',
  };
  for (const d of DOWNLOADS) tree[`s/media/${d}`] = '<svg xmlns="http://www.w3.org/2000/svg"/>';
  for (const n of ASTRAL) tree[`s/media/${n}`] = 'x';
  for (const n of ICONS) tree[`s/media/${n}`] = '<svg xmlns="http://www.w3.org/2000/svg"/>';
  for (const f of FOLDERS) {
    tree[`s/media/${f}/a.txt`] = 'a';
    tree[`s/media/${f}/b.txt`] = 'b';
  }
  const snapshot = await buildSnapshot({ content: writeTree(tree) });
  await writeDist(snapshot, { out: join(work, 'dist'), host: 'serve' });
  server = await startServe(join(work, 'dist'));
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

const status = async (path: string) => {
  const res = await fetch(server.url + path.split('/').map(encodeURIComponent).join('/'), { signal: AbortSignal.timeout(5000) });
  await res.arrayBuffer();
  return res.status;
};

describe('serve: a media folder whose name reads as a pattern', () => {
  it('redirects that folder alone: every other media file and document answers 200', async () => {
    for (const path of ['/media/s/readme.txt', '/media/s/ab.txt', '/media/s/ax.txt', '/api/s/project-media', '/api/s/posts']) {
      expect(await status(path), path).toBe(200);
    }
    for (const f of FOLDERS) {
      expect(await status(`/media/s/${f}/a.txt`), f).toBe(200);
      expect(await status(`/api/s/project-media/${f}/b.txt`), f).toBe(200);
      // The folder itself: serve would list it; the redirect sends it to the 404.
      expect(await status(`/media/s/${f}`), f).toBe(404);
    }
  });
});

// serve reads a header source as a glob: the download rule of `logo (1).svg` matched no path, and
// serve sent its own `inline` (found from outside), where cqa serve and the other hosts send attachment.
describe('serve: a media file whose name reads as a glob', () => {
  it('is a download all the same, and its rule names it alone', async () => {
    for (const d of DOWNLOADS) {
      const res = await fetch(`${server.url}/media/s/${encodeURIComponent(d)}`, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      expect(res.status, d).toBe(200);
      expect(res.headers.get('content-disposition'), d).toBe('attachment');
    }
    // A text file stays inline: the rule of `*` names that file alone.
    const res = await fetch(`${server.url}/media/s/ab.txt`, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    expect(res.headers.get('content-disposition') ?? '').not.toMatch(/attachment/);
  });
});

// serve's rule for a name no file can have counted 86 characters of three bytes or more in UTF-16
// units, and an emoji is two: 45 emoji (180 bytes) answered 302 to the 404 (found from outside).
describe('serve: a name of emoji or other characters outside the BMP', () => {
  it('is served as a media file and a document, up to 255 bytes', async () => {
    for (const n of ASTRAL) {
      expect(await status(`/media/s/${n}`), n).toBe(200);
      expect(await status(`/api/s/project-media/${n}`), n).toBe(200);
    }
  });
});

// A rule per active file: 60 SVG icons made a serve.json of 65 header rules, and serve refused to
// start ('The configuration you provided is invalid: must NOT have more than 50 items'; found
// from outside). The server above starts, and every one of them is a download.
describe('serve: more active media files than serve takes header rules', () => {
  it('starts, and each of them is a download', async () => {
    for (const n of ICONS) {
      const res = await fetch(`${server.url}/media/s/${n.split('/').map(encodeURIComponent).join('/')}`, {
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer();
      expect(res.status, n).toBe(200);
      expect(res.headers.get('content-disposition'), n).toBe('attachment');
    }
  });
});
