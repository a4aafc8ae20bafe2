import { rmSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContentLoader, type LoadResult } from '../../src/node/content/load.js';
import { writeTree } from './helpers.js';

const ids = (r: LoadResult) => r.model.projects[0]?.collections.find((c) => c.slug === 'posts')?.entries.map((e) => e.id);

function touch(root: string, path: string, text: string, seconds: number): void {
  writeFileSync(join(root, path), text);
  const t = new Date(Date.UTC(2021, 0, 1, 0, 0, seconds));
  utimesSync(join(root, path), t, t);
}

describe.each([
  ['full listing', false],
  ['watch hints', true],
] as const)('incremental loader (%s)', (_label, hinted) => {
  it('sees edits, additions, deletions and new errors, and reuses unchanged entries', async () => {
    const root = writeTree({
      'p/project.yaml': 'name: P\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  n: number\n',
      'p/posts/a.yaml': 'title: A\nn: 1\n',
      'p/posts/b.yaml': 'title: B\nn: 2\n',
    });
    const loader = createContentLoader(root);
    const load = (...changed: string[]) => loader.load(hinted ? changed : undefined);
    const first = await load();
    expect(first.issues).toEqual([]);
    expect(ids(first)).toEqual(['a', 'b']);

    touch(root, 'p/posts/a.yaml', 'title: A2\nn: 1\n', 1);
    const second = await load('p/posts/a.yaml');
    const posts = (r: LoadResult) => r.model.projects[0]!.collections[0]!;
    expect(posts(second).entries[0]!.values.title).toBe('A2');
    // b.yaml did not change: the very same record is reused
    expect(posts(second).entries[1]).toBe(posts(first).entries[1]);

    touch(root, 'p/posts/c.yaml', 'title: C\nn: nope\n', 2);
    const third = await load(join(root, 'p/posts/c.yaml')); // absolute paths work too
    expect(third.issues).toEqual([{ file: 'p/posts/c.yaml', line: 2, field: 'n', message: 'expected a number, got "nope"' }]);

    rmSync(join(root, 'p/posts/c.yaml'));
    rmSync(join(root, 'p/posts/b.yaml'));
    const fourth = await load('p/posts/c.yaml', 'p/posts/b.yaml');
    expect(fourth.issues).toEqual([]);
    expect(ids(fourth)).toEqual(['a']);

    mkdirSync(join(root, 'p/pages'));
    touch(root, 'p/pages/home.md', '# Home', 3);
    const fifth = await load('p/pages');
    expect(fifth.model.projects[0]!.collections.map((c) => c.slug)).toEqual(['pages', 'posts']);

    // a schema change re-checks every entry
    touch(root, 'p/posts/_collection.yaml', 'fields:\n  title: text\n', 4);
    const sixth = await load('p/posts/_collection.yaml');
    expect(sixth.issues.map((i) => `${i.file} ${i.field}`)).toEqual(['p/posts/a.yaml n']);

    rmSync(join(root, 'p/pages'), { recursive: true });
    const seventh = await load('p/pages');
    expect(seventh.model.projects[0]!.collections.map((c) => c.slug)).toEqual(['posts']);
  });
});

describe('incremental loader with watch hints', () => {
  it('re-reads a hinted file even when its size and mtime did not change', async () => {
    const root = writeTree({ 'p/project.yaml': '', 'p/posts/a.yaml': 'title: AAA\n' });
    const loader = createContentLoader(root);
    await loader.load();
    touch(root, 'p/posts/a.yaml', 'title: BBB\n', 0);
    touch(root, 'p/posts/a.yaml', 'title: BBB\n', 0);
    const before = await loader.load(); // the mtime changed once: seen without a hint
    expect(before.model.projects[0]!.collections[0]!.entries[0]!.values.title).toBe('BBB');
    touch(root, 'p/posts/a.yaml', 'title: CCC\n', 0); // same size, same mtime
    const after = await loader.load(['p/posts/a.yaml']);
    expect(after.model.projects[0]!.collections[0]!.entries[0]!.values.title).toBe('CCC');
  });
});

describe('loadContent progress', () => {
  it('reports progress over entry and media files', async () => {
    const root = writeTree({ 'p/project.yaml': '', 'p/posts/a.md': 'a', 'p/posts/b.md': 'b', 'p/media/x.txt': 'x' });
    const calls: [number, number][] = [];
    await createContentLoader(root, { onProgress: (done, total) => calls.push([done, total]) }).load();
    expect(calls).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });
});
