// The portable snapshot file: snapshotText → loadSnapshot gives back a snapshot that answers
// exactly as the original (same hash, documents, queries), from text, bytes or a parsed object;
// the file is deterministic, keeps no path of the build machine, and writeSnapshot makes it
// readable by its owner only.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../src/core/http/fetch.js';
import { elmapi3Routes } from '../../src/core/http/elmapi3/handler.js';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { ContentModel } from '../../src/core/model/model.js';
import { loadSnapshot, SnapshotFormatError, snapshotText } from '../../src/core/snapshot/portable.js';
import { writeSnapshot } from '../../src/node/output/snapshot-file.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { DRAFT_VALUE, fixtureModel, mediaFiles, TOKEN, TOKEN_SHA } from './fixture.js';

const { dir: mediaDir, media } = mediaFiles();

/** The fixture, with a json field whose keys look like the records' own (`file`, `source`, …). */
function model(): ContentModel {
  const m = fixtureModel(media);
  const project = m.projects[0] as ContentModel['projects'][number];
  const posts = project.collections[1] as ContentModel['projects'][number]['collections'][number];
  const first = posts.entries[0] as (typeof posts.entries)[number];
  const entries = [
    { ...first, values: { ...first.values, meta: { id: 'x', draft: true, file: 'keep.md', source: '/keep', mime_type: 'a/b' } } },
    ...posts.entries.slice(1),
  ];
  return { projects: [{ ...project, collections: [project.collections[0] as typeof posts, { ...posts, entries }] }] };
}

const original = createSnapshot(model(), { baseUrl: 'https://cdn.test' });
const text = snapshotText(original);

const QUERIES = [
  '/api/demo/posts?where[price][gt]=2&sort=price:desc&limit=2',
  '/api/demo/posts?whereRelation[author][name]=Ann&count',
  '/api/demo/posts?state=with_draft&timestamps&fields=title',
  '/api/demo/posts/post-1?exclude=body',
  '/api/demo/project-media?where[mime_type]=image/png',
  '/healthz',
];

async function answers(snapshot: Snapshot): Promise<string[]> {
  const handler = createHandler(snapshot);
  const out: string[] = [];
  for (const path of QUERIES) {
    const res = await handler(
      new Request(`http://x${path}`, { headers: { accept: 'application/json', authorization: `Bearer ${TOKEN}` } }),
    );
    out.push(`${res.status} ${res.headers.get('etag')} ${await res.text()}`);
  }
  return out;
}

describe('loadSnapshot(snapshotText(s))', () => {
  const loaded = loadSnapshot(text);

  it('has the same hash, paths, documents and OpenAPI description', () => {
    expect(loaded.hash).toBe(original.hash);
    expect(loaded.baseUrl).toBe('https://cdn.test');
    expect(loaded.paths).toEqual(original.paths);
    for (const p of original.paths) expect(loaded.document(p), p).toBe(original.document(p));
    expect(loaded.openapi).toBe(original.openapi);
  });

  it('answers queries, drafts included, with the same bodies and ETags', async () => {
    const expected = await answers(original);
    expect(expected.every((a) => a.startsWith('200 '))).toBe(true);
    expect(await answers(loaded)).toEqual(expected);
  });

  it('loads from text, bytes (Uint8Array, ArrayBuffer) and the parsed object alike', () => {
    const bytes = new TextEncoder().encode(text);
    for (const data of [bytes, bytes.buffer, JSON.parse(text)]) expect(loadSnapshot(data).hash).toBe(original.hash);
  });

  it("keys media by `<project>/<media id>`, their path under a build's media/ folder", () => {
    expect(loaded.projects.get('demo')?.mediaById.get('photos/a b.png')?.record.source).toBe('demo/photos/a b.png');
  });

  it('keeps json values whole, whatever their keys', () => {
    const post = loaded.projects.get('demo')?.collections.get('posts')?.byId.get('post-1');
    expect(post?.record.values.meta).toEqual({ id: 'x', draft: true, file: 'keep.md', source: '/keep', mime_type: 'a/b' });
  });
});

