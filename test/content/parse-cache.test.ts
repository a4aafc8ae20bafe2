import { createHmac } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { LoadResult } from '../../src/node/content/load.js';
import { MTIME, png, writeTree } from './helpers.js';
import { makeTempDir } from '../temp-roots.js';

const CACHE = '.cqa-cache/parse.json';
// The signing key's folder (cache-key.ts) for these tests, instead of the user's own.
const KEYS = mkdtempSync(join(tmpdir(), 'cqa-keys-'));

const TREE = {
  'demo/project.yaml': 'name: Demo\nlocales: [en]\ntokens:\n  - name: dev\n    token: dev-token\n',
  'demo/posts/_collection.yaml': 'body_field: body\nfields:\n  title: { type: text, required: true }\n  price: number\n  body: richtext\n',
  'demo/posts/hello.md': '---\ntitle: Hello\nprice: 3\n---\nSome **bold** text.\n',
  'demo/posts/broken.md': '---\ntitle: Broken\nprice: cheap\n---\nBody.\n',
  'demo/posts/unclosed.md': '---\ntitle: [unclosed\n---\n',
  'demo/media/pic.png': png(3, 2),
};

/**
 * A load in a fresh module graph, as a new process would do it: the process-wide memo of parse
 * results (parse-memo.ts) would otherwise answer before the cache is asked.
 */
async function freshLoad(root: string, cache: boolean): Promise<LoadResult> {
  vi.resetModules();
  const [{ loadContent }, { openParseCache }] = await Promise.all([
    import('../../src/node/content/load.js'),
    import('../../src/node/content/parse-cache.js'),
  ]);
  return loadContent(root, cache ? { parseCache: openParseCache(root, KEYS) } : {});
}

/** The JSON part of a cache file (after its HMAC line). */
const cacheBody = (root: string) => readFileSync(join(root, CACHE), 'utf8').replace(/^[^\n]*\n/, '');

/** Writes `body` as cqa itself would: signed with the key these tests use. */
function writeSigned(root: string, body: string): void {
  const key = readFileSync(join(KEYS, 'parse-cache.key'));
  writeFileSync(join(root, CACHE), `${createHmac('sha256', key).update(body).digest('base64url')}\n${body}`);
}

const plain = (r: LoadResult) => JSON.parse(JSON.stringify(r)) as unknown;

