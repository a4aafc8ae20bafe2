#!/usr/bin/env node
// Deterministic content generator for benchmarks (SPEC §6, P2–P6).
//
//   node scripts/generate-content.mjs --entries 100000 --out bench/data/content \   (--count: the same)
//        [--seed 1] [--format md|yaml|mixed] [--json-server bench/data/db.json] [--quiet]
//
// Writes <out>/bench/: project.yaml (token `bench-token`, scopes read+drafts), a collection
// `authors` of 50 entries, a collection `items` of N entries (~1 KiB each), a few small images in
// media/, and, last, <out>/.generate.json (the parameters, so callers can reuse a complete tree;
// the loader ignores it as it starts with '.').
// The same (entries, seed, format) always gives a byte-identical tree: a seeded PRNG (mulberry32),
// fixed base dates, no clock, no randomness from the platform. <out>/bench is deleted first so a
// smaller run never leaves stale entries behind.
//
// Library use:
//   import { generateContent, generateItems, exportJsonServerDb } from './generate-content.mjs';
//   const info = generateContent({ entries: 1000, out: dir, seed: 7, format: 'mixed' });
//   exportJsonServerDb(dir, 'db.json');        // or an array of items, or { entries, seed }
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';

export const PROJECT_ID = 'bench';
export const TOKEN = 'bench-token';
export const AUTHOR_COUNT = 50;
export const CATEGORIES = ['books', 'garden', 'kitchen', 'music', 'office', 'outdoor', 'sports', 'toys', 'travel', 'tools'];
export const TAGS = [
  'new',
  'sale',
  'eco',
  'gift',
  'bestseller',
  'limited',
  'handmade',
  'imported',
  'refurbished',
  'bundle',
  'vegan',
  'local',
];
export const MEDIA = ['covers/amber.png', 'covers/blue.png', 'covers/green.png', 'covers/grey.png', 'covers/red.png', 'covers/violet.png'];
const MEDIA_COLOURS = [
  [230, 160, 40],
  [50, 100, 200],
  [60, 160, 90],
  [128, 128, 128],
  [200, 50, 50],
  [130, 70, 180],
];
const BASE_TIME = Date.UTC(2020, 0, 1); // all dates are offsets from here
const DAY = 86_400_000;

const WORDS = (
  'amber anchor apple arch atlas autumn badge basket beacon birch blossom bold breeze brick bright bronze cabin ' +
  'canvas cedar chalk classic clay cloud coast cobalt compact copper coral cotton craft crisp crystal daily dawn ' +
  'delta desert drift dune early echo ember evening fable feather fern field flint forest fresh frost garden ' +
  'glacier glow golden granite harbor hazel heather hidden highland honey horizon indigo island ivory jade journey ' +
  'juniper kettle lagoon lantern lavender leaf light linen lunar maple marble meadow midnight mint misty modern ' +
  'moss mountain natural noble north oak ocean olive orchard pacific paper pebble pine plain polar prairie quartz ' +
  'quiet rain raven river rose rustic saffron sage salt sand sea shadow sierra silver simple slate smoke solar ' +
  'spring spruce steel stone storm summer sun timber trail tundra urban valley velvet vintage violet walnut ' +
  'willow winter wool yarrow zephyr'
).split(' ');
const NOUNS = [
  'lamp',
  'mug',
  'chair',
  'blanket',
  'notebook',
  'kettle',
  'backpack',
  'jacket',
  'candle',
  'bottle',
  'board',
  'basket',
  'speaker',
  'tent',
  'glove',
  'scarf',
  'bowl',
  'clock',
  'shelf',
  'stool',
  'pen',
  'map',
  'kit',
  'set',
];
const FIRST = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Elif',
  'Felix',
  'Greta',
  'Hassan',
  'Ida',
  'Jonas',
  'Kim',
  'Lena',
  'Marco',
  'Nora',
  'Omar',
  'Paula',
  'Quentin',
  'Rosa',
  'Sami',
  'Tara',
  'Umut',
  'Vera',
  'Wim',
  'Xenia',
  'Yusuf',
];
const LAST = [
  'Becker',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Garcia',
  'Hoffmann',
  'Ivanova',
  'Jansen',
  'Kowalski',
  'Lindqvist',
  'Meyer',
  'Novak',
  'Okafor',
  'Petrov',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Unger',
  'Weber',
];

