// The small pieces of the request core: negotiation, ETags, routes, SHA-256, Cache-Control.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { acceptsJson, negotiateEncoding } from '../../src/core/http/accept.js';
import { privateCacheControl } from '../../src/core/http/core.js';
import { ifNoneMatch } from '../../src/core/http/etag.js';
import { route } from '../../src/core/http/routes.js';
import { sha256, toBase64Url, toHex } from '../../src/core/http/sha256.js';

describe('Accept', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['APPLICATION/JSON', true],
    ['application/*', true],
    ['*/*', true],
    ['text/html, */*;q=0.1', true],
    ['text/html', false],
    ['', false],
    [undefined, false],
    ['application/json;q=0', false],
    ['application/json;q=0, */*', false],
    ['application/*;q=0, application/json', true],
    ['*/*;q=0', false],
    ['application/problem+json', false],
  ])('%s → %s', (h, ok) => expect(acceptsJson(h)).toBe(ok));
});

describe('Accept-Encoding', () => {
  const both = ['br', 'gzip'] as const;
  it.each([
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['identity', undefined],
    ['x-gzip', 'gzip'],
    ['', undefined],
  ])('%s → %s', (h, enc) => expect(negotiateEncoding(h, both)).toBe(enc));
  it('only what the platform has', () => expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip'));
});

describe('If-None-Match', () => {
  it('matches any variant of the tag, lists, weak tags and *', () => {
    expect(ifNoneMatch('"abc"', 'abc')).toBe(true);
    expect(ifNoneMatch('"abc-gzip"', 'abc')).toBe(true);
    expect(ifNoneMatch('W/"abc-br"', 'abc')).toBe(true);
    expect(ifNoneMatch('"x", "abc"', 'abc')).toBe(true);
    expect(ifNoneMatch('*', 'abc')).toBe(true);
    expect(ifNoneMatch('"abcd"', 'abc')).toBe(false);
    expect(ifNoneMatch('abc', 'abc')).toBe(false);
    expect(ifNoneMatch(undefined, 'abc')).toBe(false);
  });
});

describe('Cache-Control for token-protected answers', () => {
  it('adds private, drops public', () => {
    expect(privateCacheControl('no-cache')).toBe('private, no-cache');
    expect(privateCacheControl('public, max-age=60')).toBe('private, max-age=60');
    expect(privateCacheControl('private, no-store')).toBe('private, no-store');
  });
});

describe('routes', () => {
  it('decodes segments and classifies', () => {
    expect(route('/api/p')).toEqual({ kind: 'project', project: 'p' });
    expect(route('/api/p/posts/')).toEqual({ kind: 'entries', project: 'p', collection: 'posts' });
    expect(route('/api/p/posts/a%20b')).toEqual({ kind: 'entry', project: 'p', collection: 'posts', id: 'a b' });
    expect(route('/api/p/project-media/x/y%20z.png')).toEqual({ kind: 'media-item', project: 'p', id: 'x/y z.png' });
    expect(route('/media/p/x/y.png')).toEqual({ kind: 'media-file', project: 'p', id: 'x/y.png' });
    expect(route('/healthz')).toEqual({ kind: 'healthz' });
  });
  it.each([
    '/media/p/../x',
    '/media/p/%2e%2e/x',
    '/media/p/a%2fb',
    '/media/p/a%5Cb',
    '/media/p//x',
    '/api//p',
    '/x',
    '/',
    '/api',
    '/media/p',
    'api/p',
    '/media/p/a\\b',
    '/media/p/x.png/',
    '/thumbs/p/x.png/',
  ])('%s is not a route (404)', (p) => {
    const r = route(p);
    expect(r.kind).toBe('problem');
    if (r.kind === 'problem') expect(r.problem.status).toBe(404);
  });
  it.each(['/media/p/%00', '/media/p/a%', '/api/p/%E0%A4%A'])('%s is a 400', (p) => {
    const r = route(p);
    expect(r.kind === 'problem' && r.problem.status).toBe(400);
  });
});

describe('sha256 (plain JS) agrees with node:crypto', () => {
  it.each([0, 1, 55, 56, 63, 64, 65, 1000, 70_000])('%i bytes', (n) => {
    const d = new Uint8Array(n).map((_, i) => (i * 31 + 7) & 255);
    expect(toHex(sha256(d))).toBe(createHash('sha256').update(d).digest('hex'));
    expect(toBase64Url(d.subarray(0, n % 7))).toBe(Buffer.from(d.subarray(0, n % 7)).toString('base64url'));
  });
});
