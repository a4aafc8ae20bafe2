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

/**
 * A file whose reading waits for `bytes` and counts itself (at its stat, where readImage starts);
 * its handle says whether it was closed.
 */
function heldFile(name: string, bytes: Promise<Buffer>, reads: { n: number }) {
  const handle = {
    closed: false,
    stat: async () => {
      reads.n++;
      return { size: (await bytes).length };
    },
    read: async (into: Buffer, offset: number, length: number, position: number) => ({
      bytesRead: (await bytes).copy(into, offset, position, position + length),
    }),
    close: async () => {
      handle.closed = true;
    },
  };
  const stats = { size: 1, mtimeMs: 1, ino: name.length } as OpenedFile['stats'];
  return { file: { handle, stats, real: name } as unknown as OpenedFile, handle };
}

it('makes 2 at a time, lets 64 wait, and answers the rest busy at once, closing their files', async () => {
  const cache = new ThumbnailCache();
  let open!: (b: Buffer) => void;
  const image = new Promise<Buffer>((resolve) => (open = resolve));
  const reads = { n: 0 };
  const files = Array.from({ length: 70 }, (_, i) => heldFile(`held-${i}.png`, image, reads));
  const answers = files.map(({ file }) =>
    cache.get(file).then(
      () => 'made',
      (err: Error) => err.constructor.name,
    ),
  );
  // The 4 beyond 2 running + 64 waiting are refused before anything is read.
  const early = await Promise.race([Promise.all(answers.slice(66)), new Promise((r) => setTimeout(() => r('late'), 1000))]);
  expect(early).toEqual(['ThumbnailBusy', 'ThumbnailBusy', 'ThumbnailBusy', 'ThumbnailBusy']);
  expect(reads.n).toBe(2);
  expect(files.slice(66).every(({ handle }) => handle.closed)).toBe(true);
  open(
    await sharp({ create: { width: 60, height: 80, channels: 3, background: '#123456' } })
      .png()
      .toBuffer(),
  );
  expect((await Promise.all(answers)).slice(0, 66)).toEqual(Array(66).fill('made'));
  expect(reads.n).toBe(66);
  expect(files.every(({ handle }) => handle.closed)).toBe(true);
});

it('remembers a file that is no image: asked again, it is refused without being read', async () => {
  const cache = new ThumbnailCache();
  const reads = { n: 0 };
  const bad = () => heldFile('bad.png', Promise.resolve(Buffer.from('not an image')), reads);
  const first = bad();
  await expect(cache.get(first.file)).rejects.toThrow(/image header cannot be read/);
  const again = bad();
  await expect(cache.get(again.file)).rejects.toThrow(/image header cannot be read/);
  expect(reads.n).toBe(1);
  expect(again.handle.closed).toBe(true);
});