/** mulberry32: a tiny, fast, well-distributed 32-bit PRNG. Returns floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (ms) => new Date(ms).toISOString();
const pad = (n, width) => String(n).padStart(width, '0');
export const itemId = (i, total) => `item-${pad(i + 1, Math.max(6, String(total).length))}`;
export const authorId = (i) => `author-${pad(i + 1, 2)}`;

/**
 * The N items, in id order, as plain objects (the same values the files hold). Deterministic for
 * a given (entries, seed). Reserved keys: id, locale, draft, created_at, updated_at, published_at.
 */
export function* generateItems({ entries, seed = 1 }) {
  const rnd = mulberry32(seed);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  for (let i = 0; i < entries; i++) {
    const id = itemId(i, entries);
    const adjective = pick(WORDS),
      adjective2 = pick(WORDS),
      noun = pick(NOUNS);
    const title = `${cap(adjective)} ${adjective2} ${noun} ${i + 1}`;
    // Prices from 0.50 to ~10,000, log-uniform; about a third are whole numbers.
    const raw = Math.exp(rnd() * Math.log(20_000)) / 2;
    const price = rnd() < 0.33 ? Math.max(1, Math.round(raw)) : Math.round(raw * 100) / 100;
    const stock = rnd() < 0.15 ? 0 : int(1, 5000);
    const tags = [];
    const tagCount = int(0, 3);
    for (let t = 0; t < tagCount; t++) {
      const tag = pick(TAGS);
      if (!tags.includes(tag)) tags.push(tag);
    }
    const created = BASE_TIME + Math.floor(rnd() * 4 * 365 * DAY);
    const updated = created + Math.floor(rnd() * 200 * DAY);
    const draft = rnd() < 0.02;
    const published = draft ? null : created + Math.floor(rnd() * 3 * DAY);
    const available = created + Math.floor(rnd() * 400 * DAY);
    const sentences = [];
    let length = 0;
    while (length < 560) {
      const n = int(6, 14);
      const words = [];
      for (let w = 0; w < n; w++) words.push(rnd() < 0.15 ? pick(NOUNS) : pick(WORDS));
      const sentence = `${cap(words.join(' '))}${rnd() < 0.1 ? '!' : '.'}`;
      sentences.push(rnd() < 0.08 ? `**${sentence}**` : sentence);
      length += sentence.length + 1;
    }
    yield {
      id,
      locale: rnd() < 0.1 ? 'de' : 'en',
      draft,
      title,
      slug: `${adjective}-${adjective2}-${noun}-${i + 1}`,
      price,
      stock,
      in_stock: stock > 0,
      category: pick(CATEGORIES),
      tags,
      published: iso(published ?? created).slice(0, 10),
      available_at: iso(available),
      rating: Math.round((1 + rnd() * 4) * 10) / 10,
      author: authorId(int(0, AUTHOR_COUNT - 1)),
      cover: pick(MEDIA),
      body: sentences.join(' '),
      created_at: iso(created),
      updated_at: iso(updated),
      published_at: published === null ? null : iso(published),
    };
  }
}
function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// JSON strings are valid YAML 1.2 double-quoted scalars: safe quoting for any text.
const q = JSON.stringify;
function frontMatter(item) {
  let s = `title: ${q(item.title)}\nslug: ${item.slug}\n`;
  if (item.locale !== 'en') s += `locale: ${item.locale}\n`;
  if (item.draft) s += 'draft: true\n';
  s += `price: ${item.price}\nstock: ${item.stock}\nin_stock: ${item.in_stock}\ncategory: ${item.category}\n`;
  s += `tags: [${item.tags.join(', ')}]\npublished: ${item.published}\navailable_at: ${item.available_at}\n`;
  s += `rating: ${item.rating}\nauthor: ${item.author}\ncover: ${item.cover}\n`;
  s += `created_at: ${item.created_at}\nupdated_at: ${item.updated_at}\n`;
  if (item.published_at) s += `published_at: ${item.published_at}\n`;
  return s;
}
function itemFile(item, format, rnd) {
  const md = format === 'md' || (format === 'mixed' && rnd() < 0.5);
  if (md) return [`${item.id}.md`, `---\n${frontMatter(item)}---\n\n${item.body}\n`];
  return [`${item.id}.yaml`, `${frontMatter(item)}body: |-\n  ${item.body}\n`];
}

