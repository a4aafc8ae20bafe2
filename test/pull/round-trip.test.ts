// Issue 10, "done when": serve the sample content → cqa pull it → cqa build the pulled tree → the
// documents under dist/api are byte-identical to building the sample itself, for both dialects.
// What the API cannot reveal (docs/pull.md) does not reach dist/api: hidden fields are never
// there, timestamps are written into the files, the default order is found from the list.
import { appendFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { pull } from '../../src/node/pull/pull.js';
import { buildApi, DEMO, SAMPLE, tempDir, TRAVEL, treeBytes } from './fixture.js';

const SHOP3 = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';

let server: RunningServer;
let original: Map<string, Buffer>;

beforeAll(async () => {
  server = await startServer({ content: SAMPLE });
  // The sample's elmapi3 project (shop3) is left out of a tree with other projects (cqa build
  // --project builds it alone): its round trip is checked through cqa serve's answers below.
  original = await buildApi(SAMPLE);
  expect([...original.keys()].some((path) => path.startsWith(`${SHOP3}/`))).toBe(false);
});
afterAll(async () => {
  await server?.close();
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

  // Found from outside: the tokens the pull says to add were gone after the next pull, without a word.
  it('a second pull keeps the tokens added to the earlier project.yaml', async () => {
    const out = tempDir();
    await pull({ baseUrl: server.url, project: DEMO.project, token: DEMO.token, dialect: 'cqa', out, media: true });
    const file = join(out, 'demo/project.yaml');
    expect(readFileSync(file, 'utf8')).toContain('No tokens are copied');
    appendFileSync(file, 'tokens:\n  - { name: mine, token: my-token, scopes: [read] }\n');
    const second = await pull({ baseUrl: server.url, project: DEMO.project, token: DEMO.token, dialect: 'cqa', out, media: true });
    expect(second.tokensKept).toBe(1);
    const again = readFileSync(file, 'utf8');
    expect(again).not.toContain('No tokens are copied');
    expect(again).toMatch(/^tokens:\n {2}- name: mine\n {4}token: my-token\n {4}scopes:\n {6}- read$/m);
    const pulled = await startServer({ content: out });
    try {
      expect((await fetch(`${pulled.url}/api/demo`, { headers: { authorization: 'Bearer my-token' } })).status).toBe(200);
    } finally {
      await pulled.close();
    }
    // A project.yaml that is a link is not followed, and the tokens it may hold are said to be lost.
    const elsewhere = join(tempDir(), 'project.yaml');
    writeFileSync(elsewhere, again);
    rmSync(file);
    symlinkSync(elsewhere, file);
    const warnings: string[] = [];
    const third = await pull({ baseUrl: server.url, ...DEMO, dialect: 'cqa', out, media: true, warn: (m) => warnings.push(m) });
    expect(third.tokensKept).toBe(0);
    expect(warnings).toEqual([
      expect.stringMatching(/project\.yaml: not read \(.*symbolic link.*\), so no tokens of it are kept: add them again/),
    ]);
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

  it('elmapi3: the pulled project serves the same answers to the SDK’s requests (drafts, translations, singletons, assets)', async () => {
    const out = tempDir();
    const r = await pull({ baseUrl: server.url, project: SHOP3, token: 'shop3-token', dialect: 'elmapi3', out, media: true, drafts: true });
    expect(r.project.collections.map((c) => c.slug)).toEqual(['pages', 'products', 'settings']);
    // No token is pulled: add the one the sample has, as the project.yaml comment says to.
    appendFileSync(join(out, SHOP3, 'project.yaml'), 'tokens:\n  - { name: dev, token: shop3-token, scopes: [read, drafts] }\n');
    const pulled = await startServer({ content: out });
    try {
      const headers = { accept: 'application/json', 'project-id': SHOP3, authorization: 'Bearer shop3-token' };
      const answer = async (base: string, path: string) => {
        const res = await fetch(`${base}/api${path}`, { headers });
        // Absolute URLs name the server that answered.
        return { status: res.status, text: (await res.text()).replaceAll(base.replaceAll('/', '\\/'), '') };
      };
      const list = JSON.parse((await answer(server.url, '/pages?locale=en')).text) as { uuid: string }[];
      const drafts = JSON.parse((await answer(server.url, '/products?state=draft')).text) as { uuid: string }[];
      const paths = [
        '/',
        '/?with=collections,fields',
        '/collections',
        '/collections/products',
        '/products',
        '/products?timestamps',
        '/products?paginate=2&page=2&sort=price:desc',
        '/products?state=draft&timestamps',
        '/products?where[price][gt]=79',
        '/products?where[related][title]=Trail%20Jacket',
        '/products/9b1f6c52-3a41-4d7e-9a57-0c1b8e2f4a10?timestamps',
        `/products/${drafts[0]?.uuid}?state=draft`,
        '/pages?timestamps',
        `/pages/${list[0]?.uuid}?translation_locale=fr`,
        '/settings',
        '/settings?locale=fr&timestamps',
        '/files',
        '/files/name/shirt.png',
        '/files/0d4c3e55-8f0a-4f7e-b2a1-5c9d6e7f8a90',
      ];
      for (const path of paths) {
        const want = await answer(server.url, path);
        expect(want.status, path).toBe(200);
        expect((await answer(pulled.url, path)).text, path).toBe(want.text);
      }
      // The asset itself, byte for byte.
      const file = (base: string) => fetch(`${base}/media/${SHOP3}/shirt.png`).then(async (res) => Buffer.from(await res.arrayBuffer()));
      expect((await file(pulled.url)).equals(await file(server.url))).toBe(true);
    } finally {
      await pulled.close();
    }
    // What a person reads: uuids kept, a translation group sharing a file name, the schema with groups and ranges.
    const schema = readFileSync(join(out, SHOP3, 'products/_collection.yaml'), 'utf8');
    expect(schema).toContain('variants: { type: group, repeatable: true, fields: { size: text, sku: text } }');
    expect(schema).toContain('season: { type: date, range: true }');
    expect(schema).toContain('supplier_code: password');
    expect(readFileSync(join(out, SHOP3, 'settings/_collection.yaml'), 'utf8')).toContain('singleton: true');
    expect(readFileSync(join(out, SHOP3, `pages/${list0(r)}.fr.md`), 'utf8')).toMatch(/^id: [0-9a-f-]{36}$/m);
    expect(readFileSync(join(out, SHOP3, 'project.yaml'), 'utf8')).toMatch(/^dialect: elmapi3$/m);
  }, 60_000);
});

/** An elmapi3 project with date-times in every place a date can stand, as `cqa serve` holds it. */
function datetimeTree(): { content: string; project: string } {
  const content = tempDir('cqa-pull-src-');
  const project = 'a1b2c3d4-0000-4000-8000-00000000d47e';
  const write = (path: string, text: string) => {
    mkdirSync(join(content, project, path, '..'), { recursive: true });
    writeFileSync(join(content, project, path), text);
  };
  write(
    'project.yaml',
    `id: ${project}\nname: Events\ndialect: elmapi3\npublic: false\ntokens:\n  - { name: dev, token: ev-token, scopes: [read, drafts] }\n`,
  );
  write(
    'events/_collection.yaml',
    [
      'name: Events',
      'fields:',
      '  title: text',
      '  at: datetime',
      '  day: date',
      '  midnight: datetime',
      '  times: { type: datetime, multiple: true }',
      '  span: { type: datetime, range: true }',
      '  slot: { type: group, fields: { label: text, starts: datetime } }',
      '',
    ].join('\n'),
  );
  const stamps = (day: number) => `created_at: 2026-01-0${day}T10:00:00Z\nupdated_at: 2026-01-0${day}T10:00:00Z\n`;
  write(
    'events/launch.yaml',
    `title: Launch\nat: 2026-01-02T08:00:00Z\nday: 2026-03-15\nmidnight: 2026-01-05T00:00:00Z\ntimes: [2026-01-03, 2026-01-04T17:45:30Z]\nspan: { start: 2026-02-01, end: 2026-02-03 }\nslot: { label: doors, starts: 2026-01-02T07:30:00Z }\n${stamps(1)}published_at: 2026-01-01T10:00:00Z\n`,
  );
  write('events/dinner.yaml', `title: Dinner\nat: 2026-01-09\nslot: { label: table }\n${stamps(2)}`);
  // A Markdown body (no schema: the body field is markdown), answered as written.
  write(
    'notes/hello.md',
    `---\ntitle: Hello\n${stamps(4)}published_at: 2026-01-04T10:00:00Z\n---\nSome *emphasis*, a [link](https://example.com).\n\n- one\n- two\n`,
  );
  // The only time of `span` is a draft's: it still makes the field a date-time.
  write(
    'events/later.yaml',
    `draft: true\ntitle: Later\nat: 2026-02-01\nday: 2026-04-01\nspan: { end: 2026-05-01T18:00:00Z }\n${stamps(3)}`,
  );
  return { content, project };
}

describe('cqa pull round trip, elmapi3 date-times', () => {
  it('a field the schema reports as date but whose values hold a time comes back as datetime: the tree loads and answers the same', async () => {
    const { content, project } = datetimeTree();
    const source = await startServer({ content });
    const out = tempDir();
    try {
      await pull({ baseUrl: source.url, project, token: 'ev-token', dialect: 'elmapi3', out, drafts: true });
      const schema = readFileSync(join(out, project, 'events/_collection.yaml'), 'utf8');
      // v3 reports every one of them as `date`; `includeTime` (cqa serve sends it for a datetime) or the values decide.
      expect(schema).toMatch(/^ {2}at: datetime$/m);
      expect(schema).toMatch(/^ {2}day: date$/m);
      expect(schema).toMatch(/^ {2}midnight: datetime$/m);
      expect(schema).toContain('times: { type: datetime, multiple: true }');
      expect(schema).toContain('span: { type: datetime, range: true }');
      expect(schema).toContain('starts: datetime');
      appendFileSync(join(out, project, 'project.yaml'), 'tokens:\n  - { name: dev, token: ev-token, scopes: [read, drafts] }\n');
      const pulled = await startServer({ content: out }); // loads only what cqa check accepts
      try {
        const headers = { accept: 'application/json', 'project-id': project, authorization: 'Bearer ev-token' };
        const answer = async (base: string, path: string) => {
          const res = await fetch(`${base}/api${path}`, { headers });
          return { status: res.status, text: await res.text() };
        };
        for (const path of [
          '/collections/events',
          '/events?timestamps',
          '/events?state=draft&timestamps',
          '/collections/notes',
          '/notes?timestamps',
        ]) {
          const want = await answer(source.url, path);
          expect(want.status, path).toBe(200);
          expect((await answer(pulled.url, path)).text, path).toBe(want.text);
        }
        expect((await answer(source.url, '/events')).text).toContain('"at":"2026-01-02 08:00:00"');
      } finally {
        await pulled.close();
      }
    } finally {
      await source.close();
    }
  }, 30_000);
});

/** The uuid that names the pulled pages' translation group (its English member). */
function list0(r: Awaited<ReturnType<typeof pull>>): string {
  const pages = r.project.collections.find((c) => c.slug === 'pages');
  return pages?.entries.find((e) => e.locale === 'en')?.id ?? '';
}

/** A cqa and an elmapi project with groups (one repeatable) and date/datetime ranges. */
function groupsTree(): string {
  const content = tempDir('cqa-pull-src-');
  const write = (path: string, text: string) => {
    mkdirSync(join(content, path, '..'), { recursive: true });
    writeFileSync(join(content, path), text);
  };
  const schema = [
    'name: Articles',
    'fields:',
    '  title: text',
    '  meta: { type: group, fields: { label: text, weight: number, on: boolean } }',
    '  steps: { type: group, repeatable: true, fields: { name: text, n: number } }',
    '  period: { type: date, range: true }',
    '  at: { type: datetime, range: true }',
    '',
  ].join('\n');
  const stamps = 'created_at: 2026-01-01T10:00:00Z\nupdated_at: 2026-01-01T10:00:00Z\n';
  const entry = `title: A\nmeta: { label: x, weight: 2, on: true }\nsteps: [{ name: a, n: 1 }, { name: b }]\nperiod: { start: 2026-01-01, end: 2026-02-01 }\nat: { start: 2026-01-01T10:00:00Z }\n${stamps}`;
  for (const [folder, head, id] of [
    ['rich', 'id: rich\n', 'alpha'],
    ['old', 'id: 0123456789abcdef0123456789abcdef\ndialect: elmapi\n', '1'],
  ] as const) {
    write(`${folder}/project.yaml`, `${head}name: R\npublic: true\n`);
    write(`${folder}/articles/_collection.yaml`, schema);
    write(`${folder}/articles/${id}.yaml`, `${folder === 'old' ? 'id: 1\n' : ''}${entry}`);
    write(`${folder}/articles/${id === '1' ? '2' : 'beta'}.yaml`, `${folder === 'old' ? 'id: 2\n' : ''}title: B\n${stamps}`);
  }
  return content;
}

describe('cqa pull round trip, groups and ranges', () => {
  // Found from outside: cqa's project answer described a group without its children and a range
  // as a plain date (the pulled tree did not load); elmapi's pull stopped at any object value.
  it('cqa and elmapi: the pulled schema has the groups and ranges, and the pulled tree answers the same', async () => {
    const content = groupsTree();
    const source = await startServer({ content });
    const out = tempDir();
    try {
      await pull({ baseUrl: source.url, project: 'rich', dialect: 'cqa', out });
      await pull({ baseUrl: source.url, project: '0123456789abcdef0123456789abcdef', dialect: 'elmapi', collections: ['articles'], out });
      for (const folder of ['rich', '0123456789abcdef0123456789abcdef']) {
        const schema = readFileSync(join(out, folder, 'articles/_collection.yaml'), 'utf8');
        expect(schema, folder).toContain('steps: { type: group, repeatable: true, fields: { name: text, n: number } }');
        expect(schema, folder).toContain('period: { type: date, range: true }');
        expect(schema, folder).toContain('at: { type: datetime, range: true }');
        expect(schema, folder).toMatch(/meta: \{ type: group, fields: \{ label: text, weight: number, on: boolean \} \}/);
      }
      const pulled = await startServer({ content: out });
      try {
        for (const path of ['/api/rich/articles', '/api/rich', '/api/0123456789abcdef0123456789abcdef/articles']) {
          const want = await (await fetch(`${source.url}${path}`)).text();
          expect(await (await fetch(`${pulled.url}${path}`)).text(), path).toBe(want);
        }
      } finally {
        await pulled.close();
      }
    } finally {
      await source.close();
    }
  });
});
