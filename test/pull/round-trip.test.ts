// Issue 10, "done when": serve the sample content → cqa pull it → cqa build the pulled tree → the
// documents under dist/api are byte-identical to building the sample itself, for both dialects.
// What the API cannot reveal (docs/pull.md) does not reach dist/api: hidden fields are never
// there, timestamps are written into the files, the default order is found from the list.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { pull } from '../../src/node/pull/pull.js';
import { buildApi, DEMO, removeTempDirs, SAMPLE, tempDir, TRAVEL, treeBytes } from './fixture.js';

const SHOP3 = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';

let server: RunningServer;
let original: Map<string, Buffer>;

beforeAll(async () => {
  server = await startServer({ content: SAMPLE });
  // The sample's elmapi3 project (shop3) is not pulled: cqa pull reads the cqa and elmapi dialects.
  original = new Map([...(await buildApi(SAMPLE))].filter(([path]) => !path.startsWith(`${SHOP3}/`)));
});
afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

/** Both projects of the sample, pulled into one content folder. */
async function pullSample(out: string, extra: { drafts?: boolean } = {}) {
  const demo = await pull({ baseUrl: server.url, project: DEMO.project, token: DEMO.token, dialect: 'cqa', out, media: true, ...extra });
  const travel = await pull({ baseUrl: server.url, ...TRAVEL, dialect: 'elmapi', out, media: true, ...extra });
  return { demo, travel };
}

function expectSameDocuments(pulled: Map<string, Buffer>) {
  expect([...pulled.keys()]).toEqual([...original.keys()]);
  for (const [path, bytes] of original) expect(pulled.get(path)?.toString('utf8'), path).toBe(bytes.toString('utf8'));
}

describe('cqa pull round trip', () => {
  it('both dialects: the pulled tree builds to byte-identical dist/api documents', async () => {
    const out = tempDir();
    await pullSample(out);
    expect(original.size).toBeGreaterThan(100);
    expectSameDocuments(await buildApi(out));
  });

  it('a second pull asks with If-None-Match, gets 304s and writes a byte-identical tree', async () => {
    const out = tempDir();
    const first = await pullSample(out);
    const before = treeBytes(out);
    const second = await pullSample(out);
    expect(first.demo.notModified).toBe(0);
    expect(second.demo.notModified).toBeGreaterThan(5);
    expect(second.travel.notModified).toBeGreaterThan(2);
    expect(second.demo.mediaReused).toBe(12);
    expect(treeBytes(out)).toEqual(before);
  });

  it('--drafts writes drafts with draft: true, and they stay out of the build', async () => {
    const out = tempDir();
    const { demo, travel } = await pullSample(out, { drafts: true });
    const drafts = demo.project.collections.flatMap((c) => c.entries.filter((e) => e.draft));
    expect(drafts.map((e) => e.id)).toContain('q3-roadmap');
    expect(readFileSync(join(out, 'demo/posts/q3-roadmap.md'), 'utf8')).toMatch(/^draft: true$/m);
    expect(readFileSync(join(out, `${TRAVEL.project}/articles/7.md`), 'utf8')).toMatch(/^draft: true$/m);
    expect(travel.project.collections.find((c) => c.slug === 'articles')?.entries.some((e) => e.draft)).toBe(true);
    expectSameDocuments(await buildApi(out));
  });

  it('writes what a person would: schema, Markdown bodies, richtext as Markdown, media captions, elmapi ids', async () => {
    const out = tempDir();
    await pullSample(out);
    const posts = readFileSync(join(out, 'demo/posts/_collection.yaml'), 'utf8');
    expect(posts).toContain('sort: published_at:desc');
    expect(posts).toContain('author: { type: relation, required: true, collection: authors }');
    const hello = readFileSync(join(out, 'demo/posts/hello-world.md'), 'utf8');
    expect(hello).toMatch(/^author: anna-schmidt$/m);
    expect(hello).toContain('\n---\n\nWelcome! We are **Northwind Goods**');
    expect(readFileSync(join(out, 'demo/pages/contact.md'), 'utf8')).toContain('| Shop | Phone | Hours |');
    expect(readFileSync(join(out, 'demo/media/_media.yaml'), 'utf8')).toContain('caption: Berlin at dusk, seen from Friedrichshain');
    const project = readFileSync(join(out, 'demo/project.yaml'), 'utf8');
    expect(project).not.toMatch(/token:|sha256/);
    expect(project).toContain('cqa token create --project demo');
    const travel = join(out, TRAVEL.project);
    expect(readFileSync(join(travel, 'project.yaml'), 'utf8')).toMatch(/^dialect: elmapi$/m);
    expect(readFileSync(join(travel, 'articles/1.md'), 'utf8')).toMatch(/^id: 1\n(.|\n)*^author: 1$/m);
    expect(readFileSync(join(travel, 'media/_media.yaml'), 'utf8')).toMatch(/^alps\.png:\n {2}id: 1\n/m);
  });
});
