import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHeadersFile, safePathname, startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { writeDist } from '../../src/node/output/dist.js';
import { fixtureModel, mediaFiles } from './fixture.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-preview-'));
const out = join(work, 'dist');
const { dir: mediaDir, media } = mediaFiles();
const snapshot = createSnapshot(fixtureModel(media));
let server: PreviewServer;

beforeAll(async () => {
  await writeDist(snapshot, { out, precompress: 'all' });
  server = await startPreview({ dir: out, port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(mediaDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw GET: the path is sent exactly as given (no normalisation by a URL parser). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const { port } = new URL(server.url);
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('cqa preview', () => {
  it('listens on 127.0.0.1 with a real port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toMatch(/:0$/);
  });

  it('serves /api/<project>/<collection> as JSON from its index.json', async () => {
    const r = await get('/api/demo/posts');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.body.toString('utf8')).toBe(snapshot.document('/api/demo/posts'));
    for (const p of snapshot.paths) {
      const url = p.split('/').map(encodeURIComponent).join('/');
      const a = await get(url);
      expect(a.status, p).toBe(200);
      expect(a.body.toString('utf8'), p).toBe(snapshot.document(p));
    }
    expect((await get('/api/demo/posts/')).status).toBe(200);
    expect((await get('/api/demo/posts?')).status).toBe(200);
  });

  it('serves the precompressed siblings', async () => {
    const br = await get('/api/demo/posts', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(snapshot.document('/api/demo/posts'));
    const gz = await get('/api/demo/posts', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(snapshot.document('/api/demo/posts'));
  });

  it('serves media files, openapi.json and manifest.json', async () => {
    const m = await get('/media/demo/photos/a%20b.png');
    expect(m.status).toBe(200);
    expect(m.headers['content-type']).toBe('image/png');
    expect(m.body).toEqual(readFileSync(media[1]!.source));
    const o = await get('/openapi.json');
    expect(o.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(o.body.toString('utf8')).toBe(snapshot.openapiOf(['demo']));
    expect((await get('/manifest.json')).status).toBe(200);
    const etag = m.headers.etag as string;
    expect((await get('/media/demo/photos/a%20b.png', { 'if-none-match': etag })).status).toBe(304);
  });

  it('answers 404 for anything else, including the host configuration files', async () => {
    // A thumbnail as an elmapi build writes it: served by its path, not with a trailing slash.
    mkdirSync(join(out, 'thumbs', 'demo'), { recursive: true });
    writeFileSync(join(out, 'thumbs', 'demo', 't.png'), 'png');
    expect((await get('/thumbs/demo/t.png')).status).toBe(200);
    for (const p of [
      '/nope',
      '/api/demo/posts/draft-1',
      '/api/demo/nope',
      '/_headers',
      '/_redirects',
      '/media/demo/nope.png',
      '/media/demo/doc',
      // A file has no trailing slash (found from outside: the file was served), as on cqa serve.
      '/media/demo/photos/a%20b.png/',
      '/thumbs/demo/t.png/',
    ]) {
      expect((await get(p)).status, p).toBe(404);
    }
    expect((await get('/api/demo', {}, 'POST')).status).toBe(405);
  });

  it('never serves a file outside dist', async () => {
    const attempts = [
      '/../package.json',
      '/api/../../package.json',
      '/media/demo/../../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/media/%2e%2e/%2e%2e/dist/manifest.json',
      '/%252e%252e/%252e%252e/etc/passwd',
      '/media/demo/..%2f..%2f..%2fetc%2fpasswd',
      '/media/demo/photos%2fa%20b.png',
      '/media/demo/..%5c..%5cmanifest.json',
      '/media/demo/doc.txt%00.png',
      '/api/demo%00/index.json',
      '/media/demo/%E0%A4%A',
      '/media//demo/doc.txt',
      '/./manifest.json',
    ];
    for (const p of attempts) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(r.body.toString('utf8'), p).not.toMatch(/root:|"snapshot"/);
    }
  });

  it('checks paths before they reach the file system', () => {
    expect(safePathname('/api/demo/posts?x=1')).toBe('/api/demo/posts');
    expect(safePathname('/media/p/a%20b.png')).toBe('/media/p/a b.png');
    expect(safePathname('/media/p/100%25.png')).toBe('/media/p/100%.png');
    expect(safePathname('/a/')).toBe('/a/');
    for (const bad of ['/..', '/a/%2e%2e/b', '/a%2fb', '/a%5cb', '/a%00', '/a//b', '/%zz', 'relative'])
      expect(safePathname(bad), bad).toBeNull();
  });

  it('answers at once, 503, a pipelined request past 128 read and not yet answered on its connection', async () => {
    // Found from outside: each request read waits for its file to be opened and writes nothing
    // until then, so node:http read on: 40 connections that wrote 20,000 requests each and never
    // read took a preview from 60 MB to 2.3 GB.
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((ok) => socket.once('connect', ok));
    const n = 300;
    socket.write(Array.from({ length: n }, (_, i) => `GET /nope-${i} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`).join(''));
    // The 404s are chunked: the status lines are read from the whole text (no body holds one).
    let text = '';
    await new Promise<void>((ok, fail) => {
      socket.on('error', fail);
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if ((text.match(/^HTTP\/1\.1 /gm) ?? []).length >= n) ok();
      });
    });
    const statuses = [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
    const retryAfter = /^HTTP\/1\.1 503[\s\S]*?\r\nretry-after: (\S+)/im.exec(text)?.[1];
    socket.destroy();
    // In order: the first 128 answered as usual, the next ones refused at once (before: all 404).
    expect(statuses.slice(0, 128)).toEqual(Array.from({ length: 128 }, () => 404));
    expect(statuses[128]).toBe(503);
    expect(retryAfter).toBe('1');
  });

  it('parses _headers rules', () => {
    const rules = parseHeadersFile('# c\n/api/*\n  Content-Type: application/json\n/x.json\n  A: b\n');
    expect(rules.map((r) => r.headers)).toEqual([[['Content-Type', 'application/json']], [['A', 'b']]]);
    expect(rules[0]!.pattern.test('/api/demo/posts')).toBe(true);
    expect(rules[1]!.pattern.test('/xxjson')).toBe(false);
  });
});
