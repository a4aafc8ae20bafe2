// What a pull may read from a server it does not trust: a media size that is not a number used to
// switch the size check off (13.5 GB written in 50 s from an endless body), and a list whose pages
// always bring new ids ran until memory ran out. Every cap stops the pull with a message naming the
// limit and the option that raises it, before the damage; nothing is left behind.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limitsFromArgs } from '../../src/node/commands/pull-limits.js';
import { DEFAULT_LIMITS } from '../../src/node/pull/limits.js';
import { pull } from '../../src/node/pull/pull.js';
import { asked, closeServer, cqaApi, entry, json, options, refusal, serve } from './limits-server.js';

afterEach(closeServer);

describe('media sizes the API states', () => {
  it.each([['10'.repeat(20)], ['abc'], ['1e3'], [-1], [1.5], [null], [true], [{}], ['']])(
    'size %j is refused before any download, naming the media',
    async (size) => {
      await serve(cqaApi([{ id: 'a.bin', full_url: '/files/a.bin', size }]));
      expect(await refusal(options({ media: true }))).toMatch(
        /^media 'a\.bin': the API states its size as .*, not a number of bytes \(a non-negative integer\)/,
      );
      expect(asked.filter((p) => p.startsWith('/files/'))).toEqual([]);
    },
  );

  it('elmapi: a size that is not a number is refused too', async () => {
    await serve((path) => {
      if (path === '/api/p') return json({ uuid: 'p', name: 'P' });
      if (path === '/api/p/project-media') return json([{ id: 1, file_name: 'a.png', full_url: '/files/a.png', size: 'huge' }]);
      if (path === '/api/p/posts') return json([]);
      return undefined;
    });
    expect(await refusal(options({ dialect: 'elmapi', collections: ['posts'], media: true }))).toMatch(
      /media "a\.png": the API states its size as "huge"/,
    );
  });

  it('a size as a string of digits is read as the number (some APIs send numbers as strings)', async () => {
    await serve((path, q) =>
      path === '/files/a.txt' ? { body: 'hello' } : cqaApi([{ id: 'a.txt', full_url: '/files/a.txt', size: '5' }])(path, q),
    );
    const r = await pull(options({ media: true }));
    expect(r.mediaBytes).toBe(5);
  });
});

describe('caps on media bytes', () => {
  it('a file stated larger than --max-file-size is refused before it is downloaded', async () => {
    await serve(cqaApi([{ id: 'a.bin', full_url: '/files/a.bin', size: 20 * 1024 ** 3 }]));
    const message = await refusal(options({ media: true }));
    expect(message).toBe(
      `media 'a.bin' (the API states 21474836480 bytes): more than ${DEFAULT_LIMITS.maxFileBytes} bytes, the limit of this pull; stopped. If that is expected, raise it with --max-file-size N`,
    );
    expect(asked.filter((p) => p.startsWith('/files/'))).toEqual([]);
  });

  it('an endless body is cut off at the stated size', async () => {
    await serve(cqaApi([{ id: 'a.bin', full_url: '/files/a.bin', size: 1000 }]));
    expect(await refusal(options({ media: true }))).toMatch(/media 'a\.bin': got more than 1000 bytes/);
  });

  it('all media together larger than --max-media-size are refused before any download', async () => {
    const media = ['a', 'b', 'c'].map((n) => ({ id: `${n}.bin`, full_url: `/files/${n}.bin`, size: 600 }));
    await serve(cqaApi(media));
    expect(await refusal(options({ media: true, limits: { maxMediaBytes: 1000 } }))).toBe(
      'the 3 media files (the API states 1800 bytes in all): more than 1000 bytes of media in all, the limit of this pull; stopped. If that is expected, raise it with --max-media-size N',
    );
    expect(asked.filter((p) => p.startsWith('/files/'))).toEqual([]);
  });
});