describe('the parse cache (<content>/.cqa-cache/)', () => {
  it('gives the same model, errors and warnings from a warm cache as without one, and is not content', async () => {
    const root = writeTree(TREE);
    const without = await freshLoad(root, false);
    expect(without.issues.length).toBe(2);
    expect(without.warnings.length).toBe(1);
    const first = await freshLoad(root, true);
    expect(existsSync(join(root, CACHE))).toBe(true);
    expect(readFileSync(join(root, '.cqa-cache/.gitignore'), 'utf8')).toMatch(/^\*$/m);
    // Only its owner may read it (a project.yaml may hold tokens).
    expect(statSync(join(root, CACHE)).mode & 0o077).toBe(0);
    expect(statSync(join(root, '.cqa-cache')).mode & 0o077).toBe(0);
    const warm = await freshLoad(root, true);
    expect(plain(first)).toEqual(plain(without));
    expect(plain(warm)).toEqual(plain(without));
  });

  it('keeps a value with a list of 300,000 items, as a load without it does (found from outside: cqa serve refused such a file that check and build passed, "Maximum call stack size exceeded")', async () => {
    const items = Array.from({ length: 300_000 }, (_, i) => i % 10);
    const root = writeTree({
      'p/project.yaml': 'name: P\npublic: true\nlocales: [en]\n',
      'p/posts/wide.json': JSON.stringify({ title: 'Wide', meta: items }),
    });
    const without = await freshLoad(root, false);
    expect(without.issues).toEqual([]);
    const first = await freshLoad(root, true);
    expect(first.issues).toEqual([]);
    const warm = await freshLoad(root, true);
    expect(warm.issues).toEqual([]);
    expect(warm.model.projects[0]?.collections[0]?.entries[0]?.values.meta).toEqual(items);
  });

  it('is read on the next start: what it holds for a text is what that text gives', async () => {
    const root = writeTree(TREE);
    await freshLoad(root, true);
    // Changed and signed with the key, as only cqa run by this user could: then it is believed.
    const planted = cacheBody(root)
      .replace('"title":"Hello"', '"title":"From the cache"')
      .replace('<strong>bold</strong>', '<em>from the cache</em>');
    writeSigned(root, planted);
    const warm = await freshLoad(root, true);
    const hello = warm.model.projects[0]?.collections[0]?.entries.find((e) => e.id === 'hello');
    expect(JSON.stringify(hello)).toContain('"From the cache"');
    expect(JSON.stringify(hello)).toContain('<em>from the cache</em>');
  });

  it('parses a file again when its text changed, even with the same size and mtime', async () => {
    const root = writeTree(TREE);
    await freshLoad(root, true);
    const file = join(root, 'demo/posts/hello.md');
    writeFileSync(file, '---\ntitle: Howdy\nprice: 4\n---\nSome **bold** text.\n');
    utimesSync(file, MTIME, MTIME);
    const warm = await freshLoad(root, true);
    const hello = warm.model.projects[0]?.collections[0]?.entries.find((e) => e.id === 'hello');
    expect(JSON.stringify(hello)).toContain('"Howdy"');
    expect(JSON.stringify(hello)).not.toContain('"Hello"');
  });

  it('ignores a corrupt cache file or one of another version, and writes it anew', async () => {
    const root = writeTree(TREE);
    const without = await freshLoad(root, false);
    for (const junk of ['{"cqa": "0.0.0/1", "results": {}, "html": {}}', 'not json at all', '{"cqa": "', 'null']) {
      mkdirSync(join(root, '.cqa-cache'), { recursive: true });
      writeFileSync(join(root, CACHE), junk);
      expect(plain(await freshLoad(root, true))).toEqual(plain(without));
      expect(JSON.parse(cacheBody(root))).toMatchObject({ results: expect.any(Object) });
    }
    // Of this version and signed, but its results of another shape: parsed again.
    const stored = JSON.parse(cacheBody(root)) as { results: Record<string, unknown> };
    for (const key of Object.keys(stored.results))
      stored.results[key] = key.startsWith('image:') ? { width: 'wide' } : { data: 5, value: 1 };
    writeSigned(root, JSON.stringify(stored));
    expect(plain(await freshLoad(root, true))).toEqual(plain(without));
  });

  it('loads as usual when the cache cannot be written, and never reads through a symlink', async () => {
    const root = writeTree({ ...TREE, '.cqa-cache': 'a file where the folder would be' });
    const without = await freshLoad(root, false);
    expect(plain(await freshLoad(root, true))).toEqual(plain(without));
    expect(readFileSync(join(root, '.cqa-cache'), 'utf8')).toBe('a file where the folder would be');

    // A cache file that points outside the tree, planted with a result for hello.md's text: not read.
    const other = writeTree(TREE);
    await freshLoad(other, true);
    const outside = join(makeTempDir('cqa-outside-'), 'parse.json');
    writeFileSync(
      outside,
      readFileSync(join(other, CACHE), 'utf8')
        .replace('"title":"Hello"', '"title":"outside"')
        .replace('<strong>bold</strong>', '<em>outside</em>'),
    );
    const linked = writeTree(TREE);
    mkdirSync(join(linked, '.cqa-cache'));
    symlinkSync(outside, join(linked, CACHE));
    expect(JSON.stringify(await freshLoad(linked, true))).not.toContain('outside');
    const linkedFolder = writeTree(TREE);
    symlinkSync(dirname(outside), join(linkedFolder, '.cqa-cache'));
    expect(JSON.stringify(await freshLoad(linkedFolder, true))).not.toContain('outside');
  });

  it('never writes through a link planted in a committed .cqa-cache/ (found from outside: a file outside the tree was overwritten)', async () => {
    const victim = join(makeTempDir('cqa-victim-'), 'authorized_keys');
    writeFileSync(victim, 'the operator’s own\n');
    const root = writeTree(TREE);
    mkdirSync(join(root, '.cqa-cache'));
    // Links at the names a writer could guess (the old one took `parse.json.<pid>.tmp`) and at the cache itself.
    for (const name of [`parse.json.${process.pid}.tmp`, 'parse.json.tmp', 'parse.json'])
      symlinkSync(victim, join(root, '.cqa-cache', name));
    await freshLoad(root, true);
    expect(readFileSync(victim, 'utf8')).toBe('the operator’s own\n');
    // The cache is written beside the links, as a file of its own, and read on the next start.
    expect(lstatSync(join(root, CACHE)).isFile()).toBe(true);
    expect(cacheBody(root)).toContain('"title":"Hello"');
  });

  it('leaves no temporary file behind when it cannot put the cache in place (found from outside: one, with tokens, per start)', async () => {
    const root = writeTree(TREE);
    mkdirSync(join(root, CACHE), { recursive: true }); // a folder where the file goes: the rename fails
    await freshLoad(root, true);
    await freshLoad(root, true);
    expect(readdirSync(join(root, '.cqa-cache'))).toEqual(['parse.json']);
  });

  // Issue 20, item 11: the folder is hidden and git-ignored, so a planted or edited cache is seen
  // by no review. Without the key (kept outside the tree) it must change nothing that is served.
  describe('a cache not signed with the key', () => {
    const TAMPERED_HTML = '<script>alert(document.cookie)</script>';
    const tamper = (body: string) => body.replace('<strong>bold</strong>', TAMPERED_HTML).replace('"title":"Hello"', '"title":"Tampered"');
    const hello = (r: LoadResult) => JSON.stringify(r.model.projects[0]?.collections[0]?.entries.find((e) => e.id === 'hello'));

    it('serves the richtext rendered from the file, not HTML edited into the cache', async () => {
      const root = writeTree(TREE);
      await freshLoad(root, true);
      // Edited in place: the HMAC line stays as it was.
      writeFileSync(join(root, CACHE), tamper(readFileSync(join(root, CACHE), 'utf8')));
      const warm = await freshLoad(root, true);
      expect(hello(warm)).not.toContain('<script>');
      expect(hello(warm)).not.toContain('Tampered');
      expect(hello(warm)).toContain('<strong>bold</strong>');
      // And the cache is written anew from the files.
      expect(cacheBody(root)).not.toContain('<script>');
    });

    it('ignores a cache in the old unsigned format, or one signed with another key', async () => {
      const root = writeTree(TREE);
      await freshLoad(root, true);
      const body = tamper(cacheBody(root));
      const otherKey = createHmac('sha256', 'another user').update(body).digest('base64url');
      for (const planted of [body, `${otherKey}\n${body}`, `\n${body}`]) {
        writeFileSync(join(root, CACHE), planted);
        const warm = await freshLoad(root, true);
        expect(hello(warm)).not.toContain('<script>');
        expect(hello(warm)).toContain('<strong>bold</strong>');
      }
    });

    it('keeps nothing when the key could be read by others', async () => {
      const keys = mkdtempSync(join(tmpdir(), 'cqa-keys-'));
      writeFileSync(join(keys, 'parse-cache.key'), Buffer.alloc(32, 7));
      chmodSync(join(keys, 'parse-cache.key'), 0o644);
      const root = writeTree(TREE);
      vi.resetModules();
      const [{ loadContent }, { openParseCache }] = await Promise.all([
        import('../../src/node/content/load.js'),
        import('../../src/node/content/parse-cache.js'),
      ]);
      const loaded = await loadContent(root, { parseCache: openParseCache(root, keys) });
      expect(hello(loaded)).toContain('<strong>bold</strong>');
      expect(existsSync(join(root, CACHE))).toBe(false);
    });

    it('makes its key outside the tree, readable by its owner only', async () => {
      const root = writeTree(TREE);
      await freshLoad(root, true);
      expect(statSync(join(KEYS, 'parse-cache.key')).mode & 0o077).toBe(0);
      expect(statSync(join(KEYS, 'parse-cache.key')).size).toBe(32);
    });
  });
});
