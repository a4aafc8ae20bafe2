// What plain JavaScript may hand the library by mistake (no type checker to say it): a promise of
// a snapshot, a folder path, options without content. Said at once with what to write, not as a
// 500 on every request (createHandler) or "undefined: content folder not found" (buildSnapshot).
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { createHandler } from '../../src/core/http/fetch.js';

describe('createHandler() given no snapshot', () => {
  it.each([
    ['an un-awaited buildSnapshot()', () => Promise.resolve({}), /got a promise: await it first$/],
    [
      'a folder path',
      () => 'content',
      /got the string "content" \(a snapshot is built from a content folder: await buildSnapshot\(\{ content: folder \}\)\)$/,
    ],
    ['an object', () => ({ projects: [] }), /got an object without projects and hash$/],
    ['null', () => null, /got null$/],
  ])('throws a TypeError naming %s', (_, given, message) => {
    const call = () => createHandler(given() as never);
    expect(call).toThrow(TypeError);
    expect(call).toThrow(/^expected a snapshot \(await buildSnapshot\(\{ content: 'content' \}\), or loadSnapshot\(text\)\), got /);
    expect(call).toThrow(message);
  });
});

describe('buildSnapshot() given no content', () => {
  it.each([
    ['a path instead of options', 'content', 'got buildSnapshot("content")'],
    ['nothing', undefined, 'got no content'],
  ])('rejects with a TypeError for %s', async (_, given, said) => {
    await expect(buildSnapshot(given as never)).rejects.toThrow(
      new TypeError(
        `buildSnapshot() takes options with the content: buildSnapshot({ content: 'content' }) (a folder, or a tree of files); ${said}`,
      ),
    );
  });

  it('rejects content that is a number, saying what content is (test/content/content-option.test.ts)', async () => {
    await expect(buildSnapshot({ content: 1 } as never)).rejects.toThrow(
      new TypeError(
        "buildSnapshot: content must be a folder — a path ('content') or a file: URL (new URL('./content/', import.meta.url)) — or a tree of files ({ 'demo/project.yaml': 'id: demo\\n…' }); got the number 1",
      ),
    );
  });
});
