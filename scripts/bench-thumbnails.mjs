#!/usr/bin/env node
// What thumbnails (the `elmapi` dialect's `thumb`) cost: making one, the first and a cached request
// to `cqa serve`, and `cqa build` of a project with and without them. Photo-like images (noise on
// a gradient: JPEG does not compress them to nothing). Run after `npm run build:ts`:
//   node scripts/bench-thumbnails.mjs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createSnapshot, loadContent, startServer, writeDist } from '../lib/index.js';
import { makeThumbnail } from '../lib/node/output/thumbnail.js';

function photo(width, height, format, seed = 1) {
  const px = Buffer.alloc(width * height * 3);
  let s = seed;
  for (let i = 0; i < px.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const y = Math.floor(i / 3 / width);
    px[i] = ((y * 200) / height + (s >>> 27)) & 255;
  }
  return sharp(px, { raw: { width, height, channels: 3 } })
    [format]()
    .toBuffer();
}

const ms = (t) => `${t.toFixed(1)} ms`;
async function time(fn, runs = 5) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  out.sort((a, b) => a - b);
  return out[Math.floor(runs / 2)];
}

const get = (url) =>
  new Promise((done, fail) => {
    request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode));
    })
      .on('error', fail)
      .end();
  });

const work = mkdtempSync(join(tmpdir(), 'cqa-bench-thumbs-'));
try {
  console.log('makeThumbnail (median of 5):');
  const images = [];
  for (const [w, h, f] of [
    [1600, 1200, 'jpeg'],
    [4000, 3000, 'jpeg'],
    [4000, 3000, 'png'],
    [4000, 3000, 'webp'],
  ]) {
    const bytes = await photo(w, h, f);
    images.push({ w, h, f, bytes });
    const t = await time(() => makeThumbnail(bytes));
    const thumb = await makeThumbnail(bytes);
    console.log(`  ${w}×${h} ${f} (${(bytes.length / 1024).toFixed(0)} KB) → ${(thumb.length / 1024).toFixed(0)} KB: ${ms(t)}`);
  }

  // A project with 20 photos 4000×3000 JPEG.
  const count = 20;
  const root = join(work, 'content');
  mkdirSync(join(root, 'p/media'), { recursive: true });
  writeFileSync(join(root, 'p/project.yaml'), 'name: P\nlocales: [en]\npublic: true\ndialect: elmapi\n');
  for (let i = 0; i < count; i++) writeFileSync(join(root, `p/media/photo-${i}.jpg`), await photo(4000, 3000, 'jpeg', i + 1));
  const { model } = await loadContent(root);
  const snapshot = createSnapshot(model);

  const server = await startServer({ snapshot });
  const url = (i) => `${server.url}/thumbs/p/photo-${i}.jpg`;
  let t = performance.now();
  if ((await get(url(0))) !== 200) throw new Error('no thumbnail');
  console.log(`cqa serve, first request of a thumbnail (4000×3000 JPEG): ${ms(performance.now() - t)}`);
  console.log(`cqa serve, the same thumbnail again (cached): ${ms(await time(() => get(url(0)), 21))}`);
  t = performance.now();
  await Promise.all(Array.from({ length: count - 1 }, (_, i) => get(url(i + 1))));
  console.log(`cqa serve, ${count - 1} other thumbnails at once: ${ms(performance.now() - t)}`);
  await server.close();

  t = performance.now();
  await writeDist(snapshot, { out: join(work, 'dist') });
  const withThumbs = performance.now() - t;
  const plain = createSnapshot({ projects: model.projects.map((p) => ({ ...p, dialect: 'cqa' })) });
  t = performance.now();
  await writeDist(plain, { out: join(work, 'dist-cqa') });
  console.log(
    `cqa build of ${count} photos 4000×3000: ${ms(withThumbs)} with thumbnails (elmapi), ${ms(performance.now() - t)} without (cqa)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
