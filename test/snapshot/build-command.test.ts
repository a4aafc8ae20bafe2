// `cqa build` on real content trees: a small fixture written to a temp dir, and the sample content/.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { UsageError } from '../../src/node/commands/args.js';
import { formatBytes, run } from '../../src/node/commands/build.js';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { listFiles } from './fixture.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-build-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TOKEN = 'fixture-plain-token-4b1d';
const HIDDEN = 'HIDDEN-NOTE-e0a9';
const DRAFT = 'DRAFT-TITLE-77c3';

function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, data] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), data);
  }
}

function fixture(root: string): void {
  writeTree(root, {
    'shop/project.yaml': `id: shop\nname: Shop\nlocales: [en, de]\ntokens:\n  - name: dev\n    token: ${TOKEN}\n    scopes: [read, drafts]\n`,
    'shop/posts/_collection.yaml':
      'name: Posts\nfields:\n  title: { type: text, required: true }\n  price: number\n  cover: media\n  note: { type: text, hidden: true }\n',
    'shop/posts/hello.md': `---\ntitle: Hello\nprice: 3\ncover: pics/dot.png\nnote: ${HIDDEN}\ncreated_at: 2021-11-25T10:00:00Z\nupdated_at: 2021-11-25T10:00:00Z\n---\n\n# Hello\n`,
    'shop/posts/hallo.de.md': `---\ntitle: Hallo\ncreated_at: 2021-11-25T10:00:00Z\nupdated_at: 2021-11-25T10:00:00Z\n---\nText\n`,
    'shop/posts/secret.md': `---\ntitle: ${DRAFT}\ndraft: true\ncreated_at: 2021-11-25T10:00:00Z\nupdated_at: 2021-11-25T10:00:00Z\n---\n`,
    'shop/media/pics/dot.png': Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
  });
}

const digest = (dir: string) =>
  new Map(
    listFiles(dir).map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );

