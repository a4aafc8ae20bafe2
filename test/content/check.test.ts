import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { png, writeTree } from './helpers.js';

let out: string[];
let err: string[];
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
});
afterEach(() => vi.restoreAllMocks());

describe('cqa check', () => {
  it('lists all five mistakes with file names and lines, then a summary, and exits 1', async () => {
    const root = writeTree({
      'demo/project.yaml': 'locales: [en]\npublic: true\n',
      'demo/authors/ann.yaml': 'name: Ann\n',
      'demo/posts/_collection.yaml':
        'fields:\n  title: { type: text, required: true }\n  price: number\n  author: { type: relation, collection: authors }\n  tags: { type: enumeration, values: [news, tech] }\n',
      'demo/posts/a.md': '---\ntitle: A\nprice: cheap\n---\n',
      'demo/posts/b.md': '---\nprice: 3\n---\n',
      'demo/posts/c.md': '---\ntitle: C\nauthor: bob\n---\n',
      'demo/posts/d.md': '---\ntitle: D\ntags: sport\n---\n',
      'demo/posts/e.md': '---\ntitle: [unclosed\n---\n',
    });
    expect(await main(['check', root])).toBe(1);
    expect(err).toEqual([
      'demo/posts/a.md:3: price: expected a number, got "cheap"',
      'demo/posts/b.md:1: title: required field is missing',
      "demo/posts/c.md:3: author: no entry 'bob' in collection 'authors'",
      'demo/posts/d.md:3: tags: expected one of news, tech, got "sport"',
      expect.stringMatching(/^demo\/posts\/e\.md:2: broken YAML: /),
      '5 errors in 5 files',
    ]);
    expect(out).toEqual([]);
  });

  it('prints a summary and exits 0 for clean content; warnings are prefixed', async () => {
    const root = writeTree({
      'demo/project.yaml': 'tokens:\n  - name: dev\n    token: secret\n',
      'demo/posts/a.md': 'Hello',
      'demo/media/x.png': png(1, 1),
    });
    expect(await main(['check', root])).toBe(0);
    expect(out).toEqual(['✓ content ok: 1 project, 1 collection, 1 entry, 1 media (1 warning)']);
    expect(err).toEqual([expect.stringMatching(/^warning: demo\/project\.yaml:3: tokens: token 'dev' is written in plaintext/)]);
    expect(err.join()).not.toContain("'secret'");
  });

  it('exits 2 with a clear message when the content folder does not exist', async () => {
    expect(await main(['check', '/no/such/content'])).toBe(2);
    expect(err[0]).toMatch(/^cqa check: content folder '\/no\/such\/content' does not exist/);
  });
});
