// The sample in content/ (SPEC §8) and the benchmark generator's output must load without errors.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/index.js';
import { FIELD_TYPES } from '../../src/core/model/model.js';
import { generateContent } from '../../scripts/generate-content.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'cqa-sample-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('content/ sample', () => {
  it('loads with no errors and covers what SPEC §8 asks for', async () => {
    const { model, issues } = await loadContent(join(import.meta.dirname, '../../content'));
    expect(issues).toEqual([]);
    const demo = model.projects.find((p) => p.id === 'demo')!;
    expect(demo.locales).toEqual(['en', 'de']);
    expect(demo.tokens.map((t) => t.name).sort()).toEqual(['local-dev', 'website']);
    const entries = demo.collections.flatMap((c) => c.entries);
    expect(entries.length).toBeGreaterThanOrEqual(50);
    expect(entries.filter((e) => e.draft).length).toBeGreaterThanOrEqual(3);
    const posts = demo.collections.find((c) => c.slug === 'posts')!;
    expect(posts.entries.filter((e) => e.locale === 'de').length).toBeGreaterThanOrEqual(3);
    // Every type of SPEC §2.3 in demo; password and group (ElmapiCMS 4.0's) in the elmapi3 sample.
    const elmapi3Only = ['password', 'group'];
    const used = new Set(demo.collections.flatMap((c) => c.fields.map((f) => f.type)));
    expect([...FIELD_TYPES].filter((t) => !used.has(t) && !elmapi3Only.includes(t))).toEqual([]);
    const everywhere = new Set(model.projects.flatMap((p) => p.collections.flatMap((c) => c.fields.map((f) => f.type))));
    expect(elmapi3Only.filter((t) => !everywhere.has(t as never))).toEqual([]);
    const fields = demo.collections.flatMap((c) => c.fields);
    for (const type of ['media', 'relation'] as const) {
      expect(fields.some((f) => f.type === type && f.multiple)).toBe(true);
      expect(fields.some((f) => f.type === type && !f.multiple)).toBe(true);
    }
    expect(fields.some((f) => f.hidden)).toBe(true);
    expect(
      demo.media
        .filter((m) => m.width && m.height)
        .map((m) => m.mime_type)
        .sort(),
    ).toEqual(expect.arrayContaining(['image/jpeg', 'image/png', 'image/svg+xml']));
  });
});

describe('generated benchmark content', () => {
  it('loads with no errors', async () => {
    const info = generateContent({ entries: 500, out: tmp, seed: 3, format: 'mixed' });
    const { model, issues } = await loadContent(tmp);
    expect(issues).toEqual([]);
    const items = model.projects[0]!.collections.find((c) => c.slug === 'items')!;
    expect(items.entries).toHaveLength(500);
    expect(items.entries.filter((e) => e.draft)).toHaveLength(info.drafts);
  });
});