const ITEMS_COLLECTION = `name: Items
sort: id:asc
body_field: body
fields:
  title: { type: text, required: true }
  slug: slug
  price: { type: number, required: true }
  stock: number
  in_stock: boolean
  category: { type: enumeration, values: [${CATEGORIES.join(', ')}] }
  tags: { type: enumeration, multiple: true, values: [${TAGS.join(', ')}] }
  published: date
  available_at: datetime
  rating: number
  author: { type: relation, collection: authors }
  cover: media
  body: markdown
`;
const AUTHORS_COLLECTION = `name: Authors
fields:
  name: { type: text, required: true }
  email: email
  bio: longtext
`;
const PROJECT = `id: ${PROJECT_ID}
name: Benchmark data
description: Generated by scripts/generate-content.mjs
default_locale: en
locales: [en, de]
public: false
tokens:
  - name: bench
    token: ${TOKEN}
    scopes: [read, drafts]
`;

/**
 * Writes the content tree (see the header). Returns { root, project, entries, drafts, files, bytes, ms }.
 * Sync writes: one syscall sequence per file with no scheduling overhead is the fastest way to
 * create many small files from one thread (~100,000 files in a few seconds).
 */
export function generateContent({ entries, out, seed = 1, format = 'mixed' } = {}) {
  if (!Number.isInteger(entries) || entries < 0) throw new TypeError('entries must be a non-negative integer');
  if (!out) throw new TypeError('out is required');
  if (!['md', 'yaml', 'mixed'].includes(format)) throw new TypeError(`format must be md, yaml or mixed, not ${format}`);
  const started = performance.now();
  const root = resolve(out);
  const project = join(root, PROJECT_ID);
  const stamp = join(root, '.generate.json');
  rmSync(stamp, { force: true }); // written last: its presence means the tree is complete
  rmSync(project, { recursive: true, force: true });
  for (const d of ['items', 'authors', 'media/covers']) mkdirSync(join(project, d), { recursive: true });
  let files = 0,
    bytes = 0;
  const write = (path, data) => {
    writeFileSync(path, data);
    files++;
    bytes += Buffer.byteLength(data);
  };

  write(join(project, 'project.yaml'), PROJECT);
  write(join(project, 'items', '_collection.yaml'), ITEMS_COLLECTION);
  write(join(project, 'authors', '_collection.yaml'), AUTHORS_COLLECTION);
  const arnd = mulberry32(seed ^ 0x5eed);
  for (let a = 0; a < AUTHOR_COUNT; a++) {
    const first = FIRST[Math.floor(arnd() * FIRST.length)],
      last = LAST[Math.floor(arnd() * LAST.length)];
    write(
      join(project, 'authors', `${authorId(a)}.yaml`),
      `name: ${first} ${last}\nemail: ${first.toLowerCase()}.${last.toLowerCase()}${a + 1}@example.com\n` +
        `bio: Writes about ${CATEGORIES[a % CATEGORIES.length]}.\ncreated_at: ${iso(BASE_TIME + a * DAY)}\nupdated_at: ${iso(BASE_TIME + a * DAY)}\n`,
    );
  }
  MEDIA.forEach((m, k) => {
    write(join(project, 'media', m), tinyPng(32, 32, MEDIA_COLOURS[k]));
  });
  write(
    join(project, 'media', '_media.yaml'),
    MEDIA.map((m) => `${m}:\n  caption: ${q(`Cover ${m}`)}\n  alt: ${q(`A plain square`)}\n`).join(''),
  );

  const frnd = mulberry32(seed ^ 0xf11e); // file-format choice, independent of the values
  let drafts = 0;
  const dir = join(project, 'items');
  for (const item of generateItems({ entries, seed })) {
    if (item.draft) drafts++;
    const [name, text] = itemFile(item, format, frnd);
    write(join(dir, name), text);
  }
  write(stamp, `${JSON.stringify({ entries, seed, format })}\n`);
  return { root, project, entries, drafts, files, bytes, ms: Math.round(performance.now() - started) };
}