describe('the snapshot file', () => {
  it('is versioned and deterministic', () => {
    const head = JSON.parse(text);
    expect(head).toMatchObject({ format: 'cqa-snapshot', version: 1, hash: original.hash, base_url: 'https://cdn.test' });
    expect(snapshotText(createSnapshot(model(), { baseUrl: 'https://cdn.test' }))).toBe(text);
    expect(snapshotText(loadSnapshot(text))).toBe(text);
  });

  it('holds drafts and token hashes (the worker needs them), and no path of the build machine', () => {
    expect(text).toContain(DRAFT_VALUE);
    expect(text).toContain(TOKEN_SHA);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(mediaDir);
    expect(text).not.toContain('post-1.md');
  });

  it('rejects what is not a snapshot with a message that says what to do', () => {
    const bad: [unknown, RegExp][] = [
      ['{"format": ', /not JSON/],
      ['[1, 2]', /"format" is undefined/],
      [JSON.stringify({ name: 'content-query-api', version: '0.1.0', snapshot: 'abc' }), /"format" is undefined, expected "cqa-snapshot"/],
      [JSON.stringify({ ...JSON.parse(text), version: 2 }), /format version 2, this version reads 1/],
      [JSON.stringify({ ...JSON.parse(text), projects: {} }), /"projects" is not a list/],
      [JSON.stringify({ ...JSON.parse(text), projects: [{ id: 'x' }] }), /a project lacks/],
      [null, /expected a JSON object/],
      // Found when the description became lazy: checked as the file loads, not at the first /openapi.json.
      [JSON.stringify({ ...JSON.parse(text), openapi: {} }), /no OpenAPI document for the projects/],
      [JSON.stringify({ ...JSON.parse(text), openapi: 'none' }), /"openapi" is not an object/],
    ];
    for (const [data, message] of bad) {
      const attempt = () => loadSnapshot(data as string);
      expect(attempt).toThrow(SnapshotFormatError);
      expect(attempt).toThrow(message);
      expect(attempt).toThrow(/cqa build <content> --snapshot <file>/);
    }
  });
});

describe('writeSnapshot', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cqa-snapfile-'));

  it('writes the file atomically, readable by its owner only, replacing an older one', async () => {
    const file = join(dir, 'snapshot.json');
    writeFileSync(file, 'old', { mode: 0o644 });
    const result = await writeSnapshot(original, { file });
    expect(result).toEqual({ file, bytes: Buffer.byteLength(text), worldReadable: false });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readdirSync(dir)).toEqual(['snapshot.json']); // no temp file left
  });

  it('says when the file is readable by everyone', async () => {
    const result = await writeSnapshot(original, { file: join(dir, 'open.json'), mode: 0o644 });
    expect(result.worldReadable).toBe(true);
  });
});

describe('an elmapi3 project in the snapshot file', () => {
  it('answers as the original: relations named by file name, translations, the newest-first order', async () => {
    const SHOP3 = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';
    const sample = await buildSnapshot({ content: 'content' });
    const handlers = [sample, loadSnapshot(snapshotText(sample))].map((s) => createHandler(s, { elmapi3: elmapi3Routes }));
    const answers = async (path: string) =>
      Promise.all(
        handlers.map(async (h) => {
          const res = await h(
            new Request(`http://x${path}`, {
              headers: { accept: 'application/json', authorization: 'Bearer shop3-token', 'project-id': SHOP3 },
            }),
          );
          return `${res.status} ${await res.text()}`;
        }),
      );
    const alpha = '/api/products/9b1f6c52-3a41-4d7e-9a57-0c1b8e2f4a10';
    const about = ((await answers('/api/pages'))[0] as string).match(/"uuid":"([^"]+)","locale":"en"/)?.[1];
    for (const path of [alpha, '/api/products', '/api/products?paginate=2&sort=price', `/api/pages/${about}?translation_locale=fr`]) {
      const [original, loaded] = await answers(path);
      expect(original, path).toMatch(/^200 /);
      expect(loaded, path).toBe(original);
    }
    expect((await answers(alpha))[1]).toContain('"title":"Trail Jacket"'); // the related entry, named by its file
  });
});
