// `cqa serve --watch` on content with errors waits for a fix, as a dev server does (found from
// outside: it printed the errors and exited). Without --watch it exits 1, as before.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../http/fixture.js';

const dir = tempDir('cqa-serve-wait-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'p', 'posts'), { recursive: true });
writeFileSync(join(dir, 'p', 'project.yaml'), 'id: p\npublic: true\n');
const broken = () => writeFileSync(join(dir, 'p', 'posts', 'a.yaml'), 'title: [unclosed\n');

/** Resolves with the text once `pattern` is in it (at most 20 s). */
function until(stream: NodeJS.ReadableStream, pattern: RegExp): Promise<string> {
  let text = '';
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`not seen after 20 s: ${pattern}\n${text}`)), 20_000);
    stream.on('data', (c: Buffer) => {
      text += c.toString();
      if (pattern.test(text)) {
        clearTimeout(timer);
        ok(text);
      }
    });
  });
}

describe('cqa serve on content with errors', () => {
  it('exits 1 listing them, without --watch', () => {
    broken();
    const r = spawnSync(process.execPath, ['bin/cqa.js', 'serve', dir, '--port', '0'], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^cqa serve: 1 content error:\n {2}p\/posts\/a\.yaml:1: broken YAML/);
  });

  it('with --watch, lists them with the warnings, waits for a fix, then serves it', async () => {
    broken();
    writeFileSync(join(dir, 'p', 'posts', 'w.yaml'), 'title: "ok"\ncode: 007\n');
    writeFileSync(join(dir, 'p', 'posts', '_collection.yaml'), 'fields:\n  title: text\n  code: text\n');
    const child = spawn(process.execPath, ['bin/cqa.js', 'serve', dir, '--watch', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const [err, out] = await Promise.all([until(child.stderr, /waiting for a fix/), until(child.stdout, /warning: /)]);
      expect(err).toContain('p/posts/a.yaml:1: broken YAML');
      // The warnings come with the errors, as cqa check prints them (found from outside: only after the fix).
      expect(out).toContain("warning: p/posts/w.yaml:2: code: '007' reads as the number 7");
      expect(err).toMatch(/cqa serve: waiting for a fix \(watching .*; Ctrl-C to stop\)/);
      const serving = until(child.stdout, /explorer: /);
      writeFileSync(join(dir, 'p', 'posts', 'a.yaml'), 'title: Fixed\n');
      const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(await serving)?.[1];
      const res = await fetch(`${url}/api/p/posts/a`, { headers: { accept: 'application/json' } });
      expect(await res.json()).toMatchObject({ data: { id: 'a', title: 'Fixed' } });
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);
});

describe('cqa serve --watch waiting for a fix', () => {
  // Found from outside: with the content folder gone while it waited, it ended silently (exit 0).
  it('keeps waiting while the content folder is gone, and serves it once it is back and fixed', async () => {
    const root = tempDir('cqa-serve-gone-');
    const site = join(root, 'site');
    mkdirSync(join(site, 'p', 'posts'), { recursive: true });
    writeFileSync(join(site, 'p', 'project.yaml'), 'id: p\npublic: true\n');
    writeFileSync(join(site, 'p', 'posts', 'a.yaml'), 'title: [unclosed\n');
    const child = spawn(process.execPath, ['bin/cqa.js', 'serve', site, '--watch', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const waiting = until(child.stderr, /content folder not found[\s\S]*waiting for a fix/);
      await until(child.stderr, /waiting for a fix/);
      rmSync(site, { recursive: true });
      await waiting;
      expect(child.exitCode).toBeNull();
      const serving = until(child.stdout, /explorer: /);
      mkdirSync(join(site, 'p', 'posts'), { recursive: true });
      writeFileSync(join(site, 'p', 'project.yaml'), 'id: p\npublic: true\n');
      writeFileSync(join(site, 'p', 'posts', 'a.yaml'), 'title: Back\n');
      const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(await serving)?.[1];
      const res = await fetch(`${url}/api/p/posts/a`, { headers: { accept: 'application/json' } });
      expect(await res.json()).toMatchObject({ data: { title: 'Back' } });
    } finally {
      child.kill('SIGTERM');
      rmSync(root, { recursive: true, force: true });
    }
  }, 40_000);
});