describe('cqa build', () => {
  let logs: string[];
  beforeEach(() => {
    logs = [];
    const capture = (...a: unknown[]) => void logs.push(a.join(' '));
    vi.spyOn(console, 'log').mockImplementation(capture);
    vi.spyOn(console, 'error').mockImplementation(capture);
  });
  afterEach(() => vi.restoreAllMocks());

  const content = join(work, 'content');
  const out = join(work, 'dist');
  fixture(content);

  it('builds a content tree into dist/ and reports what it wrote', async () => {
    expect(await run([content, '--out', out, '--base-url', 'https://cdn.test', '--include-private', '--precompress', 'all'])).toBe(0);
    expect(logs.some((l) => /^warning: .*project\.yaml/.test(l))).toBe(true); // plaintext token
    const done = logs.find((l) => l.includes('✓ wrote'));
    expect(done).toMatch(/^✓ wrote \d+ files \([\d.]+ k?B\) to .*dist\/ in \d+\.\d\d s$/);
    const files = listFiles(out);
    expect(files).toEqual(
      expect.arrayContaining([
        'api/shop/index.json',
        'api/shop/posts/index.json',
        'api/shop/posts/hello/index.json',
        'api/shop/posts/hallo.de/index.json.br',
        'api/shop/project-media/pics/dot.png/index.json.gz',
        'media/shop/pics/dot.png',
        'openapi.json',
        'manifest.json',
        '_headers',
        '_redirects',
      ]),
    );
    const hello = JSON.parse(readFileSync(join(out, 'api/shop/posts/hello/index.json'), 'utf8'));
    expect(hello.data.cover.full_url).toBe('https://cdn.test/media/shop/pics/dot.png');
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).projects).toEqual([
      { id: 'shop', collections: [{ slug: 'posts', count: 2 }], media: 1 },
    ]);
  });

  it('writes no draft, token, token hash or hidden value anywhere', () => {
    const sha = createHash('sha256').update(TOKEN).digest('hex');
    for (const f of listFiles(out)) {
      const raw = readFileSync(join(out, f));
      const text = f.endsWith('.gz')
        ? gunzipSync(raw).toString()
        : f.endsWith('.br')
          ? brotliDecompressSync(raw).toString()
          : raw.toString('latin1');
      for (const secret of [TOKEN, sha, HIDDEN, DRAFT, 'secret']) expect(text.includes(secret), `${secret} in ${f}`).toBe(false);
    }
  });

  it('writes exactly the bytes the server answers', async () => {
    const snapshot = await buildSnapshot({ content, baseUrl: 'https://cdn.test' });
    const handler = createHandler(snapshot);
    for (const p of snapshot.paths) {
      const url = `http://x${p.split('/').map(encodeURIComponent).join('/')}`;
      const res = await handler(new Request(url, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } }));
      expect(res.status, p).toBe(200);
      expect(await res.text(), p).toBe(readFileSync(join(out, p.slice(1), 'index.json'), 'utf8'));
    }
  });

  it('is deterministic: a rebuild gives a byte-identical tree', async () => {
    const before = digest(out);
    expect(await run([content, '--out', out, '--base-url', 'https://cdn.test', '--include-private', '--precompress', 'all'])).toBe(0);
    expect(digest(out)).toEqual(before);
    expect(readdirSync(work).sort()).toEqual(['content', 'dist']);
  });

  it('on content errors prints file:line: field: message, exits 1 and leaves dist as it was', async () => {
    const before = digest(out);
    const broken = join(work, 'broken');
    cpSync(content, broken, { recursive: true });
    writeFileSync(join(broken, 'shop/posts/bad.md'), '---\ntitle: Bad\nprice: lots\n---\n');
    expect(await run([broken, '--out', out])).toBe(1);
    expect(logs.some((l) => /shop\/posts\/bad\.md:3: price: /.test(l))).toBe(true);
    expect(logs.at(-1)).toMatch(/1 error in 1 file; .*dist was not changed/);
    expect(digest(out)).toEqual(before);
    expect(readdirSync(work).filter((n) => n.startsWith('dist'))).toEqual(['dist']);
    rmSync(broken, { recursive: true });
  });

  it('refuses to publish a project that needs a token unless --include-private is given', async () => {
    const before = digest(out);
    expect(await run([content, '--out', out])).toBe(1);
    expect(logs.at(-1)).toMatch(/need.* a token \(shop\).*public: true.*--include-private.*was not changed/);
    expect(digest(out)).toEqual(before);
    logs.length = 0;
    expect(await run([content, '--out', out, '--include-private', '--base-url', 'https://cdn.test'])).toBe(0);
    expect(logs.some((l) => /warning: --include-private: shop will be readable by anyone/.test(l))).toBe(true);
  });

  it('refuses an output inside the content folder and a missing content folder', async () => {
    await expect(run([content, '--out', join(content, 'dist')])).rejects.toBeInstanceOf(UsageError);
    await expect(run([content, '--out', content])).rejects.toBeInstanceOf(UsageError);
    await expect(run([join(work, 'nope'), '--out', out])).rejects.toBeInstanceOf(UsageError);
    await expect(run([content, '--base-url', 'not a url'])).rejects.toBeInstanceOf(UsageError);
  });

  it('--precompress: none by default, gzip or br alone, and a usage error for anything else', async () => {
    const plain = join(work, 'plain');
    expect(await run([content, '--out', plain, '--include-private'])).toBe(0);
    expect(listFiles(plain).filter((f) => /\.(gz|br)$/.test(f))).toEqual([]);
    expect(await run([content, '--out', plain, '--include-private', '--precompress', 'gzip'])).toBe(0);
    const gz = listFiles(plain).filter((f) => /\.(gz|br)$/.test(f));
    expect(gz).toContain('api/shop/posts/index.json.gz');
    expect(gz.every((f) => f.endsWith('.json.gz'))).toBe(true);
    expect(await run([content, '--out', plain, '--include-private', '--precompress', 'br'])).toBe(0);
    expect(
      listFiles(plain)
        .filter((f) => /\.(gz|br)$/.test(f))
        .every((f) => f.endsWith('.json.br')),
    ).toBe(true);
    await expect(run([content, '--out', plain, '--include-private', '--precompress', 'zstd'])).rejects.toThrow(
      /--precompress must be one of none, gzip, br, all, got 'zstd'/,
    );
    await expect(run([content, '--out', plain, '--include-private', '--precompress', 'zstd'])).rejects.toBeInstanceOf(UsageError);
    rmSync(plain, { recursive: true });
  });

  it('builds the sample content/ with every document identical to the snapshot', async () => {
    const sampleOut = join(work, 'sample-dist');
    expect(await run(['content', '--out', sampleOut, '--include-private'])).toBe(0);
    const snapshot = await buildSnapshot({ content: 'content' });
    expect(existsSync(join(sampleOut, 'api/demo/posts/index.json'))).toBe(true);
    // The elmapi3 project (content/shop3) is built alone, with --project (elmapi3-build.test.ts).
    const v3 = [...snapshot.projects.values()].filter((p) => p.record.dialect === 'elmapi3').map((p) => p.record.id);
    expect(v3).toEqual(['3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10']);
    expect(existsSync(join(sampleOut, 'api', v3[0] as string))).toBe(false);
    const paths = snapshot.paths.filter((p) => !v3.includes(p.split('/')[2] as string));
    for (const p of paths) expect(readFileSync(join(sampleOut, p.slice(1), 'index.json'), 'utf8'), p).toBe(snapshot.document(p));
    // (The sample's posts mention the plaintext token in their text, so only hashes are checked.)
    const secrets = [
      'a2466fd3664aa79f8aa32ab7d09cb8a481d178408d5951ba7745ef2de9f710cc',
      createHash('sha256').update('demo-token').digest('hex'),
    ];
    for (const f of listFiles(sampleOut).filter((x) => !x.startsWith('media/') && !/\.(gz|br)$/.test(x))) {
      const text = readFileSync(join(sampleOut, f), 'utf8');
      for (const secret of secrets) expect(text.includes(secret), `${secret} in ${f}`).toBe(false);
    }
    // every API document, and the query index of each collection (for the static client)
    const indexes = [...snapshot.projects.values()]
      .filter((p) => !v3.includes(p.record.id))
      .flatMap((p) => [...p.collections.keys()].map((slug) => `api/${p.record.id}/${slug}.query/index.json`));
    const documents = listFiles(sampleOut).filter((f) => f.endsWith('/index.json'));
    expect(documents.filter((f) => !indexes.includes(f)).length).toBe(paths.length);
    expect(documents).toEqual(expect.arrayContaining(indexes));
    let drafts = 0;
    for (const p of [...snapshot.projects.values()].filter((x) => !v3.includes(x.record.id))) {
      for (const c of p.collections.values()) {
        for (const e of c.entries.filter((x) => x.record.draft)) {
          drafts++;
          expect(existsSync(join(sampleOut, 'api', p.record.id, c.record.slug, e.record.id))).toBe(false);
        }
      }
    }
    expect(drafts).toBeGreaterThan(0);
    rmSync(sampleOut, { recursive: true });
  });
});

describe('formatBytes', () => {
  it('uses decimal units', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1234)).toBe('1.2 kB');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
  });
});
