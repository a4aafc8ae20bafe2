// The curl lines printed at start (`cqa serve`, `npm start`'s scripts/start.mjs) work when pasted
// into a shell: a public project's line sends no `Bearer <token>` placeholder, which 401s (issue 24).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../http/fixture.js';

let dir: string;

beforeAll(() => {
  dir = tempDir('cqa-banner-');
  mkdirSync(join(dir, 'open', 'posts'), { recursive: true });
  writeFileSync(join(dir, 'open', 'project.yaml'), 'id: open\nname: Open\npublic: true\n');
  writeFileSync(join(dir, 'open', 'posts', 'a.md'), '---\ntitle: A\n---\nbody\n');
  mkdirSync(join(dir, 'shut', 'posts'), { recursive: true });
  writeFileSync(join(dir, 'shut', 'project.yaml'), `id: shut\nname: Shut\ntokens:\n  - name: t\n    sha256: ${'ab'.repeat(32)}\n`);
  writeFileSync(join(dir, 'shut', 'posts', 'a.md'), '---\ntitle: A\n---\nbody\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts a command, waits (at most 20 s) for its `curl` lines, then stops it. */
async function banner(args: string[], env: Record<string, string> = {}): Promise<{ curls: string[]; out: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  try {
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no banner after 20 s: ${out}`)), 20_000);
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (/explorer: /.test(out)) {
          clearTimeout(timer);
          ok();
        }
      });
      child.once('exit', (code) => fail(new Error(`exited ${code}: ${out}`)));
    });
    // Each curl line, pasted into a shell while the server runs.
    const curls = out
      .split('\n')
      .filter((l) => /^\s*(try: )?curl /.test(l))
      .map((l) => l.replace(/^\s*(try: )?/, ''));
    const statuses = curls.map((c) =>
      execFileSync('sh', ['-c', `${c} -s -o /dev/null -w '%{http_code}'`], { encoding: 'utf8', timeout: 10_000 }),
    );
    return { curls: curls.map((c, i) => `${statuses[i]} ${c}`), out };
  } finally {
    child.kill('SIGTERM');
  }
}

describe('start banners', () => {
  it('cqa serve: the try line of a public project answers 200 when pasted', async () => {
    const { curls, out } = await banner(['bin/cqa.js', 'serve', dir, '--port', '0']);
    expect(curls).toHaveLength(1);
    expect(curls[0]).toMatch(/^200 curl -H 'Accept: application\/json' 'http:\/\/127\.0\.0\.1:\d+\/api\/open'$/);
    expect(out).not.toContain('<token>');
  }, 30_000);

  it('cqa serve: with no public project, the placeholder says where a token comes from', async () => {
    rmSync(join(dir, 'open'), { recursive: true, force: true });
    const { out } = await banner(['bin/cqa.js', 'serve', dir, '--port', '0']);
    expect(out).toContain("(<token>: a token of project 'shut'; make one with `cqa token create --project shut`)");
    writeFileSync(join(dir, 'shut', 'project.yaml'), 'id: shut\nname: Shut\npublic: true\n');
    const npmStart = await banner(['scripts/start.mjs', dir], { PORT: '0' });
    expect(npmStart.curls.length).toBeGreaterThan(0);
    for (const c of npmStart.curls) expect(c).toMatch(/^200 curl /);
  }, 60_000);
});
