// Thumbnails of the `elmapi` dialect (docs/dialects.md, "Thumbnails"): an image over 600 px high
// gets a copy 600 px high at /thumbs/<project>/<media id>, served by `cqa serve` and
// createHandler and written by `cqa build` with the same bytes; smaller images (never enlarged),
// other files and the `cqa` dialect keep what they had.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview } from '../../src/node/server/preview.js';
import { loadContent } from '../../src/node/content/index.js';
import { createHandler as createFetchHandler } from '../../src/core/http/fetch.js';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { writeDist } from '../../src/node/output/dist.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { writeTree } from '../content/helpers.js';
import { fetchClient, socketClient, type Client } from './fixture.js';

const TRAVEL = '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47'; // content/travel
const HEADERS = { accept: 'application/json', authorization: 'Bearer travel-token' };
const work = mkdtempSync(join(tmpdir(), 'cqa-thumbs-'));
let root: string;
let server: RunningServer;
let snapshot: Snapshot;
const clients: Record<string, Client> = {};

/** A 1600×1200 picture (deterministic: drawn, not photographed). */
async function picture(format: 'jpeg' | 'webp'): Promise<Buffer> {
  const square = { create: { width: 400, height: 300, channels: 3 as const, background: '#a02030' } };
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3a6ea5' } })
    .composite([{ input: square, left: 100, top: 100 }])
    [format]()
    .toBuffer();
}

/** Two frames of 1000×1200. */
async function animation(): Promise<Buffer> {
  const frame = (background: string) =>
    sharp({ create: { width: 1000, height: 1200, channels: 3, background } })
      .raw()
      .toBuffer();
  const frames = Buffer.concat([await frame('#ff0000'), await frame('#0000ff')]);
  return sharp(frames, { raw: { width: 1000, height: 2400, channels: 3, pageHeight: 1200 } })
    .gif({ loop: 0 })
    .toBuffer();
}

