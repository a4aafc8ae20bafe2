// Image bombs through thumbnails (docs/security.md, "Image processing"): images whose header names
// a huge or elongated size are refused from the header, before decoding, with a 422 naming the
// limit — by cqa serve and by createHandler — and the refusal is remembered by file identity. A
// storm of requests for them keeps the server's memory bounded (measured loosely, reported).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/index.js';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { checkImage } from '../../src/node/output/thumbnail.js';
import { writeTree } from '../content/helpers.js';
import { fetchClient, socketClient, type Client } from './fixture.js';

const TRAVEL = '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47';

/** A WebP (VP8X) header declaring a canvas of w×h, nothing after it: 38 bytes. */
function webpBomb(w: number, h: number): Buffer {
  const b = Buffer.alloc(38);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(30, 4);
  b.write('WEBPVP8X', 8, 'latin1');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(w - 1, 24, 3);
  b.writeUIntLE(h - 1, 27, 3);
  b.write('VP8 ', 30, 'latin1');
  return b;
}

/** A PNG signature and IHDR of w×h RGB, then `tail` bytes of zeros (a truncated image). */
function pngBomb(w: number, h: number, tail: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(w, 8);
  ihdr.writeUInt32BE(h, 12);
  ihdr[16] = 8;
  ihdr[17] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.alloc(tail)]);
}

const BOMBS: Record<string, Buffer> = {
  'bomb.webp': webpBomb(16383, 16383),
  'strip.png': pngBomb(200_000, 1300, 379_000),
  // Within the pixel limit (21 Mpx) but 43:1.
  'long.png': pngBomb(30_000, 700, 1000),
  // Within both limits, but truncated: decoding fails (remembered too).
  'broken.png': pngBomb(1000, 800, 100),
  // Found from outside: an SVG named .png, rendered by libvips at a cost its header does not show.
  'drawing.png': Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="1000"><filter id="f"><feGaussianBlur stdDeviation="90"/></filter><rect width="2000" height="1000" filter="url(#f)"/></svg>',
  ),
};

const work = mkdtempSync(join(tmpdir(), 'cqa-thumb-bombs-'));
let server: RunningServer;
const clients: Record<string, Client> = {};

beforeAll(async () => {
  const root = join(work, 'content');
  cpSync('content/travel', join(root, 'travel'), { recursive: true });
  writeTree(Object.fromEntries(Object.entries(BOMBS).map(([name, bytes]) => [`travel/media/${name}`, bytes])), root);
  // Found from outside: a file of 900 MB was read whole before its header was measured (RSS 0.27 → 1.15 GB).
  // A valid 1000×800 header, then a hole: 129 MiB that take no disk.
  writeFileSync(join(root, 'travel/media/huge.png'), pngBomb(1000, 800, 100));
  truncateSync(join(root, 'travel/media/huge.png'), 129 * 2 ** 20);
  const { model } = await loadContent(root);
  const snapshot = createSnapshot(model);
  server = await startServer({ snapshot });
  clients.serve = socketClient(server.url);
  clients.createHandler = fetchClient(createHandler(snapshot));
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the header check', () => {
  it('names the limit an image breaks, before any decoding', () => {
    expect(() => checkImage(BOMBS['bomb.webp'] as Buffer)).toThrow(
      /16383×16383 px \(268\.4 Mpx\): thumbnails are made of images up to 40 Mpx/,
    );
    expect(() => checkImage(BOMBS['strip.png'] as Buffer)).toThrow(/200000×1300 px/);
    expect(() => checkImage(BOMBS['long.png'] as Buffer)).toThrow(/30000×700 px \(43:1\): thumbnails are made of images up to 20:1/);
    expect(() => checkImage(Buffer.from('not an image at all'))).toThrow(/header cannot be read/);
    expect(() => checkImage(BOMBS['drawing.png'] as Buffer)).toThrow(
      /bytes are SVG: thumbnails are made of PNG, JPEG, GIF and WebP images only/,
    );
    expect(() => checkImage(pngBomb(4000, 3000, 10))).not.toThrow();
    expect(() => checkImage(pngBomb(4000, 3000, 10), { maxPixels: 10_000_000, maxAspect: 20 })).toThrow(/up to 10 Mpx/);
  });
});

