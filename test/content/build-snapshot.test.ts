import { describe, expect, it } from 'vitest';
import { buildSnapshot, ContentError } from '../../src/index.js';
import { writeTree } from './helpers.js';

describe('buildSnapshot', () => {
  it('builds a snapshot from a content folder', async () => {
    const root = writeTree({ 'p/project.yaml': 'public: true\n', 'p/posts/hello.md': '---\ntitle: Hello\n---\nHi\n' });
    const snapshot = await buildSnapshot({ content: root, baseUrl: 'https://cdn.test' });
    expect(JSON.parse(snapshot.document('/api/p/posts/hello') as string)).toEqual({
      data: { id: 'hello', locale: 'en', title: 'Hello', body: 'Hi' },
    });
  });

  it('throws a ContentError that lists every issue', async () => {
    const root = writeTree({
      'p/project.yaml': '',
      'p/posts/_collection.yaml': 'fields:\n  n: number\n',
      'p/posts/a.yaml': 'n: x\n',
      'p/posts/b.yaml': 'm: 1\n',
    });
    const err = await buildSnapshot({ content: root }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentError);
    expect((err as ContentError).issues).toHaveLength(2);
    expect((err as ContentError).message).toBe(
      [
        '2 content errors in 2 files:',
        '  p/posts/a.yaml:1: n: expected a number, got "x"',
        "  p/posts/b.yaml:1: m: not in the schema of collection 'posts' (fields: n); add it to p/posts/_collection.yaml or remove it",
      ].join('\n'),
    );
  });

  it('reports a missing content folder as a ContentError, not a stack trace', async () => {
    await expect(buildSnapshot({ content: '/no/such/folder' })).rejects.toThrow(/content folder not found/);
  });
});
