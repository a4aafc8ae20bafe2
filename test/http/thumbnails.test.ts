// Thumbnails of the `elmapi` dialect (docs/dialects.md, "Thumbnails"): an image over 600 px high
// gets a copy 600 px high under media/<project>/_thumbs/<media id>, served by `cqa serve` and
// createHandler and written by `cqa build` with the same bytes; smaller images (never enlarged),
// other files and the `cqa` dialect keep what they had.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/index.js';
import { createHandler } from '../../src/http/fetch-node.js';
import { startServer, type RunningServer } from '../../src/http/start.js';
import { createSnapshot } from '../../src/snapshot/create.js';
import { writeDist } from '../../src/snapshot/dist.js';
import type { Snapshot } from '../../src/snapshot/types.js';
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
    for (const [file, type] of [['peak.jpg', 'image/jpeg'], ['photos/lake.webp', 'image/webp']] as const) {
      const m = await byName(client(), file.replace('photos/', ''));
      expect(m.height).toBe(1200);
      expect(m.thumb).toBe(`/media/${TRAVEL}/_thumbs/${file}`);
      const r = await client()({ path: m.thumb as string });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe(type);
      expect(imageSize(r.body)).toMatchObject({ width: 800, height: 600 });
      expect(r.headers.etag).toMatch(/^"/);
      expect((await client()({ path: m.thumb as string, headers: { 'if-none-match': r.headers.etag as string } })).status).toBe(304);
    }
  });

  it('an image at most 600 px high is not enlarged: thumb is its full URL', async () => {
    const m = await byName(client(), 'alps.png');
    expect(m.thumb).toBe(m.full_url);
  });

  it('only items with a thumbnail have one: other paths under _thumbs/ answer 404', async () => {
    for (const path of [`/media/${TRAVEL}/_thumbs/alps.png`, `/media/${TRAVEL}/_thumbs/guide.txt`, `/media/${TRAVEL}/_thumbs/nope.jpg`, '/media/plain/_thumbs/peak.jpg']) {
      expect((await client()({ path })).status, path).toBe(404);
    }
  });
});

describe('cqa build', () => {
  it('writes the thumbnail served, byte for byte; two builds are identical; no thumbnails for the cqa dialect', async () => {
    const [a, b] = [join(work, 'dist-a'), join(work, 'dist-b')];
    await writeDist(snapshot, { out: a });
    await writeDist(snapshot, { out: b });
    for (const file of ['peak.jpg', 'photos/lake.webp']) {
      const rel = `media/${TRAVEL}/_thumbs/${file}`;
      const written = readFileSync(join(a, rel));
      expect(imageSize(written)).toMatchObject({ height: 600 });
      expect(written.equals(readFileSync(join(b, rel)))).toBe(true);
      expect(written.equals((await clients.socket!({ path: `/${rel}` })).body)).toBe(true);
    }
    expect(() => readFileSync(join(a, `media/${TRAVEL}/_thumbs/alps.png`))).toThrow();
    expect(() => readFileSync(join(a, 'media/plain/_thumbs/peak.jpg'))).toThrow();
    // The static document names the written thumbnail.
    const doc = JSON.parse(readFileSync(join(a, `api/${TRAVEL}/project-media/name/peak.jpg/index.json`), 'utf8')) as { thumb: string };
    expect(doc.thumb).toBe(`/media/${TRAVEL}/_thumbs/peak.jpg`);
  });
});
