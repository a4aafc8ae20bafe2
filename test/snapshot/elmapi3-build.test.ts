// `cqa build --project <uuid>` of an elmapi3 project (docs/build.md): a static host cannot read the
// `project-id` header, so the tree holds that one project at the v3 paths — `/api`, `/api/collections`,
// `/api/<slug>`, `/api/<slug>/<uuid>`, `/api/files…` — each the answer `cqa serve` gives to that path
// without a query; unknown paths answer the v3 404 bodies. Checked through `cqa preview` against
// startServer on the sample content/shop3, as the SDK calls it. Without --project the tree leaves
// elmapi3 projects out, saying how to build them.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import superagent from 'superagent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quietBuild } from './quiet-build.js';
import { startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';

const SHOP = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';
const ALPHA = '9b1f6c52-3a41-4d7e-9a57-0c1b8e2f4a10';
const work = mkdtempSync(join(tmpdir(), 'cqa-v3-build-'));
let preview: PreviewServer;
let server: RunningServer;

beforeAll(async () => {
  expect((await quietBuild(['content', '--project', SHOP, '--include-private', '--out', join(work, 'shop3')])).code).toBe(0);
  preview = await startPreview({ dir: join(work, 'shop3'), port: 0 });
  server = await startServer({ content: 'content', port: 0 });
}, 60_000);
afterAll(async () => {
  await preview?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The SDK's request (superagent, project-id, Bearer); the answer with the origin taken out. */
async function sdk(base: string, path: string): Promise<{ status: number; body: unknown }> {
  const res = await superagent
    .get(`${base}/api${path}`)
    .set('Accept', 'application/json')
    .set('project-id', SHOP)
    .set('Authorization', 'Bearer shop3-token')
    .ok(() => true);
  return { status: res.status, body: JSON.parse(res.text.replaceAll(base.replaceAll('/', '\\/'), '')) };
}

describe('cqa build --project <elmapi3 uuid>', () => {
  it('writes the v3 paths, each answering as cqa serve does without a query', async () => {
    const paths = [
      '/',
      '/collections',
      '/collections/products',
      '/products',
      '/pages',
      '/settings',
      `/products/${ALPHA}`,
      '/files',
      '/files/0d4c3e55-8f0a-4f7e-b2a1-5c9d6e7f8a90',
      '/files/name/shirt.png',
    ];
    // But for the page links of /files: the tree's one page is linked as /api/files (a static host refuses ?page=1).
    const pageOne = (body: unknown) => JSON.parse(JSON.stringify(body).replaceAll('/api/files?page=1', '/api/files'));
    for (const path of paths) {
      const built = await sdk(preview.url, path);
      expect(built.status, path).toBe(200);
      expect(built.body, path).toEqual(pageOne((await sdk(server.url, path)).body));
    }
    const list = (await sdk(preview.url, '/products')).body as { fields: { title: string } }[];
    expect(list.map((e) => e.fields.title)).toEqual(['Summit Pack', 'Trail Jacket', 'Alpha Shirt']);
    // The asset's url is root-relative without --base-url, and that file is in the tree.
    const asset = (await sdk(preview.url, '/files/name/shirt.png')).body as { url: string };
    expect(asset.url).toBe(`/media/${SHOP}/shirt.png`);
    expect((await fetch(`${preview.url}${asset.url}`)).status).toBe(200);
  });

  it('unknown paths answer the v3 404 bodies; a query is refused in the v3 shape', async () => {
    expect(await sdk(preview.url, '/products/00000000-0000-4000-8000-000000000000')).toEqual({
      status: 404,
      body: { message: 'Content not found.' },
    });
    expect(await sdk(preview.url, '/nope')).toEqual({ status: 404, body: { message: 'Collection not found.' } });
    expect(await sdk(preview.url, '/collections/nope')).toEqual({ status: 404, body: { message: 'Collection not found.' } });
    expect(await sdk(preview.url, '/files/name/nope.png')).toEqual({ status: 404, body: { error: 'Asset not found' } });
    const q = await fetch(`${preview.url}/api/products?paginate=2`);
    expect(q.status).toBe(400);
    const refused = (await q.json()) as { message: string };
    expect(Object.keys(refused)).toEqual(['message']);
    // The static client reads no elmapi3 build: the advice is cqa serve alone.
    expect(refused.message).toContain('cqa serve');
    expect(refused.message).not.toContain("mode: 'static'");
    // Drafts are not in the tree.
    const drafts = (await sdk(server.url, '/products?state=draft')).body as { uuid: string }[];
    expect((await sdk(preview.url, `/products/${drafts[0]?.uuid}`)).status).toBe(404);
  });

  it('manifest and openapi.json name the one project; the host files route /api to its document', () => {
    const manifest = JSON.parse(readFileSync(join(work, 'shop3', 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ elmapi3: SHOP, projects: [{ id: SHOP, dialect: 'elmapi3' }] });
    const doc = JSON.parse(readFileSync(join(work, 'shop3', 'openapi.json'), 'utf8'));
    expect(Object.keys(doc.paths)).toContain('/api/products/{uuid}');
    expect(readFileSync(join(work, 'shop3', '_redirects'), 'utf8')).toContain('/api/  /api/index.json  200');
  });

  it("a media name holding '%' is that asset's path; a singleton with nothing published is the host's 404, not a failed build", async () => {
    const content = join(work, 'odd');
    cpSync('content/shop3', join(content, 'shop3'), { recursive: true });
    for (const name of ['50%off.txt', 'x%41.txt', '100%.png']) writeFileSync(join(content, 'shop3', 'media', name), 'hi\n');
    // More assets than a page of /api/files holds (25).
    for (let i = 0; i < 30; i++) writeFileSync(join(content, 'shop3', 'media', `file-${i}.txt`), `${i}\n`);
    // A singleton not filled in yet, and one whose only entry is in another locale.
    for (const slug of ['home', 'about']) {
      mkdirSync(join(content, 'shop3', slug));
      writeFileSync(join(content, 'shop3', slug, '_collection.yaml'), 'singleton: true\nfields:\n  headline: text\n');
    }
    writeFileSync(join(content, 'shop3', 'about', 'about.fr.yaml'), 'headline: À propos\n');
    const built = await quietBuild([content, '--project', SHOP, '--include-private', '--out', join(work, 'odd-dist')]);
    expect(built.err).not.toMatch(/error|static document/);
    expect(built.code).toBe(0);
    const odd = await startPreview({ dir: join(work, 'odd-dist'), port: 0 });
    const live = await startServer({ content, port: 0 });
    try {
      for (const name of ['50%off.txt', 'x%41.txt', '100%.png']) {
        const path = `/files/name/${encodeURIComponent(name)}`;
        const answer = await sdk(odd.url, path);
        expect(answer.status, name).toBe(200);
        expect((answer.body as { filename: string }).filename, name).toBe(name);
        expect(answer.body, name).toEqual((await sdk(live.url, path)).body);
      }
      // A static host answers /api/files?page=2 with page 1: the tree's one page holds them all, and names no next page.
      type Page = {
        data: unknown[];
        links: Record<string, string | null>;
        meta: { links: { url: string | null }[] } & Record<string, unknown>;
      };
      const files = (await sdk(odd.url, '/files')).body as Page;
      expect(files.data).toHaveLength(34);
      expect(files.links.next).toBeNull();
      expect(files.meta).toMatchObject({ current_page: 1, last_page: 1, per_page: 34, total: 34 });
      // Every link it names is a path the same tree answers (found from outside: `?page=1` was a 400).
      const links = [...Object.values(files.links), ...files.meta.links.map((l) => l.url)].filter((u) => u !== null);
      expect(new Set(links)).toEqual(new Set(['/api/files']));
      for (const link of links) expect((await sdk(odd.url, (link as string).slice('/api'.length))).status, link as string).toBe(200);
      expect(((await sdk(live.url, '/files')).body as { data: unknown[] }).data).toHaveLength(25);
      for (const slug of ['home', 'about']) {
        expect((await sdk(live.url, `/${slug}`)).status, slug).toBe(404);
        expect((await sdk(odd.url, `/${slug}`)).status, slug).toBe(404);
      }
    } finally {
      await odd.close();
      await live.close();
    }
  }, 60_000);

  it('without --project the tree leaves elmapi3 projects out, saying how to build them; --project names a known project', async () => {
    const all = await quietBuild(['content', '--include-private', '--out', join(work, 'all')]);
    expect(all.code).toBe(0);
    expect(all.err).toContain(`note: left out of`);
    // The command as printed builds it, as the first test does (found from outside: it lacked the folder and --include-private).
    expect(all.err).toContain(`cqa build content --project ${SHOP} --include-private --out <another folder>`);
    expect(JSON.parse(readFileSync(join(work, 'all', 'manifest.json'), 'utf8')).projects.map((p: { id: string }) => p.id)).not.toContain(
      SHOP,
    );
    const unknown = await quietBuild(['content', '--project', 'nope', '--out', join(work, 'x')]);
    expect(unknown.code).toBe(2); // a usage mistake (docs/cli.md: exit 2), found from outside: it was 1
    expect(unknown.err).toMatch(
      /--project nope: no such project in content; the projects are .*3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10 \(elmapi3\)/,
    );
    // The folder's name instead of the id: the id to give (found from outside: only the list of ids).
    const byFolder = await quietBuild(['content', '--project', 'shop3', '--out', join(work, 'x')]);
    expect(byFolder.code).toBe(2);
    expect(byFolder.err).toContain(
      `--project shop3: no such project in content; 'shop3' is the folder of project '${SHOP}', and --project takes its id: --project ${SHOP}; the projects are`,
    );
    // Another project alone is a plain one-project tree.
    expect((await quietBuild(['content', '--project', 'demo', '--include-private', '--out', join(work, 'demo')])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(work, 'demo', 'manifest.json'), 'utf8')).projects.map((p: { id: string }) => p.id)).toEqual([
      'demo',
    ]);
    // A tree of elmapi3 projects only: nothing to write without --project.
    mkdirSync(join(work, 'v3only', 'p', 'posts'), { recursive: true });
    writeFileSync(join(work, 'v3only', 'p', 'project.yaml'), `id: ${SHOP}\nname: P\ndialect: elmapi3\npublic: true\n`);
    writeFileSync(join(work, 'v3only', 'p', 'posts', 'a.yaml'), 'title: A\n');
    const none = await quietBuild([join(work, 'v3only'), '--out', join(work, 'none')]);
    expect(none.code).toBe(1);
    expect(none.err).toContain(
      `every project here is elmapi3, and a static host cannot read the project-id header that names one: build each alone (${SHOP}), e.g. cqa build ${join(work, 'v3only')} --project ${SHOP} --out <another folder>`,
    );
  }, 60_000);
});
