// Test helpers: content trees written to a temp folder, and a tiny real PNG.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { loadContent, type LoadResult } from '../../src/node/content/load.js';
import type { CollectionRecord, ProjectRecord } from '../../src/core/model/model.js';
import { makeTempDir, removeAfterFile } from '../temp-roots.js';

export type Tree = Record<string, string | Uint8Array>;

/** Every file gets this mtime, so timestamp fallbacks are predictable. */
export const MTIME = new Date('2020-01-02T03:04:05.678Z');

export function writeTree(tree: Tree, root = makeTempDir('cqa-content-')): string {
  removeAfterFile(root);
  for (const [path, content] of Object.entries(tree)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    utimesSync(file, MTIME, MTIME);
  }
  return root;
}

const PROJECT = 'p/project.yaml';

/** A tree with a default project.yaml unless the tree has its own. */
export async function load(tree: Tree, options?: { drafts?: boolean }): Promise<LoadResult & { root: string }> {
  const root = writeTree({ [PROJECT]: 'name: P\nlocales: [en, de]\npublic: true\n', ...tree });
  return { ...(await loadContent(root, options)), root };
}

export function project(r: LoadResult, id = 'p'): ProjectRecord {
  const p = r.model.projects.find((x) => x.id === id);
  if (!p) throw new Error(`no project ${id}: ${JSON.stringify(r.issues)}`);
  return p;
}

export function collection(r: LoadResult, slug: string, projectId = 'p'): CollectionRecord {
  const c = project(r, projectId).collections.find((x) => x.slug === slug);
  if (!c) throw new Error(`no collection ${slug}: ${JSON.stringify(r.issues)}`);
  return c;
}

export function entry(r: LoadResult, slug: string, id: string) {
  const e = collection(r, slug).entries.find((x) => x.id === id);
  if (!e) throw new Error(`no entry ${slug}/${id}: ${JSON.stringify(r.issues)}`);
  return e;
}

// --- a real PNG --------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid greyscale PNG of the given size. */
export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height); // filter byte 0 + black pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array()),
  ]);
}
