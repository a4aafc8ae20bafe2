// `cqa pull` on the command line: mistakes are usage errors (exit 2) that name the fix, before any
// request; the token can come from a file instead of CQA_TOKEN.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { SAMPLE, tempDir } from './fixture.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ content: SAMPLE });
});
afterAll(async () => {
  await server?.close();
});

const env = { ...process.env, CQA_TOKEN: '' };

function cqa(args: string[]) {
  const r = spawnSync(process.execPath, ['bin/cqa.js', 'pull', ...args], { encoding: 'utf8', timeout: 20_000, env });
  return { code: r.status, err: r.stderr };
}

/** The CLI without blocking this process, which serves the API it reads. */
function cqaAsync(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['bin/cqa.js', 'pull', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

describe('cqa pull usage', () => {
  it.each([
    [[], /missing BASE_URL/],
    [['127.0.0.1:4000', '--project', 'demo'], /BASE_URL must be an http\(s\) URL/],
    [['http://127.0.0.1:4000/api', '--project', 'demo'], /the part before \/api: use 'http:\/\/127\.0\.0\.1:4000'/],
    [['http://127.0.0.1:4000'], /--project ID is required/],
    [['http://127.0.0.1:4000', '--project', '../etc'], /--project '\.\.\/etc' is not a project id/],
    [['http://127.0.0.1:4000', '--project', 'demo', '--dialect', 'strapi'], /--dialect must be cqa or elmapi/],
    [['http://127.0.0.1:4000', '--project', 'x', '--dialect', 'elmapi'], /--dialect elmapi needs --collections/],
    [
      ['http://127.0.0.1:4000', '--project', '3F6C1A52-8B0E-4D7A-9C41-2E5F7B8A9D10', '--dialect', 'elmapi3'],
      /got '3F6C1A52-8B0E-4D7A-9C41-2E5F7B8A9D10'; write it in lower case: --project 3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10$/m,
    ],
    [['http://127.0.0.1:4000', '--project', 'demo', '--concurrency', '0'], /--concurrency must be an integer from 1 to 32, got '0'/],
    [['http://127.0.0.1:4000', '--project', 'demo', '--concurrency', '33'], /--concurrency must be an integer from 1 to 32, got '33'/],
    [['http://127.0.0.1:4000', '--project', 'demo', '--collections', ''], /--collections names no collection/],
    [['http://127.0.0.1:4000', '--project', 'demo', '--max-pages', '0'], /--max-pages must be a positive integer, got '0'/],
    [
      ['http://127.0.0.1:4000', '--project', 'demo', '--max-file-size', 'abc'],
      /--max-file-size must be a size in bytes, optionally with a unit/,
    ],
    [['http://127.0.0.1:4000', '--project', 'demo', '--collections', ' , '], /--collections names no collection \(got ' , '\)/],
    [
      ['http://127.0.0.1:99999', '--project', 'demo'],
      /BASE_URL 'http:\/\/127\.0\.0\.1:99999' is not a valid URL: check the host name and the port \(1 to 65535\)/,
    ],
    [['http://127.0.0.1:4000/x?y=1', '--project', 'demo'], /BASE_URL must have no query/],
    [['http://127.0.0.1:4000/x#y', '--project', 'demo'], /BASE_URL must have no query \(\?…\) or fragment/],
    [['http://127.0.0.1:4000', '--project', 'demo', '--token', 'abc'], /unknown option '--token'/],
    [['http://127.0.0.1:4000', '--project', 'demo', '--token-file', '/nonexistent/token'], /--token-file: cannot read/],
  ])('%j → exit 2', (args, message) => {
    const r = cqa(args as string[]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });

  it('--token-file: the token from a file; a wrong one is a usage error naming CQA_TOKEN', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'token'), 'demo-token\n');
    const ok = await cqaAsync([server.url, '--project', 'demo', '--out', join(dir, 'content'), '--token-file', join(dir, 'token')]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/✓ pulled demo into .*: 7 collections, \d+ entries, 12 media/);
    expect(ok.err).toMatch(/warning: 12 media files not downloaded \(--media downloads them\)/);
    expect(existsSync(join(dir, 'content/demo/posts/hello-world.md'))).toBe(true);

    writeFileSync(join(dir, 'wrong'), 'not-a-token\n');
    const bad = await cqaAsync([server.url, '--project', 'demo', '--out', join(dir, 'other'), '--token-file', join(dir, 'wrong')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/HTTP 401.*CQA_TOKEN/);
    expect(existsSync(join(dir, 'other'))).toBe(false);
  });

  it('--token-file saved as UTF-16 (PowerShell >) or far too large is said so, before any request', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'utf16'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('demo-token\r\n', 'utf16le')]));
    const utf16 = cqa([server.url, '--project', 'demo', '--out', join(dir, 'c'), '--token-file', join(dir, 'utf16')]);
    expect(utf16.code).toBe(2);
    expect(utf16.err).toContain(
      `--token-file: '${join(dir, 'utf16')}' is saved as UTF-16 (little-endian), not UTF-8: save the file as UTF-8`,
    );
    writeFileSync(join(dir, 'large'), 'x'.repeat(70_000));
    const large = cqa([server.url, '--project', 'demo', '--out', join(dir, 'c'), '--token-file', join(dir, 'large')]);
    expect(large.code).toBe(2);
    expect(large.err).toContain('is larger than a token file can be (64 KiB)');
    expect(existsSync(join(dir, 'c'))).toBe(false);
  });

  it('--out naming a file is named; a refused connection is a runtime error (exit 1)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    const file = await cqaAsync([server.url, '--project', 'demo', '--out', join(dir, 'file'), '--collections', 'authors']);
    expect(file.code).toBe(2);
    expect(file.err).toContain(`--out ${join(dir, 'file')} is a file`);
    // A port nothing listens on: the server that was there is closed.
    const gone = await startServer({ content: SAMPLE });
    const goneUrl = gone.url;
    await gone.close();
    const refused = cqa([goneUrl, '--project', 'demo', '--out', join(dir, 'x')]);
    // One line, at once (no retries): what is wrong and what to check.
    expect(refused.err).toBe(
      `cqa pull: nothing listens at ${goneUrl} (connection refused): is the server running, and is ${new URL(goneUrl).port} its port? Check BASE_URL\n`,
    );
    expect(refused.code).toBe(1);
  }, 30_000);

  it('the summary: an absolute --out as given, singular counts, reused media not counted as downloaded', async () => {
    const dir = tempDir();
    const args = [
      server.url,
      '--project',
      'demo',
      '--out',
      join(dir, 'c'),
      '--collections',
      'authors',
      '--media',
      '--token-file',
      join(dir, 'token'),
    ];
    writeFileSync(join(dir, 'token'), 'demo-token\n');
    const first = await cqaAsync(args);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain(`✓ pulled demo into ${join(dir, 'c', 'demo')}: 1 collection, `);
    expect(first.out).toMatch(/downloaded/);
    const second = await cqaAsync(args);
    expect(second.code, second.err).toBe(0);
    expect(second.out).not.toMatch(/downloaded/);
    expect(second.out).toMatch(/media \(\d+ unchanged\)/);
  });
});
