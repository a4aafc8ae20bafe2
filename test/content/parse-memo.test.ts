import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/load.js';
import { ParseMemo } from '../../src/node/content/parse-memo.js';
import { collection, entry, MTIME, writeTree } from './helpers.js';

describe('parse memo (repeated loads in one process)', () => {
  it('parses a text once and hands out the same frozen result', () => {
    const memo = new ParseMemo();
    let parses = 0;
    const parse = (text: string) => {
      parses++;
      return { data: { tags: [text] } };
    };
    const first = memo.get('yaml', 'a: 1\n', parse);
    expect(memo.get('yaml', 'a: 1\n', parse)).toBe(first);
    expect(parses).toBe(1);
    expect(Object.isFrozen(first.data.tags)).toBe(true);
    expect(() => first.data.tags.push('x')).toThrow(TypeError);
    // another kind of file with the same text is parsed as that kind
    memo.get('markdown', 'a: 1\n', parse);
    expect(parses).toBe(2);
  });

  it('keeps at most its budget of text, dropping the oldest first', () => {
    const memo = new ParseMemo(10);
    let parses = 0;
    const parse = (text: string) => ({ n: ++parses, text });
    memo.get('yaml', 'aaaaa', parse);
    memo.get('yaml', 'bbbbb', parse);
    memo.get('yaml', 'ccccc', parse); // 15 characters: 'aaaaa' goes
    expect(memo.get('yaml', 'bbbbb', parse).n).toBe(2);
    expect(memo.get('yaml', 'aaaaa', parse).n).toBe(4);
    expect(memo.get('yaml', 'x'.repeat(11), parse).n).toBe(5); // larger than the budget: not kept
    expect(memo.get('yaml', 'x'.repeat(11), parse).n).toBe(6);
  });

  it('never serves a stale result: a file rewritten within one mtime tick is read again', async () => {
    const root = writeTree({ 'p/project.yaml': 'name: P\n', 'p/posts/a.yaml': 'title: one\n' });
    expect(entry(await loadContent(root), 'posts', 'a').values.title).toBe('one');
    writeFileSync(join(root, 'p/posts/a.yaml'), 'title: two\n'); // same size
    utimesSync(join(root, 'p/posts/a.yaml'), MTIME, MTIME); // same mtime
    expect(entry(await loadContent(root), 'posts', 'a').values.title).toBe('two');
  });

  it('files of the same text stay entries of their own, each with its own file time', async () => {
    const root = writeTree({ 'p/project.yaml': 'name: P\n', 'p/posts/a.md': 'Same text', 'p/posts/b.md': 'Same text' });
    const later = new Date(MTIME.getTime() + 60_000);
    utimesSync(join(root, 'p/posts/b.md'), later, later);
    const r = await loadContent(root);
    expect(r.issues).toEqual([]);
    expect(collection(r, 'posts').entries.map((e) => [e.id, e.created_at])).toEqual([
      ['a', MTIME.toISOString()],
      ['b', later.toISOString()],
    ]);
  });
});
