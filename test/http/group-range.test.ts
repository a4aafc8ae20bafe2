// Group and date-range fields in a cqa project (found from outside): their values are objects and
// lists of objects, and `cqa types`, /openapi.json and the where-clauses must say so — the types
// had them as strings (`e.venue?.name` did not compile), and `where[when][gte]=…` or
// `where[venue][like]=%name%` compared the JSON text in silence.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTypes } from '../../src/core/describe/client-types.js';
import { type Field, fromOpenApi, fromProjectAnswer, opsOf } from '../../src/core/http/explorer/browser/schema.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { loadContent } from '../../src/node/content/load.js';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { violations } from './schema-check.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-group-range-'));
const content = join(work, 'content');
const files: Record<string, string> = {
  'p/project.yaml': 'id: p\npublic: true\n',
  'p/media/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
  'p/people/_collection.yaml': 'fields:\n  name: text\n',
  'p/people/ann.yaml': 'name: Ann\n',
  'p/events/_collection.yaml': [
    'fields:',
    '  title: text',
    '  when: { type: date, range: true }',
    '  slot: { type: datetime, range: true, required: true }',
    '  venue: { type: group, fields: { name: { type: text, required: true }, city: text, host: { type: relation, collection: people }, logo: media, tags: { type: text, multiple: true }, open: { type: date, range: true }, code: password, note: { type: text, hidden: true } } }',
    '  sessions: { type: group, repeatable: true, fields: { topic: text, minutes: number } }',
    '',
  ].join('\n'),
  'p/events/full.yaml': [
    'title: Full',
    'when: { start: 2025-03-01, end: 2025-03-02 }',
    'slot: { start: 2025-03-01T09:00:00Z }',
    'venue: { name: Hall, city: Leipzig, host: ann, logo: logo.svg, tags: [big, old], open: { start: 2025-01-01 }, code: hunter2, note: backstage }',
    'sessions: [{ topic: Intro, minutes: 10 }, { topic: Deep dive, minutes: null }, { topic: Outro }]',
    '',
  ].join('\n'),
  'p/events/bare.yaml': 'title: Bare\nslot: { end: 2025-04-01T10:00:00Z }\n',
};
// The same collection in the elmapi dialect (its own OpenAPI module: round two found strings there).
const E = 'e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0';
for (const [rel, text] of Object.entries(files))
  if (rel.startsWith('p/events/') || rel.startsWith('p/people/') || rel.startsWith('p/media/')) files[`e/${rel.slice(2)}`] = text;
files['e/project.yaml'] = `id: ${E}\ndialect: elmapi\npublic: true\n`;

let snapshot: Snapshot;
let handler: (request: Request) => Promise<Response>;
const get = async (path: string) => {
  const res = await handler(new Request(`http://cms.test${path}`, { headers: { accept: 'application/json' } }));
  return { status: res.status, body: (await res.json()) as any };
};

