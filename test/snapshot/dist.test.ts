import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { DistError, writeDist } from '../../src/node/output/dist.js';
import type { ContentModel } from '../../src/core/model/model.js';
import { DRAFT_VALUE, entry, fixtureModel, HIDDEN_VALUE, listFiles, mediaFiles, TOKEN, TOKEN_SHA } from './fixture.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-dist-'));
const { dir: mediaDir, media } = mediaFiles();
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(mediaDir, { recursive: true, force: true });
});

function treeDigest(dir: string): Map<string, string> {
  return new Map(
    listFiles(dir).map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );
}

const snapshot = createSnapshot(fixtureModel(media), { baseUrl: 'https://cdn.test' });

describe('writeDist', () => {
  const out = join(work, 'dist');
  let result: { files: number; bytes: number };

  it('writes every document, its .gz/.br siblings (precompress: all), the media, openapi, manifest and host files', async () => {
    result = await writeDist(snapshot, { out, precompress: 'all' });
    const files = listFiles(out);
    for (const p of snapshot.paths) {
      const rel = `${p.slice(1)}/index.json`;
      expect(readFileSync(join(out, rel), 'utf8')).toBe(snapshot.document(p));
      expect(files).toContain(`${rel}.gz`);
      expect(files).toContain(`${rel}.br`);
    }
    expect(files).toEqual(
      expect.arrayContaining([
        'api/demo/index.json',
        'api/demo/posts/index.json',
        'api/demo/posts/post-1/index.json',
        'api/demo/authors/ann/index.json',
        'api/demo/project-media/index.json',
        'api/demo/project-media/photos/a b.png/index.json',
        'media/demo/doc.txt',
        'media/demo/photos/a b.png',
        'openapi.json',
        'openapi.json.gz',
        'manifest.json',
        '_headers',
        '_redirects',
      ]),
    );
    expect(files.some((f) => f.includes('draft-1'))).toBe(false);
    expect(readFileSync(join(out, 'media/demo/photos/a b.png'))).toEqual(readFileSync(media[1]!.source));
    expect(readFileSync(join(out, 'openapi.json'), 'utf8')).toBe(snapshot.openapiOf(['demo']));
    // 3 files per JSON document (a query index per collection too, and the 404 document), 2 media, _headers, _redirects.
    const collections = [...snapshot.projects.values()].reduce((n, p) => n + p.collections.size, 0);
    expect(result.files).toBe((snapshot.paths.length + 2 + collections + 1) * 3 + 2 + 2);
    expect(result.files).toBe(files.length);
    expect(result.bytes).toBe(files.reduce((n, f) => n + statSync(join(out, f)).size, 0));
    expect(readdirSync(work)).toEqual(['dist']); // no temp or old dir left behind
  });

  it('writes .gz and .br siblings that decompress to the same bytes', () => {
    for (const f of listFiles(out).filter((x) => x.endsWith('.json'))) {
      const raw = readFileSync(join(out, f));
      expect(gunzipSync(readFileSync(join(out, `${f}.gz`)))).toEqual(raw);
      expect(brotliDecompressSync(readFileSync(join(out, `${f}.br`)))).toEqual(raw);
    }
  });

  it('writes a deterministic manifest with published counts and no timestamps', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    const others = listFiles(out).filter((f) => !f.startsWith('manifest.json'));
    expect(manifest).toEqual({
      name: 'content-query-api',
      // The package's own version (it read no package.json and said 0.0.0 until found from outside).
      version: (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version,
      snapshot: snapshot.hash,
      base_url: 'https://cdn.test',
      documents: snapshot.paths.length + 2,
      projects: [
        {
          id: 'demo',
          collections: [
            { slug: 'authors', count: 2 },
            { slug: 'posts', count: 3 },
          ],
          media: 2,
        },
      ],
      // Every other file and its bytes (precompressed siblings too): what a rebuild checks it replaces.
      tree: {
        files: others.length,
        bytes: others.reduce((n, f) => n + statSync(join(out, f)).size, 0),
        names_sha256: createHash('sha256').update(others.sort().join('\n')).digest('hex'),
      },
    });
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });

  it('writes _headers and _redirects for Netlify / Cloudflare Pages', () => {
    const headers = readFileSync(join(out, '_headers'), 'utf8');
    expect(headers).toContain('/api/*\n  Content-Type: application/json; charset=utf-8\n  Access-Control-Allow-Origin: *');
    expect(headers).toContain('/openapi.json\n  Content-Type: application/json; charset=utf-8');
    expect(headers).toContain('/manifest.json\n  Content-Type: application/json; charset=utf-8');
    const redirects = readFileSync(join(out, '_redirects'), 'utf8');
    expect(redirects.split('\n').filter((l) => l && !l.startsWith('#'))).toEqual([
      '/api/*  /api/:splat/index.json  200',
      '/api/*  /api/404.json  404',
    ]);
  });

  it('never writes the token, its sha256, a hidden value or a draft', () => {
    for (const f of listFiles(out)) {
      let text = readFileSync(join(out, f)).toString('latin1');
      if (f.endsWith('.gz')) text = gunzipSync(readFileSync(join(out, f))).toString('utf8');
      if (f.endsWith('.br')) text = brotliDecompressSync(readFileSync(join(out, f))).toString('utf8');
      for (const secret of [TOKEN, TOKEN_SHA, HIDDEN_VALUE, DRAFT_VALUE, 'draft-1']) {
        expect(text.includes(secret), `${secret} in ${f}`).toBe(false);
      }
    }
  });

  it('writes a byte-identical tree for the same input', async () => {
    const again = join(work, 'again');
    await writeDist(createSnapshot(fixtureModel(media), { baseUrl: 'https://cdn.test' }), { out: again, precompress: 'all' });
    expect(treeDigest(again)).toEqual(treeDigest(out));
    // Rebuilding over an existing output gives the same tree too.
    await writeDist(snapshot, { out: again, precompress: 'all' });
    expect(treeDigest(again)).toEqual(treeDigest(out));
    rmSync(again, { recursive: true });
  });

  it('replaces the previous tree: files of removed entries disappear', async () => {
    const target = join(work, 'replace');
    await writeDist(snapshot, { out: target });
    const smaller = createSnapshot(fixtureModel(media, 1), { baseUrl: 'https://cdn.test' });
    await writeDist(smaller, { out: target });
    expect(existsSync(join(target, 'api/demo/posts/post-1/index.json'))).toBe(true);
    expect(existsSync(join(target, 'api/demo/posts/post-2'))).toBe(false);
    expect(readdirSync(work).filter((n) => n.startsWith('replace'))).toEqual(['replace']);
    rmSync(target, { recursive: true });
  });

  it('leaves the previous tree exactly as it was when a write fails, and removes its temp dir', async () => {
    const target = join(work, 'failing');
    await writeDist(snapshot, { out: target });
    const before = treeDigest(target);
    const model = fixtureModel([
      ...media,
      { ...media[0]!, id: 'gone.txt', file_name: 'gone.txt', source: join(mediaDir, 'does-not-exist') },
    ]);
    await expect(writeDist(createSnapshot(model), { out: target })).rejects.toThrow(/media 'gone.txt' is no longer a regular file/);
    expect(treeDigest(target)).toEqual(before);
    expect(readdirSync(work).filter((n) => n.startsWith('failing'))).toEqual(['failing']);
    rmSync(target, { recursive: true });
  });

  it('refuses paths that would leave the output directory', async () => {
    const target = join(work, 'unsafe');
    for (const id of ['..', '../../escape', '/etc/x', 'a/../../b', 'a\\b', 'nul\0byte']) {
      const model = fixtureModel([{ ...media[0]!, id }]);
      await expect(writeDist(createSnapshot(model), { out: target }), id).rejects.toBeInstanceOf(DistError);
    }
    const bad = fixtureModel(media);
    const posts = bad.projects[0]!.collections[1]!;
    const evil: ContentModel = {
      projects: [{ ...bad.projects[0]!, collections: [{ ...posts, entries: [entry('..', { title: 'x' })] }] }],
    };
    await expect(writeDist(createSnapshot(evil), { out: target })).rejects.toBeInstanceOf(DistError);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(work).filter((n) => n.startsWith('unsafe'))).toEqual([]);
  });

  it('refuses an entry id that collides with the index.json layout', async () => {
    const bad = fixtureModel(media);
    const posts = bad.projects[0]!.collections[1]!;
    const model: ContentModel = {
      projects: [{ ...bad.projects[0]!, collections: [{ ...posts, entries: [entry('index.json', { title: 'x' })] }] }],
    };
    await expect(writeDist(createSnapshot(model), { out: join(work, 'collide') })).rejects.toThrow(
      /^'api\/demo\/posts\/index.json' is needed both as a file and as a directory, made a folder by the entry .*index\.json.*: rename it or give it another id$/,
    );
  });

  it('names the media file whose id collides with the index.json layout', async () => {
    const model = fixtureModel([{ ...media[0]!, id: 'index.json' }]);
    await expect(writeDist(createSnapshot(model), { out: join(work, 'collide-media') })).rejects.toThrow(
      /^'api\/demo\/project-media\/index.json' is needed both as a file and as a directory, made a folder by the media file 'index.json': rename it or give it another id$/,
    );
  });

  it('refuses to replace a directory that is not a build output', async () => {
    const target = join(work, 'precious');
    mkdirSync(target);
    writeFileSync(join(target, 'notes.txt'), 'keep me');
    await expect(writeDist(snapshot, { out: target })).rejects.toThrow(/not a cqa build output/);
    expect(readFileSync(join(target, 'notes.txt'), 'utf8')).toBe('keep me');
  });

  it.each([
    ['a web app manifest', '{"name":"My PWA","start_url":"/"}'],
    ['no JSON', 'manifest'],
    ['JSON null', 'null'],
  ])(
    "refuses to replace a folder whose manifest.json is not a build's (%s; found from outside: a PWA's public/ was replaced)",
    async (_, manifest) => {
      const target = join(work, `public-${manifest.length}`);
      mkdirSync(target);
      writeFileSync(join(target, 'manifest.json'), manifest);
      writeFileSync(join(target, 'index.html'), '<h1>site</h1>');
      await expect(writeDist(snapshot, { out: target })).rejects.toThrow(
        `refusing to replace ${target}: its manifest.json is not one cqa build wrote (a web app's manifest?), so it is not a cqa build output; give --out a new or empty folder`,
      );
      expect(readdirSync(target).sort()).toEqual(['index.html', 'manifest.json']);
    },
  );

  it("refuses a build's manifest copied beside other files (cp -r dist/* public/; found from outside, round two)", async () => {
    const built = join(work, 'built-for-copy');
    await writeDist(snapshot, { out: built });
    const target = join(work, 'public-copied');
    mkdirSync(target);
    writeFileSync(join(target, 'manifest.json'), readFileSync(join(built, 'manifest.json')));
    writeFileSync(join(target, 'index.html'), '<h1>site</h1>');
    writeFileSync(join(target, 'app.js'), '');
    await expect(writeDist(snapshot, { out: target })).rejects.toThrow(
      `refusing to replace ${target}: it holds what no build writes (app.js, index.html), which replacing it would delete; move them out, or give --out a new or empty folder`,
    );
    expect(readdirSync(target).sort()).toEqual(['app.js', 'index.html', 'manifest.json']);
  });

  it('replaces a build it wrote (its manifest.json names cqa and the snapshot)', async () => {
    const target = join(work, 'rebuilt');
    // An older build held a post this one no longer has: its documents go.
    const older = fixtureModel(media);
    const posts = older.projects[0]!.collections.find((c) => c.slug === 'posts')!;
    const gone = { ...posts.entries[0]!, id: 'gone-post' };
    const withGone: ContentModel = {
      projects: [
        {
          ...older.projects[0]!,
          collections: older.projects[0]!.collections.map((c) => (c === posts ? { ...c, entries: [...c.entries, gone] } : c)),
        },
      ],
    };
    await writeDist(createSnapshot(withGone), { out: target });
    expect(existsSync(join(target, 'api', 'demo', 'posts', 'gone-post', 'index.json'))).toBe(true);
    await writeDist(snapshot, { out: target });
    expect(existsSync(join(target, 'api', 'demo', 'posts', 'gone-post'))).toBe(false);
  });

  it.each([
    ['a file added under media/', (t: string) => writeFileSync(join(t, 'media', 'demo', 'hero.jpg'), 'mine')],
    [
      'lines added to _headers',
      (t: string) => writeFileSync(join(t, '_headers'), `${readFileSync(join(t, '_headers'), 'utf8')}/*\n  X-Site: 1\n`),
    ],
    ['a document edited', (t: string) => writeFileSync(join(t, 'api', 'demo', 'index.json'), '{}')],
    ['a document removed', (t: string) => rmSync(join(t, 'api', 'demo', 'index.json'))],
    // Round two (found from outside): an edit of the same size, and a file swapped for one of the same size.
    [
      'an edit of the same size',
      (t: string) => writeFileSync(join(t, '_headers'), readFileSync(join(t, '_headers'), 'utf8').replace('max-age=0', 'max-age=9')),
    ],
    [
      'a file swapped for one of the same size, its time kept',
      (t: string) => {
        const doc = join(t, 'api', 'demo', 'index.json');
        const { size, mtime } = statSync(doc);
        rmSync(doc);
        const mine = join(t, 'media', 'demo', 'my-photo.jpg');
        writeFileSync(mine, Buffer.alloc(size, 1));
        utimesSync(mine, mtime, mtime);
      },
    ],
  ])('refuses to replace a tree that changed since the build (%s; found from outside: deleted without a word)', async (_, change) => {
    const target = join(work, `changed-${_.replace(/\W+/g, '-')}`);
    await writeDist(snapshot, { out: target });
    writeFileSync(join(target, '.DS_Store'), 'litter'); // desktop litter is no change
    await new Promise((done) => setTimeout(done, 50)); // a later edit: past the file system clock's tick (~4 ms)
    change(target);
    const before = treeDigest(target);
    await expect(writeDist(snapshot, { out: target })).rejects.toThrow(
      new RegExp(
        `^refusing to replace ${target}: it changed since cqa build wrote it \\((written after it: [^;]+|a file was added, removed or renamed); \\d+ files of \\d+ bytes then, \\d+ of \\d+ now\\)`,
      ),
    );
    expect(treeDigest(target)).toEqual(before);
  });

  it('describes in openapi.json exactly the projects whose documents the tree holds', async () => {
    // A public project beside the private one: the server without a token describes only the
    // public one, but the static tree holds both (a static host checks no token), and says so.
    const both = fixtureModel(media);
    const open = { ...both.projects[0]!, id: 'open', public: true, media: [] };
    const target = join(work, 'described');
    const s = createSnapshot({ projects: [...both.projects, open] });
    await writeDist(s, { out: target });
    const inTree = readdirSync(join(target, 'api'))
      .filter((n) => n !== '404.json')
      .sort(); // (api/404.json: the static 404)
    const doc = JSON.parse(readFileSync(join(target, 'openapi.json'), 'utf8'));
    const described = Object.keys(doc.paths)
      .filter((p) => /^\/api\/[^/]+$/.test(p))
      .map((p) => p.slice(5));
    expect(inTree).toEqual(['demo', 'open']);
    expect(described.sort()).toEqual(inTree);
    expect(JSON.parse(s.openapi).paths['/api/demo']).toBeUndefined();
    rmSync(target, { recursive: true });
  });

  it('writes no siblings by default, and only the asked ones with precompress gzip or br', async () => {
    const documents = listFiles(out).filter((f) => f.endsWith('.json'));
    for (const [precompress, kept] of [
      [undefined, []],
      ['none', []],
      ['gzip', ['.gz']],
      ['br', ['.br']],
    ] as const) {
      const target = join(work, `precompress-${precompress}`);
      const r = await writeDist(snapshot, { out: target, ...(precompress ? { precompress } : {}) });
      const files = listFiles(target);
      expect(files.filter((f) => /\.(gz|br)$/.test(f)).sort(), precompress).toEqual(
        documents.flatMap((d) => kept.map((ext) => `${d}${ext}`)).sort(),
      );
      expect(r.files).toBe(files.length);
      for (const f of files.filter((x) => x.endsWith('.gz')))
        expect(gunzipSync(readFileSync(join(target, f)))).toEqual(readFileSync(join(target, f.slice(0, -3))));
      for (const f of files.filter((x) => x.endsWith('.br')))
        expect(brotliDecompressSync(readFileSync(join(target, f)))).toEqual(readFileSync(join(target, f.slice(0, -3))));
      rmSync(target, { recursive: true });
    }
    await expect(writeDist(snapshot, { out: join(work, 'bad'), precompress: 'zstd' as never })).rejects.toThrow(
      /precompress must be one of none, gzip, br, all/,
    );
  });

  it('reports progress up to the total', async () => {
    const seen: [number, number][] = [];
    const r = await writeDist(snapshot, { out: join(work, 'progress'), onProgress: (d, t) => seen.push([d, t]) });
    expect(seen.length).toBe(r.files);
    expect(seen.at(-1)).toEqual([r.files, r.files]);
  });
});
