// Documents too long for one string (a collection list of a million entries is ~1 GB, over V8's
// longest string): the dist writer makes each document from pieces (document-pieces.ts) and streams
// the long ones (dist-large.ts). The pieces must join to exactly the served document, and a
// streamed file and its siblings must hold exactly those bytes.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/load.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { writeLargeDocument } from '../../src/node/output/dist-large.js';
import { documentPieces } from '../../src/core/snapshot/document-pieces.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-large-documents-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('documentPieces', () => {
  it('joins to the document of every path of the sample (both dialects), a list in one piece per entry', async () => {
    const { model, issues } = await loadContent('content');
    expect(issues).toEqual([]);
    const snapshot = createSnapshot(model);
    const dialects = new Set<string>();
    for (const path of snapshot.paths) {
      const pieces = documentPieces(snapshot, path) ?? [];
      expect(pieces.join(''), path).toBe(snapshot.document(path));
      const [, , project, collection, id] = path.split('/');
      const col = snapshot.projects.get(project as string)?.collections.get(collection as string);
      if (col && id === undefined && col.publishedCount > 1) {
        dialects.add(snapshot.projects.get(project as string)?.dialect.name as string);
        // head, then entry, separator, entry, …, then tail
        expect(pieces.length, path).toBe(2 * col.publishedCount + 1);
      }
    }
    expect([...dialects].sort()).toEqual(['cqa', 'elmapi', 'elmapi3']);
    expect(documentPieces(snapshot, '/api/nope/posts')).toBeUndefined();
  });
});

describe('writeLargeDocument', () => {
  it('streams the pieces into the file and its .gz/.br siblings, byte for byte', async () => {
    // ~3 MiB over several chunks, with multi-byte characters (a chunk ends inside no character).
    const pieces = ['{"data":['];
    for (let i = 0; i < 20_000; i++)
      pieces.push(i === 0 ? '' : ',', JSON.stringify({ id: `e-${i}`, title: `Grüße ${'ä€𝄞'.repeat(i % 40)}`, n: i }));
    pieces.push(']}');
    const expected = Buffer.from(pieces.join(''), 'utf8');
    const target = join(work, 'list.json');
    const sizes = await writeLargeDocument(target, pieces, { gzip: true, br: true }, undefined);
    expect(readFileSync(target).equals(expected)).toBe(true);
    expect(gunzipSync(readFileSync(`${target}.gz`)).equals(expected)).toBe(true);
    expect(brotliDecompressSync(readFileSync(`${target}.br`)).equals(expected)).toBe(true);
    expect(sizes).toEqual([target, `${target}.gz`, `${target}.br`].map((f) => statSync(f).size));
  });

  it('writes only the document when no sibling is asked for', async () => {
    const target = join(work, 'plain.json');
    expect(await writeLargeDocument(target, ['[', '1', ',', '2', ']'], { gzip: false, br: false }, undefined)).toEqual([5]);
    expect(readFileSync(target, 'utf8')).toBe('[1,2]');
  });
});
