// A second `cqa pull --media` reuses the earlier pull's file when the server answers 304. It used
// to copy it with copyFile, which follows links: a link planted in the earlier media/ (to a key
// outside the tree) landed the outside file in the new tree, which `cqa serve` then publishes.
// Now a file is reused only when it is a regular file at its own place; otherwise it is downloaded.
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pull, type PullOptions } from '../../src/node/pull/pull.js';
import { tempDir } from './fixture.js';

const FILE = 'server-bytes';
const SECRET = 'SECRET-KEY-1'; // the same length as FILE: the size check alone would not notice
let server: Server;
let url = '';
let downloads = 0;

beforeEach(async () => {
  downloads = 0;
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (v: unknown) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(v));
    if (path === '/api/p') return json({ data: { id: 'p', name: 'P', collections: [] } });
    if (path === '/api/p/project-media')
      return json({ data: [{ id: 'dir/a.txt', full_url: '/files/a.txt', size: FILE.length }], meta: { total: 1 } });
    if (path === '/files/a.txt') {
      if (req.headers['if-none-match'] === '"v1"') return res.writeHead(304).end();
      downloads++;
      return res.writeHead(200, { ETag: '"v1"' }).end(FILE);
    }
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

function outside(): string {
  const dir = tempDir('cqa-outside-');
  writeFileSync(join(dir, 'a.txt'), SECRET);
  return dir;
}

async function twoPulls(plant: (media: string) => void) {
  const o: PullOptions = { baseUrl: url, project: 'p', dialect: 'cqa', out: tempDir(), media: true, tries: 1 };
  await pull(o);
  expect(downloads).toBe(1);
  plant(join(o.out, 'p/media'));
  const second = await pull(o);
  const file = join(o.out, 'p/media/dir/a.txt');
  return { second, file, text: readFileSync(file, 'utf8'), link: lstatSync(file).isSymbolicLink() };
}

describe('a second pull with links planted in the earlier media/', () => {
  it('reuses an unchanged regular file (304), as before', async () => {
    const r = await twoPulls(() => undefined);
    expect(r.text).toBe(FILE);
    expect(r.second.mediaReused).toBe(1);
    expect(downloads).toBe(1);
  });

  it('a file swapped for a link to an outside file is downloaded again, never copied through the link', async () => {
    const dir = outside();
    const r = await twoPulls((media) => {
      rmSync(join(media, 'dir/a.txt'));
      symlinkSync(join(dir, 'a.txt'), join(media, 'dir/a.txt'));
    });
    expect(r.text).toBe(FILE);
    expect(r.link).toBe(false);
    expect(r.second.mediaReused).toBe(0);
    expect(downloads).toBe(2);
  });

  it('a folder swapped for a link to an outside folder is not followed either', async () => {
    const dir = outside();
    const r = await twoPulls((media) => {
      renameSync(join(media, 'dir'), join(media, 'old'));
      symlinkSync(dir, join(media, 'dir'));
    });
    expect(r.text).toBe(FILE);
    expect(r.second.mediaReused).toBe(0);
  });

  it('media/ itself swapped for a link to an outside folder is not followed', async () => {
    const dir = outside();
    mkdirSync(join(dir, 'dir'));
    writeFileSync(join(dir, 'dir/a.txt'), SECRET);
    const r = await twoPulls((media) => {
      rmSync(media, { recursive: true });
      symlinkSync(dir, media);
    });
    expect(r.text).toBe(FILE);
    expect(r.second.mediaReused).toBe(0);
  });
});
