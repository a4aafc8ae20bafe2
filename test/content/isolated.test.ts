// loadContentIsolated(): the compiled load process gives the same model as loading in this thread,
// errors and progress included. (lib/ is compiled by test/global-setup.ts.)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { loadContentIsolated as LoadIsolated, loadSnapshotIsolated as LoadSnapshot } from '../../src/node/load-path.js';
import { loadContent } from '../../src/node/content/load.js';
import { writeFileSync } from 'node:fs';
import { generateContent } from '../../scripts/generate-content.mjs';
import { writeTree } from './helpers.js';

const compiled = (): Promise<{ loadContentIsolated: typeof LoadIsolated; loadSnapshotIsolated: typeof LoadSnapshot }> =>
  import(pathToFileURL(resolve('lib/node/load-path.js')).href);

// -0 and a YAML alias: what the values are as the parser made them (JSON would make them 0 and copies).
const PARSER_SHAPED = {
  'p/project.yaml': 'id: p\npublic: true\n',
  'p/posts/_collection.yaml':
    'fields:\n  n: number\n  meta: json\n  metas: { type: json, multiple: true }\n  code: { type: number, hidden: true }\n',
  'p/posts/a.yaml': 'n: -0\nmeta: &m { zero: -0, list: [-0] }\nmetas: [*m]\ncode: -0\n',
  'p/posts/b.json': '{"n": -0, "meta": {"x": -0.0}, "code": -0}',
};
const ALWAYS_ISOLATED = { inThreadUpTo: { files: 0, bytes: 0 } };

describe('loadContentIsolated', () => {
  it('loads the sample in the load process into the same model as loadContent, reporting progress', async () => {
    const { loadContentIsolated } = await compiled();
    const progress: number[] = [];
    // Limits of zero: the load process even for the small sample (which otherwise loads in this thread).
    const isolated = await loadContentIsolated('content', {
      inThreadUpTo: { files: 0, bytes: 0 },
      onProgress: (done) => progress.push(done),
    });
    const inThread = await loadContent('content');
    expect(isolated.issues).toEqual([]);
    expect(isolated.model).toEqual(inThread.model);
    expect(isolated.warnings).toEqual(inThread.warnings);
    expect(progress.length).toBeGreaterThan(0);
  });

  it('passes content errors back from the load process', async () => {
    const { loadContentIsolated } = await compiled();
    const root = writeTree({
      'p/project.yaml': 'id: p\n',
      'p/posts/_collection.yaml': 'fields:\n  price: number\n',
      'p/posts/a.yaml': 'price: cheap\n',
    });
    const { issues } = await loadContentIsolated(root, { inThreadUpTo: { files: 0, bytes: 0 } });
    expect(issues).toEqual([expect.objectContaining({ file: 'p/posts/a.yaml', line: 1, field: 'price' })]);
  });

  it('parses a large tree on two threads into the same model and the same messages', async () => {
    const { loadContentIsolated } = await compiled();
    const root = writeTree({});
    generateContent({ entries: 1500, out: root, seed: 3, format: 'mixed' });
    // Two broken files, one in each half of the list, so both threads' messages are compared.
    writeFileSync(`${root}/bench/items/item-000002.md`, '---\ntitle: A\nprice: cheap\n---\nBody\n');
    writeFileSync(`${root}/bench/items/item-001499.yaml`, 'title: B\nprice: [1, 2]\n');
    const isolated = await loadContentIsolated(root, { inThreadUpTo: { files: 0, bytes: 0 } });
    const inThread = await loadContent(root);
    const withLines = new Set(isolated.issues.filter((i) => i.line !== undefined).map((i) => i.file));
    expect(withLines).toEqual(new Set(['bench/items/item-000002.md', 'bench/items/item-001499.yaml']));
    expect(isolated.issues).toEqual(inThread.issues);
    expect(isolated.model).toEqual(inThread.model);
  });

  it('gives the values loadContent gives, though the model leaves the load process: -0 as 0, an aliased value as a copy of its own', async () => {
    const { loadContentIsolated } = await compiled();
    const root = writeTree(PARSER_SHAPED);
    const isolated = await loadContentIsolated(root, ALWAYS_ISOLATED);
    const inThread = await loadContent(root);
    expect(isolated.issues).toEqual([]);
    expect(isolated.model).toStrictEqual(inThread.model);
    type A = { n: number; code: number; meta: { zero: number; list: number[] }; metas: unknown[] };
    type B = { n: number; code: number; meta: { x: number } };
    const [a, b] = (isolated.model.projects[0]?.collections[0]?.entries ?? []).map((e) => e.values) as [A, B];
    // As detached values are (entries.ts), whichever process loaded them.
    expect([a.n, a.meta.zero, a.meta.list[0], a.code, b.n, b.meta.x, b.code].every((v) => Object.is(v, 0))).toBe(true);
    expect(a.metas[0]).toEqual(a.meta);
    expect(a.metas[0]).not.toBe(a.meta);
  });

  it('gives cqa serve the snapshot records a load in this thread gives (a hidden -0 kept as 0)', async () => {
    const { loadSnapshotIsolated } = await compiled();
    const root = writeTree(PARSER_SHAPED);
    const isolated = await loadSnapshotIsolated(root, ALWAYS_ISOLATED);
    const inThread = await loadSnapshotIsolated(root);
    const values = (r: typeof isolated) =>
      [...(r.snapshot?.projects.get('p')?.collections.get('posts')?.entries ?? [])].map((e) => e.record.values);
    expect(values(isolated)).toHaveLength(2);
    expect(values(isolated)).toStrictEqual(values(inThread));
    expect(values(isolated).map((v) => Object.is(v.code, 0))).toEqual([true, true]);
  });
});
