// isSmallTree(): what decides whether startServer()/cqa build load a tree in the calling thread
// (small) or in a worker (large). Counted like the loader lists: hidden files and _folders left out.
import { describe, expect, it } from 'vitest';
import { isSmallTree } from '../../src/node/content/tree-size.js';
import { SMALL_TREE } from '../../src/node/thresholds.js';
import { writeTree } from './helpers.js';

describe('isSmallTree', () => {
  it('calls the sample content small with the default limits', async () => {
    expect(await isSmallTree('content')).toBe(true);
    expect(SMALL_TREE.files).toBeGreaterThan(100);
  });

  it('counts files in nested folders against the file limit', async () => {
    const root = writeTree({ 'p/project.yaml': 'id: p\n', 'p/posts/a.md': '# A\n', 'p/posts/b.md': '# B\n', 'p/media/x.png': 'png' });
    expect(await isSmallTree(root, { files: 4, bytes: 1e6 })).toBe(true);
    expect(await isSmallTree(root, { files: 3, bytes: 1e6 })).toBe(false);
  });

  it('counts the bytes of parsed files only, not of media', async () => {
    const root = writeTree({ 'p/posts/a.md': 'x'.repeat(600), 'p/media/big.png': new Uint8Array(5000) });
    expect(await isSmallTree(root, { files: 10, bytes: 600 })).toBe(true);
    expect(await isSmallTree(root, { files: 10, bytes: 599 })).toBe(false);
  });

  it('leaves out what the loader leaves out: dot files and _folders', async () => {
    const root = writeTree({ 'p/a.md': 'a', 'p/.hidden.md': 'h', 'p/_drafts/x.md': 'x', 'p/_collection.yaml': 'fields: {}\n' });
    expect(await isSmallTree(root, { files: 2, bytes: 1e6 })).toBe(true);
    expect(await isSmallTree(root, { files: 1, bytes: 1e6 })).toBe(false);
  });

  it('calls a missing folder small (the loader reports it)', async () => {
    expect(await isSmallTree('/nonexistent/cqa-tree-size')).toBe(true);
  });
});