describe.each(['serve', 'createHandler'])('image bombs (%s)', (name) => {
  it('answers each bomb 422 naming the limit, again and again', async () => {
    const client = clients[name] as Client;
    for (const [file, limit] of [
      ['bomb.webp', /40 Mpx/],
      ['strip.png', /40 Mpx/],
      ['long.png', /20:1/],
      ['broken.png', /cannot be decoded/],
      ['drawing.png', /bytes are SVG/],
      ['huge.png', /the file is 129\.0 MiB: thumbnails are made of files up to 128 MiB/],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const r = await client({ path: `/thumbs/${TRAVEL}/${file}` });
        expect(r.status, `${file} #${i}: ${r.text}`).toBe(422);
        expect(r.text, file).toMatch(limit);
      }
    }
  });

  it('keeps memory bounded through a storm of 200 bomb requests (measured, reported)', async () => {
    const client = clients[name] as Client;
    const before = process.memoryUsage().rss;
    const started = performance.now();
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(
        Object.keys(BOMBS).flatMap((file) => [0, 1].map(() => client({ path: `/thumbs/${TRAVEL}/${file}` }))),
      );
      for (const r of answers) expect(r.status).toBe(422);
    }
    const grew = (process.memoryUsage().rss - before) / 1e6;
    console.log(`${name}: 160 bomb thumbnails in ${(performance.now() - started).toFixed(0)} ms, RSS +${grew.toFixed(0)} MB`);
    // Loose: one decoded bomb alone took ~900 MB before the header check.
    expect(grew).toBeLessThan(300);
  }, 60_000);
});

describe('cqa check, cqa build and cqa serve agree', () => {
  // Found from outside: check said "content ok" on a damaged image that build refused and serve
  // answered 422 (with a message of several lines, and advice to use a smaller image).
  const cqa = (args: string[]) =>
    spawnSync(process.execPath, ['bin/cqa.js', ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });

  it('check names every image whose thumbnail the build cannot make (exit 1); build refuses; serve answers 422 on one line', async () => {
    const check = cqa(['check', join(work, 'content')]);
    expect(check.status).toBe(1);
    const lines = check.stderr.trim().split('\n');
    expect(lines.filter((l) => !l.startsWith('warning:'))).toEqual([
      expect.stringMatching(
        /^travel\/media\/bomb\.webp: no thumbnail can be made of it \(.*40 Mpx\), and an elmapi project's image over 600 px high has one: replace it/,
      ),
      expect.stringMatching(
        /^travel\/media\/broken\.png: no thumbnail can be made of it \(the image cannot be decoded \(Input buffer has corrupt header[^\n]*\)\), and/,
      ),
      expect.stringMatching(/^travel\/media\/drawing\.png: no thumbnail can be made of it \(the file's bytes are SVG: /),
      expect.stringMatching(/^travel\/media\/huge\.png: no thumbnail can be made of it \(the file is 129\.0 MiB: .* up to 128 MiB\)/),
      expect.stringMatching(/^travel\/media\/long\.png: no thumbnail can be made of it \(.*20:1\)/),
      expect.stringMatching(/^travel\/media\/strip\.png: no thumbnail can be made of it \(.*40 Mpx\)/),
      '6 errors in 6 files',
    ]);
    const build = cqa(['build', join(work, 'content'), '--out', join(work, 'dist'), '--include-private']);
    expect(build.status).toBe(1);
    expect(build.stderr).toMatch(/cannot make the thumbnail of media '\w+\.\w+' \([^\n]*\): replace the file with a readable image/);
    const broken = await (clients.serve as Client)({ path: `/thumbs/${TRAVEL}/broken.png` });
    expect(broken.status).toBe(422);
    expect(JSON.parse(broken.text).detail).toMatch(
      /^no thumbnail is made of the media file 'broken\.png': the image cannot be decoded \([^\n]*\); link its full_url instead, or replace the file with a readable image$/,
    );
  }, 90_000);
});
