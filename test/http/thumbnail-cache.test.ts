// The serve-side thumbnail cache (src/node/server/thumbnails.ts): a thumbnail is made once per file
// version and kept within the byte budget, least recently used out.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openInside, ServedRoot, type OpenedFile } from '../../src/node/server/open-file.js';
import { ThumbnailCache } from '../../src/node/server/thumbnails.js';

const dir = mkdtempSync(join(tmpdir(), 'cqa-thumb-cache-'));
const root = new ServedRoot(dir);
const open = async (name: string) => (await openInside(root, name)) as OpenedFile;

beforeAll(async () => {
  for (const [name, background] of [
    ['a.png', '#ff0000'],
    ['b.png', '#00ff00'],
  ] as const) {
    writeFileSync(
      join(dir, name),
      await sharp({ create: { width: 900, height: 1200, channels: 3, background } })
        .png()
        .toBuffer(),
    );
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('makes a thumbnail once and answers the same one again', async () => {
  const cache = new ThumbnailCache();
  const first = await cache.get(await open('a.png'));
  expect(imageSize(first.bytes)).toMatchObject({ width: 450, height: 600 });
  expect(await cache.get(await open('a.png'))).toBe(first);
});

it('keeps within its budget: the least recently used thumbnail goes first', async () => {
  const cache = new ThumbnailCache(1); // room for one thumbnail: the newest is always kept
  const a = await cache.get(await open('a.png'));
  expect(await cache.get(await open('a.png'))).toBe(a);
  await cache.get(await open('b.png'));
  const again = await cache.get(await open('a.png'));
  expect(again).not.toBe(a); // made again
  expect(again.bytes.equals(a.bytes)).toBe(true);
});

it('an edited file gets a new thumbnail', async () => {
  const cache = new ThumbnailCache();
  const before = await cache.get(await open('a.png'));
  writeFileSync(
    join(dir, 'a.png'),
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#0000ff' } })
      .png()
      .toBuffer(),
  );
  const after = await cache.get(await open('a.png'));
  expect(imageSize(after.bytes)).toMatchObject({ width: 800, height: 600 });
  expect(after.tag).not.toBe(before.tag);
});
