// The options of startServer, createHandler (main and edge entries) and createMswHandlers are
// checked before any work: a misspelled option names the one meant, and startServer's port is a
// port (from JavaScript, `port: 'abc'` made Node listen on a UNIX socket named abc in the cwd).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHandler as createEdgeHandler, loadSnapshot } from '../../src/edge.js';
import { buildSnapshot, createHandler, startServer, writeSnapshot } from '../../src/index.js';
import { createMswHandlers } from '../../src/msw.js';

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
      [{ delay: { min: 1, max: 5, jitter: 2 } }, "delay takes min and max only, got 'jitter' too"],
      [{ failStatus: '503' }, 'failStatus must be one of 429, 500, 503, got the string "503"'],
      [{ failRate: '0.1' }, 'failRate must be a number from 0 to 1, got the string "0.1"'],
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
      /^startServer: unknown option 'failrate'; did you mean 'failRate'\? \(the options: baseUrl, cacheBytes, /,
    );
    await expect(startServer(loose({ content: TREE, jurnal: 5 }))).rejects.toThrow(/unknown option 'jurnal'; did you mean 'journal'\?/);
    await expect(startServer(loose({ content: TREE, nothingLikeIt: true }))).rejects.toThrow(
      /unknown option 'nothingLikeIt' \(the options: /,
    );
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
    const api = await createMswHandlers({ origin: 'https://cms.example', content: TREE, failRate: 0, journal: 5 });
    await api.close();
  });
});