/** The header of a BMP 10×700 (libvips cannot read BMP; the header is all the loader reads). */
function bmp(): Buffer {
  const b = Buffer.alloc(54);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(54, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(10, 18);
  b.writeInt32LE(700, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  return b;
}

beforeAll(async () => {
  // The sample travel project (its images are 360 px high), plus two large images, and a `cqa`
  // project holding the same large image.
  root = join(work, 'content');
  cpSync('content/travel', join(root, 'travel'), { recursive: true });
  const big = await picture('jpeg');
  writeTree(
    {
      'travel/media/peak.jpg': big,
      'travel/media/photos/lake.webp': await picture('webp'),
      // Stored 1600×800 with EXIF orientation 6: displayed 800×1600.
      'travel/media/turned.jpg': await sharp({ create: { width: 1600, height: 800, channels: 3, background: '#00aa00' } })
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toBuffer(),
      'travel/media/loop.gif': await animation(),
      'travel/media/scan.bmp': bmp(),
      'plain/project.yaml': 'name: Plain\nlocales: [en]\npublic: true\n',
      'plain/media/peak.jpg': big,
    },
    root,
  );
  const { model, issues } = await loadContent(root);
  expect(issues).toEqual([]);
  snapshot = createSnapshot(model);
  server = await startServer({ snapshot });
  clients.socket = socketClient(server.url);
  clients.fetch = fetchClient(createHandler(snapshot));
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

const byName = async (client: Client, name: string) => {
  const r = await client({ path: `/api/${TRAVEL}/project-media/name/${name}`, headers: HEADERS });
  expect(r.status, r.text).toBe(200);
  return JSON.parse(r.text) as { full_url: string; thumb?: string; height: number };
};

describe.each(['socket', 'fetch'])('thumbnails (%s)', (name) => {
  const client = () => clients[name] as Client;

  it('an image over 600 px high: thumb answers 200 with the image 600 px high, aspect kept, same type', async () => {
    for (const [file, type] of [
      ['peak.jpg', 'image/jpeg'],
      ['photos/lake.webp', 'image/webp'],
    ] as const) {
      const m = await byName(client(), file.replace('photos/', ''));
      expect(m.height).toBe(1200);
      expect(m.thumb).toBe(`/thumbs/${TRAVEL}/${file}`);
      const r = await client()({ path: m.thumb as string });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe(type);
      expect(imageSize(r.body)).toMatchObject({ width: 800, height: 600 });
      expect(r.headers.etag).toMatch(/^"/);
      expect((await client()({ path: m.thumb as string, headers: { 'if-none-match': r.headers.etag as string } })).status).toBe(304);
    }
  });

  it('an image at most 600 px high is not enlarged, and a BMP is not resized: thumb is its full URL', async () => {
    for (const file of ['alps.png', 'scan.bmp']) {
      const m = await byName(client(), file);
      expect(m.thumb).toBe(m.full_url);
    }
  });

  it('a turned photo is scaled as displayed; every frame of an animation is scaled', async () => {
    const turned = await client()({ path: (await byName(client(), 'turned.jpg')).thumb as string });
    expect(imageSize(turned.body)).toMatchObject({ width: 300, height: 600 });
    const loop = await client()({ path: (await byName(client(), 'loop.gif')).thumb as string });
    expect(imageSize(loop.body)).toMatchObject({ width: 500, height: 600 });
    expect((await sharp(loop.body, { animated: true }).metadata()).pages).toBe(2);
  });

  it('only items with a thumbnail have one: other paths under /thumbs/ answer 404', async () => {
    for (const path of [
      `/thumbs/${TRAVEL}/alps.png`,
      `/thumbs/${TRAVEL}/scan.bmp`,
      `/thumbs/${TRAVEL}/guide.txt`,
      `/thumbs/${TRAVEL}/nope.jpg`,
      '/thumbs/plain/peak.jpg',
    ]) {
      expect((await client()({ path })).status, path).toBe(404);
    }
    expect(JSON.parse((await client()({ path: `/thumbs/${TRAVEL}/alps.png` })).text)).toEqual({ error: 'File not found!' });
    expect(JSON.parse((await client()({ path: '/thumbs/plain/peak.jpg' })).text).detail).toMatch(
      /has no thumbnail: only images over 600 px high/,
    );
  });
});

describe('the runtime-free handler (content-query-api/edge)', () => {
  it('answers /thumbs/ 404 without readThumbnail, and with what readThumbnail gives', async () => {
    const path = `/thumbs/${TRAVEL}/peak.jpg`;
    expect((await fetchClient(createFetchHandler(snapshot))({ path })).status).toBe(404);
    const copy = Buffer.from('the copy in dist/thumbs/');
    const read = fetchClient(createFetchHandler(snapshot, { readThumbnail: async (m) => (m.id === 'peak.jpg' ? copy : null) }));
    const r = await read({ path });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('image/jpeg');
    expect(r.body.equals(copy)).toBe(true);
  });
});

describe('cqa build', () => {
  it('writes the thumbnail served, byte for byte; two builds are identical; no thumbnails for the cqa dialect', async () => {
    const [a, b] = [join(work, 'dist-a'), join(work, 'dist-b')];
    await writeDist(snapshot, { out: a });
    await writeDist(snapshot, { out: b });
    for (const file of ['peak.jpg', 'photos/lake.webp']) {
      const rel = `thumbs/${TRAVEL}/${file}`;
      const written = readFileSync(join(a, rel));
      expect(imageSize(written)).toMatchObject({ height: 600 });
      expect(written.equals(readFileSync(join(b, rel)))).toBe(true);
      expect(written.equals((await clients.socket!({ path: `/${rel}` })).body)).toBe(true);
    }
    expect(() => readFileSync(join(a, `thumbs/${TRAVEL}/alps.png`))).toThrow();
    expect(() => readFileSync(join(a, 'thumbs/plain/peak.jpg'))).toThrow();
    // cqa preview (what a static host does) serves it too, with the _headers rule.
    const preview = await startPreview({ dir: a, port: 0 });
    try {
      const r = await socketClient(preview.url)({ path: `/thumbs/${TRAVEL}/peak.jpg` });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('image/jpeg');
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(r.body.equals(readFileSync(join(a, `thumbs/${TRAVEL}/peak.jpg`)))).toBe(true);
    } finally {
      await preview.close();
    }
    // The static document names the written thumbnail.
    const doc = JSON.parse(readFileSync(join(a, `api/${TRAVEL}/project-media/name/peak.jpg/index.json`), 'utf8')) as { thumb: string };
    expect(doc.thumb).toBe(`/thumbs/${TRAVEL}/peak.jpg`);
  });
});