/**
 * The same items as json-server 0.17's db.json: `{"items": [flat objects]}`, published items only
 * (what the API answers without `state`), in id order, with `id` kept as json-server's key.
 * `source`: an array of items, `{ entries, seed }`, or a directory written by generateContent
 * (its .generate.json is read and the items regenerated — identical by construction).
 * Writes `file` when given; returns { items: count, file } or, without a file, the db object.
 */
export function exportJsonServerDb(source, file) {
  let items;
  if (Array.isArray(source)) items = source;
  else if (typeof source === 'string') {
    const params = JSON.parse(readFileSync(join(source, '.generate.json'), 'utf8'));
    items = generateItems(params);
  } else items = generateItems(source);
  const flat = (item) => {
    const { draft: _draft, ...row } = item;
    return row;
  };
  if (!file)
    return {
      items: Array.from(items)
        .filter((i) => !i.draft)
        .map(flat),
    };
  // Streamed in ~1 MiB chunks: 100,000 rows never sit in memory as one array or string.
  const fd = openSync(file, 'w');
  let count = 0,
    chunk = '{"items":[\n';
  try {
    for (const item of items) {
      if (item.draft) continue;
      chunk += `${count++ ? ',\n' : ''}${JSON.stringify(flat(item))}`;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, `${chunk}\n]}\n`);
  } finally {
    closeSync(fd);
  }
  return { items: count, file };
}

// A solid-colour RGB PNG with a one-pixel darker border (valid, tiny, deterministic).
const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
/** One PNG chunk: length, type, data, CRC. */
export function pngChunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
export function tinyPng(w, h, [r, g, b]) {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const edge = x === 0 || y === 0 || x === w - 1 || y === h - 1 ? 0.6 : 1;
      raw.set([r * edge, g * edge, b * edge].map(Math.round), y * (w * 3 + 1) + 1 + x * 3);
    }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// ------------------------------------------------------------------------------------------ CLI
const USAGE =
  'Usage: node scripts/generate-content.mjs --entries N (or --count N) --out DIR [--seed S] [--format md|yaml|mixed] [--json-server FILE] [--quiet]';
function parseArgs(argv) {
  const opts = { seed: 1, format: 'mixed', quiet: false };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    const value = () => {
      const v = argv[++k];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--entries' || a === '--count') opts.entries = Number(value());
    else if (a === '--out') opts.out = value();
    else if (a === '--seed') opts.seed = Number(value());
    else if (a === '--format') opts.format = value();
    else if (a === '--json-server') opts.jsonServer = value();
    else if (a === '--quiet') opts.quiet = true;
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  if (!Number.isInteger(opts.entries) || opts.entries < 0) throw new Error('--entries must be a non-negative integer');
  if (!opts.out) throw new Error('--out is required');
  if (!Number.isInteger(opts.seed)) throw new Error('--seed must be an integer');
  return opts;
}

if (process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`${err.message}\n${USAGE}`);
    process.exit(2);
  }
  const info = generateContent(opts);
  if (!opts.quiet) {
    console.log(
      `wrote ${info.entries} items (${info.drafts} drafts), ${info.files} files, ` +
        `${(info.bytes / 1048576).toFixed(1)} MiB to ${info.project} in ${info.ms} ms`,
    );
  }
  if (opts.jsonServer) {
    const t = performance.now();
    const r = exportJsonServerDb({ entries: opts.entries, seed: opts.seed }, opts.jsonServer);
    if (!opts.quiet) console.log(`wrote ${r.items} published items to ${r.file} in ${Math.round(performance.now() - t)} ms`);
  }
}
