// Sorting by long texts and json values (found from outside: 400 values of 200 KB sharing their
// start took 1.5 s for a text field and 10.6 s for a json one, holding every other request). The
// order must stay what it was: by code point, json values by their JSON text.
import { describe, expect, it } from 'vitest';
import { queryEntries } from '../../src/core/query/index.js';
import { compareCodePoints, compareScalars, entryComparator, jsonTexts } from '../../src/core/snapshot/order.js';
import type { CollectionRecord, FieldValue, ProjectRecord } from '../../src/core/model/model.js';
import type { CollectionSnapshot, ProjectSnapshot } from '../../src/core/model/types.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { entry, field, model, reader } from './fixture.js';

const LONG = 'x'.repeat(5_000);

describe('compareCodePoints over a long common start', () => {
  it.each([
    [`${LONG}a`, `${LONG}b`, -1],
    [`${LONG}b`, `${LONG}a`, 1],
    [LONG, `${LONG}a`, -1],
    // A code point above U+FFFF (a surrogate pair) outranks U+E000–U+FFFF, though its first unit is smaller.
    [`${LONG}\u{1F600}`, `${LONG}\uE000`, 1],
    [`${LONG.slice(0, 300)}\uE000${LONG}`, `${LONG.slice(0, 300)}\u{1F600}${LONG}`, -1],
  ])('%#: the sign a character-by-character comparison gives', (a, b, sign) => {
    expect(Math.sign(compareCodePoints(a, b))).toBe(sign);
    expect(Math.sign(compareCodePoints(b, a))).toBe(-sign);
  });
});

describe('json values', () => {
  const values: FieldValue[] = [{ a: [LONG, 2] }, { a: [LONG, 1] }, [LONG, 'z'], 'text', 7, { a: [`${LONG}\u{1F600}`] }];
  it('compare by the texts made once exactly as by their JSON text', () => {
    const texts = jsonTexts(values);
    for (const [i, a] of values.entries())
      for (const [j, b] of values.entries())
        expect(Math.sign(compareScalars(a, b, texts[i], texts[j]))).toBe(Math.sign(compareScalars(a, b)));
  });

  it('sort a collection by a json field as the loader orders it (entryComparator: by JSON text, empty last)', () => {
    const base = model.projects[0] as ProjectRecord;
    const col = {
      ...(base.collections.find((c) => c.slug === 'products') as CollectionRecord),
      slug: 'long',
      fields: [field('j', 'json')],
      entries: [...values, null, []].map((j, i) => entry(`e${i}`, { j })),
    };
    const project = createSnapshot({ projects: [{ ...base, collections: [col] }] }).projects.get('shop') as ProjectSnapshot;
    const r = queryEntries(project, project.collections.get('long') as CollectionSnapshot, 'sort=j&fields=id', reader);
    if (!r.ok) throw new Error(JSON.stringify(r.problem));
    const expected = [...col.entries].sort(entryComparator([{ field: 'j', desc: false }], false)).map((e) => e.id);
    // A list sorts by its first value; mixed kinds and objects by JSON text ('"' < '7' < '{'); empty last.
    expect(expected).toEqual(['e3', 'e2', 'e4', 'e1', 'e0', 'e5', 'e6', 'e7']);
    expect((JSON.parse(r.body) as { data: { id: string }[] }).data.map((e) => e.id)).toEqual(expected);
  });
});
