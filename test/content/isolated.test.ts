// loadContentIsolated(): the compiled load process gives the same model as loading in this thread,
// errors and progress included. (lib/ is compiled by test/global-setup.ts.)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { loadContentIsolated as LoadIsolated } from '../../src/node/load-path.js';
import { loadContent } from '../../src/node/content/load.js';
import { writeFileSync } from 'node:fs';
import { generateContent } from '../../scripts/generate-content.mjs';
import { writeTree } from './helpers.js';

const compiled = (): Promise<{ loadContentIsolated: typeof LoadIsolated }> => import(pathToFileURL(resolve('lib/node/load-path.js')).href);

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
});
