// `cqa build --host` and the Cache-Control options: wrong values are usage errors naming the
// option and what to write, before anything is built; writeDist refuses the same in code.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { run } from '../../src/node/commands/build.js';
import { DistError, writeDist } from '../../src/node/output/dist.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-build-host-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('cqa build --host, --api-cache-control, --media-cache-control', () => {
  let logs: string[];
  beforeEach(() => {
    logs = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void logs.push(a.join(' ')));
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void logs.push(a.join(' ')));
  });
  afterEach(() => vi.restoreAllMocks());

  it.each([
    [['--host', 'apache'], /--host must be one of netlify, cloudflare, nginx, caddy, serve, got 'apache'/],
    [['--api-cache-control', 'max-age=60"; evil'], /--api-cache-control must be a Cache-Control value without quotes/],
    [['--media-cache-control', 'a\nb'], /--media-cache-control must be printable ASCII/],
    [['--api-cache-control', ' '], /--api-cache-control must be a Cache-Control value without quotes/],
  ])('%j is refused with a message saying what to write', async (args, message) => {
    const out = join(work, 'refused');
    await expect(run(['content', '--out', out, '--include-private', ...args])).rejects.toThrow(message);
    expect(() => readdirSync(out)).toThrow(); // nothing written
  });

  it('--host serve with --precompress is refused: serve compresses by itself', async () => {
    const code = await run(['content', '--out', join(work, 'serve-gz'), '--include-private', '--host', 'serve', '--precompress', 'gzip']);
    expect(code).toBe(1);
    expect(logs.join('\n')).toMatch(/the serve host takes no precompressed siblings .*--precompress none/);
  });

  it('the Cache-Control values go into _headers and the host files', async () => {
    const out = join(work, 'nginx');
    expect(
      await run([
        'content',
        '--out',
        out,
        '--include-private',
        '--host',
        'nginx',
        '--api-cache-control',
        'public, max-age=60',
        '--media-cache-control',
        'public, max-age=86400, immutable',
      ]),
    ).toBe(0);
    const conf = readFileSync(join(out, '_nginx.conf'), 'utf8');
    expect(conf).toContain('add_header Cache-Control "public, max-age=60" always;');
    expect(conf).toContain('add_header Cache-Control "public, max-age=86400, immutable";');
    expect(readdirSync(out)).not.toContain('_headers'); // nginx reads its own file
  });

  it('--host cloudflare refuses a media file named 404.html: Pages would answer every missing file of its folder with it', async () => {
    const content = join(work, 'pages-404-content');
    mkdirSync(join(content, 'p/media/site'), { recursive: true });
    writeFileSync(join(content, 'p/project.yaml'), 'id: p\nname: P\npublic: true\n');
    writeFileSync(join(content, 'p/media/site/404.html'), '<h1>Oops</h1>\n');
    writeFileSync(join(content, 'p/media/site/a.txt'), 'a\n');
    const snapshot = await buildSnapshot({ content });
    const out = join(work, 'pages-404');
    await expect(writeDist(snapshot, { out, host: 'cloudflare' })).rejects.toThrow(
      "the media file 'site/404.html' would be Cloudflare Pages' 404 page for /media/p/site/: Pages answers every missing file there with the nearest 404.html, this file (status 404, text/html); rename it (e.g. 'site/not-found.html'), or build for another --host",
    );
    expect(() => readdirSync(out)).toThrow(); // nothing written
    // The other hosts answer a missing media file with their own 404: the file is only a file there.
    await writeDist(snapshot, { out, host: 'netlify' });
    expect(readFileSync(join(out, 'media/p/site/404.html'), 'utf8')).toBe('<h1>Oops</h1>\n');
  });

  it('writeDist refuses an unknown host and a Cache-Control value that would break a file', async () => {
    const snapshot = await buildSnapshot({ content: 'content' });
    await expect(writeDist(snapshot, { out: join(work, 'x'), host: 'iis' as never })).rejects.toThrow(DistError);
    await expect(writeDist(snapshot, { out: join(work, 'y'), cacheControl: { api: 'no-cache\n/evil/*' } })).rejects.toThrow(
      /cacheControl\.api must be a Cache-Control value on one line without quotes/,
    );
    await expect(writeDist(snapshot, { out: join(work, 'z'), cacheControl: { media: 'a"b' } })).rejects.toThrow(/cacheControl\.media/);
  });
});
