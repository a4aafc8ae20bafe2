// The client refuses query keys its method does not read, naming the method to use (issue 24):
// `entries('posts', { first: true })` used to send a plain list request and return a whole page.
// Checked from JavaScript (the `as never` casts stand for untyped callers); nothing is fetched.
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/core/client/index.js';

const requested: string[] = [];
const fetchNothing = async (url: string) => {
  requested.push(url);
  return new Response('{"data":[],"meta":{"total":0,"limit":null,"offset":0},"count":0}', { status: 200 });
};

describe.each(['cqa', 'elmapi'] as const)('client (%s): unknown query keys', (dialect) => {
  const cms = createClient({
    baseUrl: 'http://127.0.0.1:9',
    project: 'demo',
    mode: 'server',
    fetch: fetchNothing,
    dialect,
  } as never) as ReturnType<typeof createClient>;

  it.each([
    [
      'entries',
      () => cms.entries('posts', { first: true } as never),
      "entries(): unknown query key 'first'; use first(collection, query) for the first match (null when none)",
    ],
    [
      'entries',
      () => cms.entries('posts', { count: true } as never),
      "entries(): unknown query key 'count'; use count(collection, query) for the number of matches",
    ],
    [
      'entries',
      () => cms.entries('posts', { where_relation: {} } as never),
      "entries(): unknown query key 'where_relation'; the keys are where, whereRelation, sort, limit, offset, locale, state, timestamps, fields, exclude",
    ],
    [
      'first',
      () => cms.first('posts', { limit: 5 } as never),
      "first(): unknown query key 'limit'; use entries(collection, { limit }) for several entries; first() returns one",
    ],
    [
      'first',
      () => cms.first('posts', { count: true } as never),
      "first(): unknown query key 'count'; use count(collection, query) for the number of matches",
    ],
    [
      'count',
      () => cms.count('posts', { sort: 'title' } as never),
      "count(): unknown query key 'sort'; use entries(collection, { sort }) for entries; count() takes where, whereRelation, locale, state",
    ],
    [
      'count',
      () => cms.count('posts', { first: true } as never),
      "count(): unknown query key 'first'; use first(collection, query) for the first match (null when none)",
    ],
    [
      'entry',
      () => cms.entry('posts', 'a', { where: {} } as never),
      "entry(): unknown query key 'where'; use entries(collection, { where }) to query a list; entry() fetches one id",
    ],
    [
      'media',
      () => cms.media({ locale: 'de' } as never),
      "media(): unknown query key 'locale'; the keys are where, sort, limit, offset, fields, exclude",
    ],
    // A Date and a list, as a front end writes them (found from outside: no hint).
    [
      'entries',
      () => cms.entries('posts', { where: { published_at: { gte: new Date(0) } } } as never),
      'where[published_at][gte]: expected a string, number or boolean, got object: pass date.toISOString()',
    ],
    [
      'entries',
      () => cms.entries('posts', { where: { published_at: new Date(0) } } as never), // round two: dropped the filter
      'where[published_at]: expected a string, number or boolean, got object: pass date.toISOString()',
    ],
    [
      'entries',
      () => cms.entries('posts', { where: { title: { in: [['a']] } } } as never),
      'where[title][in]: expected a string, number or boolean, got object',
    ],
    [
      'entries',
      () => cms.entries('posts', { where: { tags: ['news', 'guide'] } } as never),
      'where[tags]: expected a string, number or boolean, got object: for any of them, use { in: [...] }',
    ],
  ])('%s: %s', async (_, call, message) => {
    const before = requested.length;
    await expect(call()).rejects.toThrow(new TypeError(message));
    expect(requested.length).toBe(before);
  });

  it('known keys, undefined values and query strings are sent', async () => {
    const before = requested.length;
    await cms.entries('posts', { limit: 2, first: undefined } as never);
    await cms.entries('posts', 'first');
    expect(requested.length).toBe(before + 2);
  });
});
