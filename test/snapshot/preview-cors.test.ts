// `cqa preview` as the host a cross-origin page talks to (issue 22): CORS and nosniff on every
// answer (the 400 that explains a query string, 404s, 405), a preflight answered, and a folder
// that is no build refused with a message naming cqa build.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/node/commands/args.js';
import { run } from '../../src/node/commands/preview.js';
import { NotABuildError, startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { writeDist } from '../../src/node/output/dist.js';
import { fixtureModel, mediaFiles } from './fixture.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-preview-cors-'));
const { dir: mediaDir, media } = mediaFiles();
let server: PreviewServer;

beforeAll(async () => {
  // Built for nginx: no _headers, so whatever CORS there is comes from cqa preview itself.
  for (const host of ['netlify', 'nginx'] as const) await writeDist(createSnapshot(fixtureModel(media)), { out: join(work, host), host });
  server = await startPreview({ dir: join(work, 'netlify'), port: 0 });
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(mediaDir, { recursive: true, force: true });
});

describe('cqa preview: CORS and nosniff on every answer', () => {
  const cases: [string, string, number][] = [
    ['GET', '/api/demo/posts', 200],
    ['GET', '/api/demo/posts?limit=2', 400],
    ['GET', '/api/demo/posts/no-such-post', 404],
    ['GET', '/no-such-file', 404],
    ['GET', '/media/demo/no-such-file.png', 404],
    ['GET', '/_headers', 404],
    ['POST', '/api/demo/posts', 405],
    ['DELETE', '/api/demo/posts', 405],
  ];
  for (const [method, path, status] of cases) {
    it(`${method} ${path} → ${status} with Access-Control-Allow-Origin: * and X-Content-Type-Options: nosniff`, async () => {
      const res = await fetch(server.url + path, { method });
      expect(res.status).toBe(status);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      // Found from outside: the text 404 and 405 and the JSON 400 had no nosniff.
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      await res.arrayBuffer();
    });
  }

  it('a preflight (OPTIONS) is answered 204 and allows If-None-Match', async () => {
    const res = await fetch(`${server.url}/api/demo/posts`, {
      method: 'OPTIONS',
      headers: { origin: 'http://example.test', 'access-control-request-headers': 'if-none-match' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/if-none-match/i);
  });

  it('a build without _headers (--host nginx) still answers with CORS', async () => {
    const other = await startPreview({ dir: join(work, 'nginx'), port: 0 });
    try {
      const res = await fetch(`${other.url}/api/demo/posts?x=1`);
      expect(res.status).toBe(400);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await other.close();
    }
  });
});

/** ./content (the sample) has projects that need a token: the printed build publishes them, and says so. */
const PRIVATE = ' (--include-private: the projects that need a token are published there; for a local preview)';

describe('cqa preview refuses a folder that is no build', () => {
  it('startPreview: a NotABuildError naming manifest.json, and for a content folder the build to run', async () => {
    const err = await startPreview({ dir: 'content', port: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(NotABuildError);
    expect((err as Error).message).toBe(
      'content has no manifest.json, so it is not the output of cqa build: it looks like a content folder: run `cqa build content --out dist --include-private`, then `cqa preview dist` (--include-private: the projects that need a token are published there; for a local preview)',
    );
  });

  it('a folder that is no content: where ./content is built, and the folder quoted for the shell', async () => {
    const odd = join(work, "it's no build");
    mkdirSync(odd);
    const message = await startPreview({ dir: odd, port: 0 }).then(
      () => '',
      (e: Error) => e.message,
    );
    const quoted = `'${odd.replace("'", "'\\''")}'`;
    expect(message).toBe(
      `${odd} has no manifest.json, so it is not the output of cqa build: run \`cqa build content --out ${quoted} --include-private\` first, then \`cqa preview ${quoted}\`${PRIVATE}`,
    );
  });

  it("a web app's folder with a manifest.json of its own (found from outside: it was served)", async () => {
    const app = join(work, 'public');
    mkdirSync(app);
    writeFileSync(join(app, 'manifest.json'), '{"name":"My App","start_url":"/"}');
    writeFileSync(join(app, 'index.html'), '<script>alert(1)</script>');
    const message = await startPreview({ dir: app, port: 0 }).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(message).toBe(
      `${app}: its manifest.json is not one cqa build wrote (a web app's manifest?), so it is not the output of cqa build: run \`cqa build content --out dist --include-private\` first, then \`cqa preview dist\`${PRIVATE}`,
    );
  });

  it('the commands it prints work when pasted (found from outside: it suggested building into the content)', () => {
    const cwd = join(work, 'pasted');
    mkdirSync(cwd);
    cpSync('content', join(cwd, 'content'), { recursive: true, filter: (src) => !src.includes('.cqa-cache') });
    const cqa = (...args: string[]) =>
      spawnSync(process.execPath, [resolve('bin/cqa.js'), ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
    const refused = cqa('preview', 'content', '--port', '0');
    expect(refused.status).toBe(2);
    const [build, preview] = [...refused.stderr.matchAll(/`cqa ([^`]+)`/g)].map((m) => (m[1] as string).split(' '));
    // The sample's projects need a token: a build refuses them unless told (found from outside).
    expect(build).toEqual(['build', 'content', '--out', 'dist', '--include-private']);
    expect(cqa(...(build as string[])).status).toBe(0);
    expect(preview).toEqual(['preview', 'dist']);
    expect(existsSync(join(cwd, 'dist', 'manifest.json'))).toBe(true);
    // `cqa preview` of an empty ./dist beside ./content, and of a ./dist holding a file of the user's (round two).
    for (const [name, fill] of [
      ['empty', () => undefined],
      ['taken', () => writeFileSync(join(cwd, 'dist', 'keep.txt'), 'mine')],
    ] as const) {
      rmSync(join(cwd, 'dist'), { recursive: true, force: true });
      rmSync(join(cwd, 'dist-dist'), { recursive: true, force: true });
      mkdirSync(join(cwd, 'dist'));
      fill();
      const again = cqa('preview', '--port', '0');
      expect(again.status, name).toBe(2);
      const [printed] = [...again.stderr.matchAll(/`cqa ([^`]+)`/g)].map((m) => (m[1] as string).split(' '));
      expect(cqa(...(printed as string[])).status, `${name}: ${printed?.join(' ')}`).toBe(0);
    }
  });

  it('the command: the same message (the CLI exits 2 on a UsageError), and nothing listens', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await expect(run([join(work, 'empty-folder-that-is-no-build'), '--port', '0'])).rejects.toThrow(
        /is not a directory; run cqa build first/,
      );
      await expect(run(['content', '--port', '0'])).rejects.toThrow(/no manifest\.json.*cqa build/);
      await expect(run(['content', '--port', '0'])).rejects.toBeInstanceOf(UsageError);
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });
});
