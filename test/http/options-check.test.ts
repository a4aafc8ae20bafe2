// The options of startServer, createHandler (main and edge entries), createMswHandlers,
// buildSnapshot and writeDist are checked before any work: a misspelled option names the one meant,
// startServer's port is a port (from JavaScript, `port: 'abc'` made Node listen on a UNIX socket
// named abc in the cwd), and options that cannot work together are refused saying what to change.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHandler as createEdgeHandler, loadSnapshot } from '../../src/edge.js';
import { buildSnapshot, createHandler, startServer, writeDist, writeSnapshot } from '../../src/index.js';
import { createMswHandlers } from '../../src/msw.js';
import { createMswHandlers as createBrowserMswHandlers } from '../../src/msw-browser.js';

const TREE = {
  'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
  'shop/products/_collection.yaml': { name: 'Products', fields: { title: 'text' } },
  'shop/products/mug.yaml': 'title: Mug\n',
};
const work = mkdtempSync(join(tmpdir(), 'cqa-options-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// From JavaScript: the options as a plain-JS caller may write them.
const loose = (o: unknown) => o as never;

describe('startServer options', () => {
  it('refuses a port that is not one, before listening (no socket file left)', async () => {
    const socket = join(process.cwd(), 'cqa-port-abc');
    try {
      await expect(startServer(loose({ content: TREE, port: 'cqa-port-abc' }))).rejects.toThrow(
        new TypeError('startServer: port must be a whole number from 0 to 65535 (0: a free port), or its decimal text; got "cqa-port-abc"'),
      );
      expect(existsSync(socket)).toBe(false);
    } finally {
      rmSync(socket, { force: true });
    }
    await expect(startServer({ content: TREE, port: 70000 })).rejects.toThrow(RangeError);
    await expect(startServer({ content: TREE, port: -1 })).rejects.toThrow(/port must be from 0 to 65535/);
    await expect(startServer({ content: TREE, port: 4012.5 })).rejects.toThrow(TypeError);
    await expect(startServer(loose({ content: TREE, port: null }))).rejects.toThrow(/got null/);
  });

  // Found from outside: `cors: false` failed on every request, `watch: 'false'` meant true,
  // `maxLimit: -1` meant no cap, `delay: { jitter }` was ignored, and '503' was "got 503".
  it('refuses a value of another kind than the option takes, saying what to write', async () => {
    const refused: [Record<string, unknown>, string][] = [
      [{ cors: false }, 'startServer: cors must be a string, got false'],
      [{ watch: 'false' }, 'startServer: watch must be true or false, got the string "false"'],
      [{ prefer: 'false' }, 'startServer: prefer must be true or false, got the string "false"'],
      [{ quiet: 'no' }, 'startServer: quiet must be true or false, got the string "no"'],
      [{ maxLimit: -1 }, 'startServer: maxLimit must be an integer of 0 or more, got -1'],
      [{ debounce: -5 }, 'startServer: debounce must be an integer of 0 or more, got -5'],
      [{ onRequest: 'log' }, 'startServer: onRequest must be a function, got the string "log"'],
      // The controls' own checks start with the entry point too (they used not to).
      [{ delay: { min: 1, max: 5, jitter: 2 } }, "startServer: delay takes min and max only, got 'jitter' too"],
      [{ failStatus: '503' }, 'startServer: failStatus must be one of 429, 500, 503, got the string "503"'],
      [{ failRate: '0.1' }, 'startServer: failRate must be a number from 0 to 1, got the string "0.1"'],
    ];
    for (const [given, message] of refused) await expect(startServer(loose({ content: TREE, ...given }))).rejects.toThrow(message);
    const snapshot = await buildSnapshot({ content: TREE });
    expect(() => createHandler(snapshot, loose({ cors: false }))).toThrow('createHandler: cors must be a string, got false');
    expect(() => createEdgeHandler(snapshot, loose({ maxLimit: '10' }))).toThrow(
      'createHandler: maxLimit must be an integer of 0 or more, got the string "10"',
    );
    await expect(createMswHandlers(loose({ content: TREE, origin: 'https://cms.example', prefer: 1 }))).rejects.toThrow(
      'createMswHandlers: prefer must be true or false, got 1',
    );
  });

  it('takes a port as its decimal text (an environment variable), and its type says so (found from outside: a type error)', async () => {
    const server = await startServer({ content: TREE, port: process.env.CQA_TEST_UNSET_PORT ?? '0' }); // tsc checks this line
    try {
      expect(server.port).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('names a misspelled option and the one meant', async () => {
    await expect(startServer(loose({ content: TREE, failrate: 1 }))).rejects.toThrow(
      /^startServer: unknown option 'failrate'; did you mean 'failRate'\? \(the options: allowedHosts, baseUrl, cacheBytes, /,
    );
    await expect(startServer(loose({ content: TREE, jurnal: 5 }))).rejects.toThrow(/unknown option 'jurnal'; did you mean 'journal'\?/);
    await expect(startServer(loose({ content: TREE, nothingLikeIt: true }))).rejects.toThrow(
      /unknown option 'nothingLikeIt' \(the options: /,
    );
    // The server answers elmapi3 projects always: createHandler's opt-in was replaced in silence (found from outside).
    await expect(startServer(loose({ content: TREE, elmapi3: {} }))).rejects.toThrow(/^startServer: unknown option 'elmapi3'/);
  });
});

describe('createHandler and createMswHandlers options', () => {
  it('the main entry names a misspelled option', async () => {
    const snapshot = await buildSnapshot({ content: TREE });
    expect(() => createHandler(snapshot, loose({ maxlimit: 5 }))).toThrow(
      /^createHandler: unknown option 'maxlimit'; did you mean 'maxLimit'\?/,
    );
    expect(() => createHandler(snapshot, loose({ thumbnailLimit: {} }))).toThrow(/did you mean 'thumbnailLimits'\?/);
    expect(() => createHandler(snapshot, loose('cors'))).toThrow(/options must be an object, got string/);
    expect(() => createHandler(snapshot, { maxLimit: 5, ui: false, thumbnailLimits: { pixels: 1, ratio: 2 } as never })).not.toThrow();
  });

  it('the edge entry names one too', async () => {
    const file = join(work, 'snapshot.json');
    await writeSnapshot(await buildSnapshot({ content: TREE }), { file });
    const snapshot = loadSnapshot(readFileSync(file, 'utf8'));
    expect(() => createEdgeHandler(snapshot, loose({ compresion: 'runtime' }))).toThrow(
      /^createHandler: unknown option 'compresion'; did you mean 'compression'\?/,
    );
    expect(() => createEdgeHandler(snapshot, loose({ ui: false }))).toThrow(/unknown option 'ui'/); // the main entry's only
    expect(() => createEdgeHandler(snapshot, { compression: 'handler' })).not.toThrow();
  });

  it('the MSW handlers name one, before loading anything', async () => {
    await expect(createMswHandlers(loose({ origin: 'https://cms.example', content: TREE, failrate: 1 }))).rejects.toThrow(
      /^createMswHandlers: unknown option 'failrate'; did you mean 'failRate'\?/,
    );
    await expect(createMswHandlers(loose({ origin: 'https://cms.example', content: TREE, serverUrl: 'x' }))).rejects.toThrow(
      /unknown option 'serverUrl'/,
    );
    await expect(createMswHandlers(loose({ origin: 'https://cms.example', content: TREE, elmapi3: {} }))).rejects.toThrow(
      /unknown option 'elmapi3'/,
    );
    const api = await createMswHandlers({ origin: 'https://cms.example', content: TREE, failRate: 0, journal: 5 });
    await api.close();
  });
});

describe('options that cannot work together', () => {
  // The same tree as a folder: watch and parseCache need one.
  const folder = join(work, 'content');
  for (const [path, text] of Object.entries(TREE)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), typeof text === 'string' ? text : JSON.stringify(text));
  }
  const CONTENT_OR_SNAPSHOT =
    'content and snapshot were both given; give one: content (a folder or tree to build) or snapshot (one built already, served as it is)';

  /** What startServer threw; a server it started anyway is closed (and the test fails on 'started'). */
  const refusal = async (options: Record<string, unknown>): Promise<unknown> => {
    try {
      await (await startServer(loose(options))).close();
      return 'started';
    } catch (err) {
      return err;
    }
  };
  const typeError = (message: string) => expect.objectContaining({ name: 'TypeError', message });

  // Found from outside: `{ snapshot, watch: true }` watched ./content and swapped in what it built
  // there; `{ content, snapshot }` served the snapshot and never read content.
  it('startServer refuses them before starting, saying what to change', async () => {
    const snapshot = await buildSnapshot({ content: TREE });
    const refused: [Record<string, unknown>, string][] = [
      [{ content: folder, snapshot }, `startServer: ${CONTENT_OR_SNAPSHOT}`],
      [
        { snapshot, watch: true },
        'startServer: watch needs content: a snapshot given directly cannot be watched; give content (the folder to build and watch) instead of snapshot',
      ],
      [
        { snapshot, parseCache: true },
        'startServer: parseCache needs content: a snapshot given directly is not parsed; leave parseCache out',
      ],
      [
        { snapshot, timestamps: 'mtime' },
        'startServer: timestamps is read when content is built, not from a snapshot given directly: pass it to buildSnapshot({ content, timestamps }), or give content instead of snapshot',
      ],
      [
        { snapshot, baseUrl: 'https://cdn.example' },
        'startServer: baseUrl is applied when content is built, not to a snapshot given directly: pass it to buildSnapshot({ content, baseUrl }) (cqa build --base-url), or give content instead of snapshot',
      ],
      [
        { content: TREE, watch: true },
        'startServer: watch needs a content folder; an in-memory tree never changes (use override() or a new server per case)',
      ],
      [
        { content: TREE, parseCache: true },
        "startServer: parseCache needs a content folder: an in-memory tree's temp folder, and the cache in it, go on close(); leave parseCache out",
      ],
      [
        { content: folder, watch: true, parseCache: true },
        'startServer: parseCache is not used under watch (the watcher keeps what the files parse to in memory); leave one out',
      ],
      [
        { content: folder, debounce: 50 },
        'startServer: debounce is the wait of watch before a rebuild: add watch: true, or leave debounce out',
      ],
      [
        { content: folder, onReload: () => {} },
        'startServer: onReload is called after a rebuild under watch: add watch: true, or leave onReload out',
      ],
      [
        { content: folder, failStatus: 429 },
        "startServer: failStatus is the status of failRate's failures, and no failRate was given: add failRate (e.g. failRate: 0.1), or leave failStatus out (Prefer: status=429 forces one per request)",
      ],
    ];
    const got: unknown[] = [];
    for (const [given] of refused) got.push(await refusal(given));
    expect(got).toEqual(refused.map(([, message]) => typeError(message)));
  });

  it('startServer takes an option whose companion is switched off (a switch set elsewhere)', async () => {
    const snapshot = await buildSnapshot({ content: TREE });
    for (const given of [
      { snapshot, watch: false, parseCache: false },
      { content: folder, watch: false, debounce: 50, onReload: () => {} },
      { content: TREE, failRate: 0, failStatus: 429 as const },
    ])
      await (await startServer(given)).close();
  });

  it('createMswHandlers (Node and browser entries) refuses content with snapshot, before loading anything', async () => {
    const snapshot = await buildSnapshot({ content: TREE });
    const origin = 'https://cms.example';
    await expect(createMswHandlers({ origin, content: folder, snapshot })).rejects.toThrow(
      typeError(`createMswHandlers: ${CONTENT_OR_SNAPSHOT}`),
    );
    await expect(createBrowserMswHandlers({ origin, content: TREE, snapshot })).rejects.toThrow(
      typeError(`createMswHandlers: ${CONTENT_OR_SNAPSHOT}`),
    );
    await expect(createMswHandlers({ origin, snapshot, failStatus: 500 })).rejects.toThrow(
      typeError(expect.stringMatching(/^createMswHandlers: failStatus is the status of failRate/)),
    );
  });

  it('createHandler refuses a media reader beside a media opener, and thumbnail limits beside its own thumbnails', async () => {
    const snapshot = await buildSnapshot({ content: TREE });
    const reader = async () => null;
    const both =
      'createHandler: readMedia and openMedia were both given; give one: media files are opened with openMedia, and readMedia would never be asked';
    expect(() => createHandler(snapshot, { readMedia: reader, openMedia: reader })).toThrow(typeError(both));
    expect(() => createEdgeHandler(snapshot, { readMedia: reader, openMedia: reader })).toThrow(typeError(both));
    expect(() => createHandler(snapshot, { readThumbnail: reader, thumbnailLimits: { pixels: 1, ratio: 2 } as never })).toThrow(
      typeError(
        'createHandler: thumbnailLimits bounds the thumbnails made from files on disk, and your readThumbnail makes its own; leave thumbnailLimits out',
      ),
    );
    expect(() => createEdgeHandler(snapshot, { failStatus: 429 })).toThrow(
      typeError(expect.stringMatching(/^createHandler: failStatus is the status of failRate/)),
    );
    expect(() => createHandler(snapshot, { failRate: 2 })).toThrow(
      new RangeError('createHandler: failRate must be a number from 0 to 1, got 2'),
    );
  });

  it('buildSnapshot names a misspelled option, and writeDist refuses a brotliQuality without precompress', async () => {
    await expect(buildSnapshot(loose({ content: TREE, baseURL: 'https://cdn.example' }))).rejects.toThrow(
      /^buildSnapshot: unknown option 'baseURL'; did you mean 'baseUrl'\?/,
    );
    await expect(buildSnapshot(loose({ content: TREE, drafts: 'yes' }))).rejects.toThrow(
      'buildSnapshot: drafts must be true or false, got the string "yes"',
    );
    const out = join(work, 'dist');
    await expect(writeDist(await buildSnapshot({ content: TREE }), { out, brotliQuality: 11 })).rejects.toThrow(
      typeError(
        "writeDist: brotliQuality is the quality of the .br siblings, and no precompress was given: add precompress: 'br' or 'all', or leave brotliQuality out",
      ),
    );
    expect(existsSync(out)).toBe(false);
  });
});