describe('caps on lists', () => {
  const endless = (offset: number) => json({ data: [entry(`e${offset}`), entry(`e${offset + 1}`)], meta: { total: 1e12 } });

  it('pages that always bring new ids stop at --max-pages', async () => {
    await serve(cqaApi([], endless));
    expect(await refusal(options({ limits: { maxPages: 5, maxEntries: 1000 } }))).toBe(
      "collection 'posts': more than 5 pages, the limit of this pull; stopped. If that is expected, raise it with --max-pages N",
    );
    expect(asked.filter((p) => p === '/api/p/posts').length).toBe(5);
  });

  it('and at --max-entries, whichever comes first', async () => {
    await serve(cqaApi([], endless));
    expect(await refusal(options({ limits: { maxEntries: 7 } }))).toMatch(/^collection 'posts': more than 7 items, .* --max-entries N$/);
    expect(asked.filter((p) => p === '/api/p/posts').length).toBe(4);
  });

  it('a page of 150,000 items is taken whole, then counted against --max-entries (found from outside: "Maximum call stack size exceeded")', async () => {
    const big = Array.from({ length: 150_000 }, (_, i) => entry(`e${i}`));
    await serve(cqaApi([], (offset) => json({ data: offset === 0 ? big : [entry('x'), entry('y')], meta: { total: 1e12 } })));
    expect(await refusal(options({ limits: { maxEntries: 150_001 } }))).toMatch(
      /^collection 'posts': more than 150001 items, .* --max-entries N$/,
    );
  });

  it('elmapi: the same caps', async () => {
    await serve((path, q) => {
      if (path === '/api/p') return json({ uuid: 'p', name: 'P' });
      if (path === '/api/p/project-media') return json([]);
      const offset = Number(q.get('offset'));
      if (path === '/api/p/posts') return json([entry(`e${offset}`), entry(`e${offset + 1}`)]);
      return undefined;
    });
    expect(await refusal(options({ dialect: 'elmapi', collections: ['posts'], limits: { maxPages: 3 } }))).toMatch(
      /^collection 'posts': more than 3 pages/,
    );
    expect(await refusal(options({ dialect: 'elmapi', collections: ['posts'], limits: { maxEntries: 3 } }))).toMatch(
      /^collection 'posts': more than 3 items/,
    );
  });

  it('a media list longer than --max-entries is refused', async () => {
    await serve(cqaApi(['a', 'b', 'c'].map((n) => ({ id: `${n}.bin`, full_url: `/files/${n}.bin`, size: 1 }))));
    expect(await refusal(options({ limits: { maxEntries: 2 } }))).toMatch(/^the media list: more than 2 items/);
  });
});

describe('a cap on the bytes of all answers', () => {
  // Each page well under the 64 MiB per-answer cap, new ids every time: the pull used to keep
  // every page until V8 ran out of heap (84 pages of 50 MB), far below --max-pages and --max-entries.
  const fat = (offset: number) =>
    json({ data: [0, 1].map((i) => ({ ...entry(`e${offset + i}`), title: 'x'.repeat(10_000) })), meta: { total: 1e12 } });

  it('pages of fat entries stop at --max-bytes, as soon as the bytes read pass it', async () => {
    await serve(cqaApi([], fat));
    expect(await refusal(options({ limits: { maxBytes: 100_000 } }))).toMatch(
      /^the answers of this pull \(at http:\/\/127\.0\.0\.1:\d+\/api\/p\/posts\?timestamps&limit=2&offset=\d+\): more than 100000 bytes of API answers in all, the limit of this pull; stopped\. If that is expected, raise it with --max-bytes N$/,
    );
    // ~20 KB a page: the fifth page passes 100,000 bytes; nothing more is asked.
    expect(asked.filter((p) => p === '/api/p/posts').length).toBe(5);
  });

  it('one endless answer is cut off at the budget, before the 64 MiB per-answer cap', async () => {
    await serve((path) => (path === '/api/p' ? { body: 'endless' } : undefined));
    expect(await refusal(options({ limits: { maxBytes: 1_000_000 } }))).toMatch(/more than 1000000 bytes of API answers in all/);
  });

  it('counts the answer to the request without a token (is the project public?), which was read whole', async () => {
    await serve((path, q, token) => (token ? cqaApi([])(path, q) : { body: 'endless' }));
    expect(await refusal(options({ token: 't', limits: { maxBytes: 1_000_000 } }))).toMatch(
      /^the answers of this pull \(at http:\/\/127\.0\.0\.1:\d+\/api\/p\): more than 1000000 bytes/,
    );
  });

  it('counts the elmapi answers too', async () => {
    await serve((path, q) => {
      if (path === '/api/p') return json({ uuid: 'p', name: 'P' });
      if (path === '/api/p/project-media') return json([]);
      const offset = Number(q.get('offset'));
      if (path === '/api/p/posts') return json([0, 1].map((i) => ({ ...entry(`e${offset + i}`), title: 'x'.repeat(10_000) })));
      return undefined;
    });
    expect(await refusal(options({ dialect: 'elmapi', collections: ['posts'], limits: { maxBytes: 50_000 } }))).toMatch(
      /more than 50000 bytes of API answers in all, .* --max-bytes N$/,
    );
  });
});

