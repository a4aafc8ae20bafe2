// openapi-fetch against the mock (issue 24, item 5): with the exported querySerializer it sends
// where[f][op] and `in` lists, and the types openapi-typescript generates from /openapi.json type
// `where` per collection — field names, operators per field type, value types — so that a typo or
// an operator the API refuses is a compile error, not a 400 at run time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { querySerializer } from '../../src/core/client/query-serializer.js';
import { type RunningServer, startServer } from '../../src/node/server/start.js';

let server: RunningServer;
const work = mkdtempSync(join(tmpdir(), 'cqa-openapi-fetch-'));
beforeAll(async () => {
  server = await startServer({ content: 'content' });
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

type Post = { id: string; reading_time: number | null; tags: string[] };

describe('openapi-fetch with the exported querySerializer', () => {
  it('sends where[f][op] and in lists, and gets the filtered answer', async () => {
    // The untyped client here; the typed use is compiled below.
    const client = createClient<Record<string, never>>({
      baseUrl: server.url,
      querySerializer,
      headers: { authorization: 'Bearer demo-token' },
    });
    server.clearRequests();
    const { data, error, response } = await (
      client as unknown as { GET: (p: string, i: unknown) => Promise<{ data?: { data: Post[] }; error?: unknown; response: Response }> }
    ).GET('/api/demo/posts', {
      params: {
        query: {
          where: { reading_time: { gte: 5 }, tags: { in: ['travel', 'food'] } },
          sort: 'reading_time:asc',
          limit: 50,
          timestamps: true,
        },
      },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    const posts = data?.data ?? [];
    expect(posts.length).toBeGreaterThan(0);
    for (const p of posts) {
      expect(p.reading_time).toBeGreaterThanOrEqual(5);
      expect(p.tags.some((t) => t === 'travel' || t === 'food')).toBe(true);
    }
    const [sent] = server.requests();
    expect(sent?.query).toEqual({
      'where[reading_time][gte]': '5',
      'where[tags][in][]': ['travel', 'food'],
      sort: 'reading_time:asc',
      limit: '50',
      timestamps: '',
    });
  });

  it('refuses a query key the API does not know, naming it and what it takes', () => {
    expect(() => querySerializer({ wehre: { a: 1 } })).toThrow(
      "querySerializer: unknown query parameter 'wehre'; the API takes where, whereRelation, sort, limit, offset, state, locale, fields, exclude, first, count, timestamps",
    );
    expect(() => querySerializer({ count: 'yes' })).toThrow(
      `querySerializer: count is a flag: give true (or ''), or leave it out; got "yes"`,
    );
    expect(querySerializer({ count: '', where: { or: [{ featured: true }, { tags: 'api' }] } })).toBe(
      'where[or][0][featured]=true&where[or][1][tags]=api&count',
    );
    expect(querySerializer(undefined)).toBe('');
  });
});

describe('the types openapi-typescript generates from /openapi.json', () => {
  it('type where per collection: field names, operators by field type, value types', async () => {
    const doc = await (await fetch(`${server.url}/openapi.json`, { headers: { authorization: 'Bearer demo-token' } })).text();
    writeFileSync(join(work, 'demo.ts'), astToString(await openapiTS(doc)));
    // Every @ts-expect-error line must be an error, and everything else must compile.
    writeFileSync(
      join(work, 'use.ts'),
      `import createClient from 'openapi-fetch';
import { querySerializer } from 'content-query-api/client';
import type { paths, operations } from './demo.js';

type Where = NonNullable<NonNullable<operations['listPosts']['parameters']['query']>['where']>;
const cms = createClient<paths>({ baseUrl: 'http://127.0.0.1:4000', querySerializer });
export const ok = () => cms.GET('/api/demo/posts', {
  params: { query: { where: { reading_time: { gte: 5, between: [1, 9] }, tags: { in: ['travel', 'food'] }, featured: true, locale: 'de', or: [{ title: { like: 'Hello%' } }] } } },
});
export const a: Where = { reading_time: 5, published_at: { gt: '2024-01-01' }, id: { in: ['hello-world'] }, excerpt: { null: true } };
// @ts-expect-error: no field 'reading_tme'
export const typo: Where = { reading_tme: 5 };
// @ts-expect-error: 'like' is not an operator of a number field
export const likeOnNumber: Where = { reading_time: { like: '5%' } };
// @ts-expect-error: a number field takes numbers
export const textForNumber: Where = { reading_time: { gte: 'five' } };
// @ts-expect-error: 'gt' is not an operator of a boolean field
export const rangeOnBoolean: Where = { featured: { gt: true } };
// @ts-expect-error: 'blog' is not one of the enumeration's values
export const notAValue: Where = { tags: 'blog' };
// @ts-expect-error: the hidden field cannot be filtered on
export const hidden: Where = { internal_note: 'x' };
// @ts-expect-error: 'fr' is not a locale of the project
export const locale: Where = { locale: 'fr' };
`,
    );
    const program = ts.createProgram([join(work, 'use.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      baseUrl: work,
      paths: {
        'openapi-fetch': [resolve('node_modules/openapi-fetch/dist/index.d.mts')],
        'content-query-api/client': [resolve('src/core/client/index.ts')],
      },
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file?.fileName.split('/').pop()}:${d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    expect(errors).toEqual([]);
  }, 60_000);
});
