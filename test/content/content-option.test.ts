// `content` as a file: URL (issue: `new URL('./content/', import.meta.url)` was taken for an empty
// in-memory tree, 'no project found'; its text for a relative path, 'content folder not found'), and
// values of other kinds refused with a message saying what to give (`content: 42` was a raw
// ERR_INVALID_ARG_TYPE).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { startServer } from '../../src/node/server/start.js';
import { createMswHandlers } from '../../src/msw.js';

const FOLDER = pathToFileURL(`${resolve('content')}/`);
const WHAT = "a folder — a path ('content') or a file: URL (new URL('./content/', import.meta.url)) — or a tree of files";

describe('content given as a file: URL', () => {
  it.each([
    ['a URL object', FOLDER],
    ['its text', FOLDER.href],
    ['without the final slash', new URL(FOLDER.href.slice(0, -1))],
  ])('startServer serves the folder it names: %s', async (_, content) => {
    const api = await startServer({ content: content as unknown as string });
    try {
      const res = await fetch(`${api.url}/api/demo/posts?limit=1`, {
        headers: { accept: 'application/json', authorization: 'Bearer demo-token' },
      });
      expect(res.status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('buildSnapshot and createMswHandlers build the folder it names', async () => {
    const snapshot = await buildSnapshot({ content: FOLDER });
    expect([...snapshot.projects.keys()]).toContain('demo');
    const api = await createMswHandlers({ origin: 'http://url.test', content: FOLDER });
    expect([...api.snapshot.projects.keys()]).toEqual([...snapshot.projects.keys()]);
    await api.close();
  });
});

describe('content of another kind', () => {
  it.each([
    [42, 'the number 42'],
    [true, 'the boolean true'],
    [null, 'null'],
    [['content'], 'an array'],
    [new Map(), 'an object of class Map'],
    [new Uint8Array(2), 'an object of class Uint8Array'],
  ])('startServer and buildSnapshot refuse %s, saying what to give', async (content, got) => {
    await expect(startServer({ content: content as unknown as string })).rejects.toThrow(`startServer: content must be ${WHAT}`);
    await expect(startServer({ content: content as unknown as string })).rejects.toThrow(`; got ${got}`);
    await expect(buildSnapshot({ content: content as unknown as string })).rejects.toThrow(`buildSnapshot: content must be ${WHAT}`);
  });

  it('refuses a URL that names no folder', async () => {
    await expect(startServer({ content: new URL('https://cms.example/content/') })).rejects.toThrow(
      `got the URL "https://cms.example/content/": only a file: URL names a folder (content is read from disk)`,
    );
    await expect(createMswHandlers({ origin: 'http://url.test', content: 'file://elsewhere.example/content' })).rejects.toThrow(
      'createMswHandlers: content "file://elsewhere.example/content" names no folder on this machine',
    );
  });
});