describe('the limit options', () => {
  it('read counts and sizes with units, and name the option when wrong', () => {
    expect(
      limitsFromArgs({
        'max-pages': '50',
        'max-entries': '7',
        'max-file-size': '500MiB',
        'max-media-size': '2 GiB',
        'max-bytes': '300MiB',
      }),
    ).toEqual({
      maxPages: 50,
      maxEntries: 7,
      maxFileBytes: 500 * 1024 ** 2,
      maxMediaBytes: 2 * 1024 ** 3,
      maxBytes: 300 * 1024 ** 2,
    });
    expect(() => limitsFromArgs({ 'max-pages': '0' })).toThrow("--max-pages must be a positive integer, got '0'");
    expect(() => limitsFromArgs({ 'max-entries': 'lots' })).toThrow("--max-entries must be a positive integer, got 'lots'");
    expect(() => limitsFromArgs({ 'max-file-size': 'NaN' })).toThrow(/--max-file-size must be a size in bytes/);
    expect(() => limitsFromArgs({ 'max-media-size': '5 parsecs' })).toThrow(/--max-media-size must be a size in bytes/);
    expect(() => limitsFromArgs({ 'max-bytes': '-1' })).toThrow(/--max-bytes must be a size in bytes/);
  });

  // .cqa-pull.json keeps the answers' texts and is read back as one string (V8's end at 512 MiB).
  it('refuses --max-bytes above 384 MiB before any request, saying why', async () => {
    await expect(pull(options({ limits: { maxBytes: 384 * 1024 ** 2 + 1 } }))).rejects.toThrow(
      /^--max-bytes can be at most 384 MiB: the answers are kept in \.cqa-pull\.json for the next pull/,
    );
  });

  it('answers whose escaped texts outgrow one string: a pull error saying what to do, and --out untouched', async () => {
    await serve(cqaApi([]));
    const stringify = JSON.stringify;
    // As V8 does past its string limit, for the marker alone (a 512 MiB answer is no unit test).
    const spy = vi.spyOn(JSON, 'stringify').mockImplementation((value, ...rest) => {
      if ((value as { cqa_pull?: number } | null)?.cqa_pull === 1) throw new RangeError('Invalid string length');
      return stringify(value, ...(rest as [])) as string;
    });
    try {
      expect(await refusal(options())).toMatch(/^the answers are too large to keep in \.cqa-pull\.json for the next pull/);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses limits given to the library that are not positive integers', async () => {
    await expect(pull(options({ limits: { maxFileBytes: Number.NaN } }))).rejects.toThrow(
      '--max-file-size must be a positive integer, got NaN',
    );
  });
});
