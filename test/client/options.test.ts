// createClient checks its options as startServer does (found from outside: `baseURL:` — axios'
// spelling — or no baseUrl threw `Cannot read properties of undefined (reading 'replace')`, `tokn:`
// and `headers:` were ignored without a word, `sort: { published_at: 'desc' }` threw
// `v.join is not a function`).
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/core/client/index.js';

const OK = { baseUrl: 'http://127.0.0.1:1', project: 'demo', mode: 'server' } as const;
const make = (options: Record<string, unknown>) => () => createClient(options as never);

describe('createClient options', () => {
  it('refuses an unknown name, naming the closest', () => {
    const { baseUrl: _, ...rest } = OK;
    expect(make({ ...rest, baseURL: OK.baseUrl })).toThrow(
      new TypeError(
        "createClient: unknown option 'baseURL'; did you mean 'baseUrl'? (the options: baseUrl, project, token, mode, fetch, maxLimit, dialect, revalidate)",
      ),
    );
    expect(make({ ...OK, tokn: 'demo-token' })).toThrow("createClient: unknown option 'tokn'; did you mean 'token'?");
    expect(make({ ...OK, headers: { authorization: 'Bearer x' } })).toThrow(
      "createClient: unknown option 'headers'; send headers of your own through a fetch: fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, … } })",
    );
  });

  it('says what to give for a missing or mistyped value', () => {
    const { baseUrl: _, ...rest } = OK;
    expect(make(rest)).toThrow(
      "createClient: baseUrl must be the API's address, e.g. 'http://127.0.0.1:4000' or '/content', got undefined",
    );
    expect(make({ ...OK, baseUrl: new URL('http://127.0.0.1:1') })).toThrow(/baseUrl must be the API's address/);
    expect(make({ ...OK, token: 42 })).toThrow(
      "createClient: token must be a token (sent as 'Authorization: Bearer <token>'), or left out for a public project, got 42",
    );
    // Found from outside: `token: process.env.TOKEN ?? ''` sent 'Bearer ' and a public project answered 401.
    expect(make({ ...OK, token: '' })).toThrow(/token must be a token .*, or left out for a public project, got ""/);
    expect(make({ ...OK, token: ' ' })).toThrow(/got " "/);
    expect(make({ ...OK, fetch: 'fetch' })).toThrow('createClient: fetch must be a function (url, init) => Promise<Response>, got "fetch"');
    expect(make({ ...OK, maxLimit: -1 })).toThrow('createClient: maxLimit must be a whole number ≥ 0 (0: no cap), got -1');
    expect(() => (createClient as (o?: unknown) => unknown)()).toThrow(
      'createClient: options must be { baseUrl, project, mode }, got undefined',
    );
    // An empty baseUrl is this origin (a static tree published at the site's root).
    expect(make({ ...OK, baseUrl: '' })).not.toThrow();
  });

  // Found from outside: a build script reading dist/ from disk gave `file:///…` or `../dist`, which
  // were accepted and failed on the first call with a message about CORS.
  it('refuses a baseUrl fetch cannot ask, and says outside a browser that a path needs a page', async () => {
    expect(make({ ...OK, baseUrl: 'file:///srv/dist', mode: 'static' })).toThrow(
      'createClient: baseUrl must be an http(s) address (fetch cannot ask file: URLs); to read a tree from disk, serve it (cqa preview) or pass a fetch of your own, got "file:///srv/dist"',
    );
    expect(make({ ...OK, baseUrl: '../dist', mode: 'static' })).toThrow(
      `createClient: baseUrl must be an http(s) address or a path from the site's root, e.g. 'http://127.0.0.1:4000' or '/content', got "../dist"`,
    );
    // With a fetch of its own, the caller decides what a URL means.
    expect(make({ ...OK, baseUrl: 'file:///srv/dist', fetch: async () => new Response('{}') })).not.toThrow();
    for (const mode of ['static', 'server'] as const) {
      const cms = createClient({ ...OK, baseUrl: '/content', mode });
      await expect(cms.entries('posts')).rejects.toThrow(
        "baseUrl is a path from the site's root, which only a page can resolve: outside a browser, give an absolute address ('http://127.0.0.1:4000')",
      );
    }
  });
});

describe('query values of the wrong kind', () => {
  const fetchNothing = async () => new Response('{}');
  const cms = createClient({ ...OK, fetch: fetchNothing });

  it('sort as an object says how to write it', async () => {
    await expect(cms.entries('posts', { sort: { published_at: 'desc', title: 'asc' } } as never)).rejects.toThrow(
      new TypeError(
        'sort: expected \'field\' or \'field:desc\', or a list of them, got {"published_at":"desc","title":"asc"}; write sort: \'published_at:desc,title\'',
      ),
    );
    await expect(cms.entries('posts', { sort: 3 } as never)).rejects.toThrow(
      "sort: expected 'field' or 'field:desc', or a list of them, got 3",
    );
  });

  it('fields and exclude take a list of names', async () => {
    await expect(cms.entries('posts', { fields: { title: true } } as never)).rejects.toThrow(
      "fields: expected a list of field names, e.g. ['title', 'slug'], got {\"title\":true}",
    );
    await expect(cms.entries('posts', { exclude: [1] } as never)).rejects.toThrow(
      "exclude: expected a list of field names, e.g. ['title', 'slug'], got [1]",
    );
  });
});