beforeAll(async () => {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(content, rel)), { recursive: true });
    writeFileSync(join(content, rel), text);
  }
  snapshot = await buildSnapshot({ content });
  handler = createHandler(snapshot);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('group and range fields in a cqa project', () => {
  it('answers fit the OpenAPI entry schema, objects and lists where the values are', async () => {
    const list = await get('/api/p/events?sort=title');
    expect(list.status).toBe(200);
    const [bare, full] = list.body.data;
    expect(full.venue).toEqual({
      name: 'Hall',
      city: 'Leipzig',
      host: 'ann',
      logo: 'logo.svg',
      tags: ['big', 'old'],
      open: { start: '2025-01-01', end: null },
    });
    // A child given null is null; one not given is left out.
    expect(full.sessions).toEqual([{ topic: 'Intro', minutes: 10 }, { topic: 'Deep dive', minutes: null }, { topic: 'Outro' }]);
    // A password or hidden child is never served, nor sorted on (found from outside: both were).
    const raw = JSON.stringify((await get('/api/p/events?sort=venue')).body);
    expect(raw).not.toMatch(/hunter2|backstage/);
    expect(bare).toMatchObject({ when: null, venue: null, sessions: null, slot: { start: null, end: '2025-04-01T10:00:00.000Z' } });
    const doc = (await get('/openapi.json')).body;
    const path = Object.keys(doc.paths).find((p) => p.endsWith('/p/events'));
    const schema = doc.paths[path as string].get.responses['200'].content['application/json'].schema;
    expect(violations(list.body, schema, doc)).toEqual([]);
    // The schema is not vacuous: a string where the group is does not fit it.
    expect(violations({ ...list.body, data: [{ ...full, venue: 'Hall' }] }, schema, doc)).not.toEqual([]);
  });

  it('in the elmapi dialect too, answers fit the OpenAPI document', async () => {
    const list = await get(`/api/${E}/events`);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain('"venue":{"name":"Hall"');
    const doc = (await get('/openapi.json')).body;
    const path = Object.keys(doc.paths).find((p) => p.endsWith(`/${E}/events`));
    const schema = doc.paths[path as string].get.responses['200'].content['application/json'].schema;
    expect(violations(list.body, schema, doc)).toEqual([]);
  });

  it('cqa types gives them types an answer fits and a consumer can use', async () => {
    const { model } = await loadContent(content);
    const types = clientTypes(model);
    expect(types).toContain('when: { start: string | null; end: string | null } | null;');
    expect(types).toContain('slot: { start: string | null; end: string | null };');
    expect(types).toContain('sessions: ({ topic?: string | null; minutes?: number | null })[] | null;');
    const list = JSON.stringify((await get('/api/p/events')).body);
    const client = new URL('../../src/core/client/types.js', import.meta.url).href;
    const consumer = [
      "import type { List, PEvents, Types } from './types.js';",
      `import type { Condition } from ${JSON.stringify(fileURLToPath(client))};`,
      `const answer: List<PEvents> = ${list};`,
      'export const city: string | null | undefined = answer.data[0]?.venue?.city;',
      'export const name: string | undefined = answer.data[0]?.venue?.name;',
      'export const minutes: number | null | undefined = answer.data[0]?.sessions?.[0]?.minutes;',
      'export const start: string | null | undefined = answer.data[0]?.when?.start;',
      '// @ts-expect-error: a group is no string',
      "export const wrong = answer.data[0]?.venue === 'Hall';",
      // The typed where takes null/not_null on them, no value (found by round two: the server's 400s type-checked).
      "type F = Types['p']['collections']['events']['fields'];",
      "export const open: Condition<F['when']> = { not_null: true };",
      '// @ts-expect-error: a range takes no value',
      "export const day: Condition<F['when']> = '2025-03-01';",
      '// @ts-expect-error: nor an operator of dates',
      "export const after: Condition<F['when']> = { gte: '2025-03-01' };",
      '// @ts-expect-error: a group takes no value',
      "export const hall: Condition<F['venue']> = 'Hall';",
    ].join('\n');
    const dir = join(work, 'consumer');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'types.ts'), types);
    writeFileSync(join(dir, 'consumer.ts'), consumer);
    const program = ts.createProgram([join(dir, 'consumer.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  });

  it('a where-clause on them takes null and not_null only, and says so', async () => {
    for (const query of ['where[when][gte]=2025-01-01', 'where[venue]=Hall', 'where[venue][like]=%25name%25', 'where[sessions][gt]=A']) {
      const r = await get(`/api/p/events?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.detail, query).toMatch(/null, not_null/);
    }
    expect((await get('/api/p/events?where[venue][null]=true')).body.data.map((e: { id: string }) => e.id)).toEqual(['bare']);
    expect((await get('/api/p/events?where[when][not_null]=true')).body.data.map((e: { id: string }) => e.id)).toEqual(['full']);
    // They sort by their JSON text: a range by its start, an open start after every date (http-api.md).
    const ids = async (q: string) => (await get(`/api/p/events?${q}`)).body.data.map((e: { id: string }) => e.id);
    expect(await ids('sort=slot')).toEqual(['full', 'bare']);
    expect(await ids('sort=slot:desc')).toEqual(['bare', 'full']);
  });

  it('the explorer offers them null and not_null only, learnt from the project answer and from the OpenAPI document (round two)', async () => {
    for (const project of fromOpenApi((await get('/openapi.json')).body)) {
      for (const learnt of [false, true]) {
        if (learnt) fromProjectAnswer(project, (await get('/api/p')).body.data);
        const events = project.collections.find((c) => c.slug === 'events');
        for (const name of ['when', 'slot', 'venue', 'sessions']) {
          const field = events?.fields.find((f) => f.name === name) as Field;
          expect(opsOf(field), `${name} (${learnt ? 'project answer' : 'openapi'})`).toEqual(['null', 'not_null']);
        }
      }
    }
  });

  it("'multiple' on a group or a range is refused, saying what to write", async () => {
    const root = join(work, 'multiple');
    for (const [rel, text] of Object.entries({
      'p/project.yaml': 'id: p\n',
      'p/events/_collection.yaml':
        'fields:\n  when: { type: date, range: true, multiple: true }\n  venue: { type: group, multiple: true, fields: { name: text } }\n',
      'p/events/a.yaml': 'when: { start: 2025-03-01 }\n',
    })) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    }
    const { issues } = await loadContent(root);
    expect(issues.map((i) => `${i.file}:${i.line}: ${i.field}: ${i.message}`)).toEqual([
      "p/events/_collection.yaml:2: when: a range holds one start and one end: remove 'multiple' (or declare one range field per period)",
      "p/events/_collection.yaml:3: venue: a group takes 'repeatable: true' for a list of them, not 'multiple'",
    ]);
  });
});
