// The compact snapshot `cqa serve` holds (src/core/snapshot/compact.ts): one copy of each entry, its
// text. It must answer exactly like the full one — documents, queries, projections — in both
// dialects, while its records keep only the values their text does not show.
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/load.js';
import { queryEntries } from '../../src/core/query/index.js';
import type { QueryContext } from '../../src/core/query/types.js';
import { fieldValue } from '../../src/core/query/table.js';
import { compactParts, joinParts, recordMaker, splitParts, type PartsOutline } from '../../src/core/snapshot/compact.js';
import { createSnapshot, snapshotFromParts } from '../../src/core/snapshot/create.js';
import { ownValue, type ContentModel, type EntryRecord } from '../../src/core/model/model.js';
import type { CollectionSnapshot, Snapshot } from '../../src/core/model/types.js';
import { model as trapModel } from '../query/fixture.js';

const sample = await loadContent('content');
expect(sample.issues).toEqual([]);

const ctx: QueryContext = { scopes: new Set(['read', 'drafts']), maxLimit: 0 };

/** Queries touching every visible field: filters, sorts, projections, with and without drafts. */
function queriesFor(col: CollectionSnapshot): string[] {
  const out = ['', 'timestamps', 'state=with_draft&timestamps', 'state=only_draft'];
  for (const f of col.visibleFields) {
    const n = encodeURIComponent(f.name);
    out.push(`sort=${n}:asc`, `sort=${n}:desc,id:asc`, `where[${n}][null]`, `where[${n}][not_null]&state=with_draft`);
    out.push(`fields=${n}`, `exclude=${n}&timestamps`, `fields=${n}&timestamps&state=with_draft`);
    for (const e of col.entries.slice(0, 3)) {
      const v = ownValue(e.record.values, f.name);
      const one = Array.isArray(v) ? v[0] : v;
      if (one === undefined || one === null || typeof one === 'object') continue;
      out.push(`where[${n}]=${encodeURIComponent(String(one))}&state=with_draft`, `where[${n}][not]=${encodeURIComponent(String(one))}`);
      if (typeof one === 'string' && one.length > 1) out.push(`where[${n}][like]=${encodeURIComponent(`%${one.slice(1, 3)}%`)}`);
      if (typeof one === 'number') out.push(`where[${n}][gte]=${one}&sort=${n}:desc`);
    }
  }
  return out;
}

const decoder = new TextDecoder();

function compare(model: ContentModel): { answers: number; ok: number; utf8: number } {
  const full: Snapshot = createSnapshot(model);
  const compact = createSnapshot(model, { compact: true });
  // As the load process sends it to the server (src/node/load-process.ts) and it is rebuilt there.
  const { outline, records, buffers } = splitParts(compactParts(compact));
  const ownRecord = recordMaker();
  const received = (deserialize(serialize(records)) as EntryRecord[]).map(ownRecord);
  const posted = snapshotFromParts(
    joinParts(
      deserialize(serialize(outline)) as PartsOutline,
      received,
      buffers.map((b) => b.slice()),
    ),
  );
  let answers = 0;
  let ok = 0;
  let utf8 = 0;
  for (const other of [compact, posted]) {
    expect(other.hash).toBe(full.hash);
    expect(other.paths).toEqual(full.paths);
    expect(other.openapi).toBe(full.openapi);
    for (const path of full.paths) expect(other.document(path), path).toBe(full.document(path));
    for (const [id, project] of full.projects) {
      const mine = other.projects.get(id)!;
      expect(mine.dialect.projectJson(mine)).toBe(project.dialect.projectJson(project));
      for (const [slug, col] of project.collections) {
        for (const q of queriesFor(col)) {
          const a = queryEntries(project, col, q, ctx);
          const b = queryEntries(mine, mine.collections.get(slug)!, q, ctx);
          expect(b, `${id}/${slug}?${q}`).toEqual(a);
          // The HTTP core takes UTF-8: a list of entries whose texts arrived as bytes comes as those.
          const c = queryEntries(mine, mine.collections.get(slug)!, q, { ...ctx, utf8: true });
          const bytes = c.ok && typeof c.body !== 'string';
          if (bytes) utf8++;
          expect(bytes ? { ...c, body: decoder.decode(c.body as Uint8Array) } : c, `${id}/${slug}?${q} as UTF-8`).toEqual(a);
          answers++;
          if (a.ok) ok++;
        }
      }
    }
  }
  return { answers, ok, utf8 };
}

describe('compact snapshot (what cqa serve holds without --watch)', () => {
  it('answers every document and query of the sample (cqa and elmapi projects) byte-identically, also once sent by the load process, and its lists as UTF-8', () => {
    expect(sample.model.projects.map((p) => p.dialect ?? 'cqa').sort()).toEqual(['cqa', 'elmapi', 'elmapi3']);
    const { answers, ok, utf8 } = compare(sample.model);
    expect(answers).toBeGreaterThan(500);
    expect(utf8).toBeGreaterThan(100); // lists without fields= or timestamps, of the snapshot sent
    expect(ok).toBeGreaterThan(answers / 2); // mostly answers, not refusals
  });

  it('answers the query engine fixture (absent vs null, unicode, json, hidden, media, relations to drafts) identically', () => {
    const { ok } = compare(trapModel);
    expect(ok).toBeGreaterThan(100);
  });

  it('keeps in its records only the values their text does not show, and reads the others back exactly', () => {
    for (const model of [sample.model, trapModel]) {
      const full = createSnapshot(model);
      const compact = createSnapshot(model, { compact: true });
      let dropped = 0;
      for (const [id, project] of full.projects) {
        for (const [slug, col] of project.collections) {
          const small = compact.projects.get(id)!.collections.get(slug)!;
          col.entries.forEach((e, i) => {
            const c = small.entries[i]!;
            expect(c.json).toBe(e.json);
            for (const f of col.visibleFields) {
              expect(fieldValue(c, f.name), `${slug}/${e.record.id}.${f.name}`).toEqual(ownValue(e.record.values, f.name));
              if (!Object.hasOwn(c.record.values, f.name)) dropped++;
            }
          });
          // Relation and media values are ids; the text shows the objects: those stay (null and [] need not).
          for (const f of col.visibleFields.filter((f) => f.type === 'relation' || f.type === 'media')) {
            for (const c of small.entries) {
              const v = ownValue(col.byId.get(c.record.id)!.record.values, f.name);
              if (v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0))
                expect(Object.hasOwn(c.record.values, f.name)).toBe(true);
            }
          }
        }
      }
      // Text, numbers, dates, booleans, lists of them: read from the text, not kept twice.
      expect(dropped).toBeGreaterThan(50);
    }
    const posts = createSnapshot(sample.model, { compact: true }).projects.get('demo')!.collections.get('posts')!;
    for (const e of posts.entries) expect(Object.keys(e.record.values)).not.toContain('title');
  });
});
