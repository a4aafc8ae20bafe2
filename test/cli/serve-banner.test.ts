// The curl lines printed at start (`cqa serve`, `npm start`'s scripts/start.mjs) work when pasted
// into a shell: a public project's line sends no `Bearer <token>` placeholder, which 401s (issue 24).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
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
const made: string[] = [];
afterAll(() => {
  for (const d of [dir, ...made]) rmSync(d, { recursive: true, force: true });
});

/** Starts a command, waits (at most 20 s) for its `curl` lines, then stops it. */
async function banner(args: string[], env: Record<string, string> = {}): Promise<{ curls: string[]; urls: string[]; out: string }> {
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
    // Each project line's URL (with the project-id header it names), asked without a token.
    const urls = await Promise.all(
      out
        .split('\n')
        .filter((l) => /^ {2}http:\/\//.test(l))
        .map(async (l) => {
          const header = /with header project-id: (\S+)/.exec(l)?.[1];
          const res = await fetch(l.trim().split(/\s+/)[0] as string, {
            headers: { accept: 'application/json', ...(header ? { 'project-id': header } : {}) },
          });
          return `${res.status} ${l.trim()}`;
        }),
    );
    return { curls: curls.map((c, i) => `${statuses[i]} ${c}`), urls, out };
  } finally {
    child.kill('SIGTERM');
  }
}

const V3 = '0c4e2f7a-1b3d-4c5e-8f90-a1b2c3d4e5f6';

describe('start banners', () => {
  it('cqa serve: an elmapi3 project is shown with its project-id header, and its curl lines answer when pasted', async () => {
    const v3 = tempDir('cqa-banner-v3-');
    made.push(v3);
    const project = (id: string, extra: string) => {
      mkdirSync(join(v3, id, 'posts'), { recursive: true });
      writeFileSync(join(v3, id, 'project.yaml'), `id: ${id}\nname: V3\ndialect: elmapi3\n${extra}`);
      writeFileSync(join(v3, id, 'posts', 'a.yaml'), 'title: A\n');
    };
    project(V3, 'public: true\n');
    const open = await banner(['bin/cqa.js', 'serve', v3, '--port', '0']);
    expect(open.out).toMatch(new RegExp(`^ {2}http://127\\.0\\.0\\.1:\\d+/api {2}with header project-id: ${V3} {2}\\(public\\)`, 'm'));
    // The project root and one collection, each answering 200.
    for (const c of [...open.curls, ...open.urls]) expect(c).toMatch(/^200 /);
    expect(open.curls).toHaveLength(2);
    for (const c of open.curls) expect(c).toMatch(new RegExp(`^200 curl -H 'project-id: ${V3}' -H 'Accept: application/json' '`));
    expect(open.curls[1]).toMatch(/\/api\/posts'$/);

    // Needing a token, next to a project of the path form: the placeholder's 401 (never a 404), each form shown once.
    writeFileSync(
      join(v3, V3, 'project.yaml'),
      `id: ${V3}\nname: V3\ndialect: elmapi3\ntokens:\n  - name: t\n    sha256: ${'ab'.repeat(32)}\n`,
    );
    mkdirSync(join(v3, 'open', 'posts'), { recursive: true });
    writeFileSync(join(v3, 'open', 'project.yaml'), 'id: open\nname: Open\npublic: true\n');
    writeFileSync(join(v3, 'open', 'posts', 'a.md'), '---\ntitle: A\n---\nbody\n');
    const mixed = await banner(['bin/cqa.js', 'serve', v3, '--port', '0']);
    expect(mixed.curls.map((c) => c.slice(0, 4))).toEqual(['200 ', '401 ', '401 ']);
    expect(mixed.curls[1]).toContain(`curl -H 'project-id: ${V3}' -H 'Authorization: Bearer <token>' -H 'Accept: application/json' '`);
    expect(mixed.out).toContain(`(<token>: a token of project '${V3}'; make one with \`cqa token create --project ${V3}\`)`);
    expect(mixed.urls.map((l) => l.slice(0, 4))).toEqual(['401 ', '200 ']);
    // npm start names every project by its id, then its name and dialect (found from outside: the
    // elmapi3 one was named by its name, the others by their ids).
    const started = await banner(['scripts/start.mjs', v3, '--port', '0']);
    expect(started.out.match(/^project .*$/gm)).toEqual([
      expect.stringMatching(
        new RegExp(`^project '${V3}' \\(V3, dialect elmapi3\\): http://127\\.0\\.0\\.1:\\d+/api {2}with header project-id: ${V3}$`),
      ),
      expect.stringMatching(/^project 'open' \(Open\): http:\/\/127\.0\.0\.1:\d+\/api\/open$/),
    ]);
  }, 60_000);

  it('cqa serve: the try line of a public project answers 200 when pasted', async () => {
    const { curls, urls, out } = await banner(['bin/cqa.js', 'serve', dir, '--port', '0']);
    expect(urls.map((l) => l.slice(0, 4))).toEqual(['200 ', '401 ']);
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
    // `npm start -- --port N` passes --port after the folder (found from outside: it was ignored).
    const flagged = await banner(['scripts/start.mjs', dir, '--port', '0'], { PORT: '1' });
    expect(flagged.out).toMatch(/serving \S+ at http:\/\/127\.0\.0\.1:\d{4,5} /);
    expect(npmStart.out).not.toContain('note:');
    const bad = spawnSync(process.execPath, ['scripts/start.mjs', dir, '--port=abc'], { encoding: 'utf8', timeout: 20_000 });
    expect([bad.status, bad.stderr]).toEqual([
      2,
      "cqa: the port must be a number from 0 to 65535, got 'abc'; e.g. npm start -- --port 4001\n",
    ]);
  }, 60_000);

  it('npm start: warnings are followed by a note that the server runs anyway, and where each is explained (found from outside)', async () => {
    const own = tempDir('cqa-banner-warned-');
    made.push(own);
    mkdirSync(join(own, 'p', 'posts'), { recursive: true });
    writeFileSync(join(own, 'p', 'project.yaml'), 'id: p\nname: P\ntokens:\n  - name: dev\n    token: dev-token\n');
    writeFileSync(join(own, 'p', 'posts', 'a.md'), '---\ntitle: A\n---\nbody\n');
    const child = spawn(process.execPath, ['scripts/start.mjs', own, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    try {
      await new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no note after 20 s: ${out}`)), 20_000);
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('\nnote: ')) {
            clearTimeout(timer);
            ok();
          }
        });
        child.once('exit', (code) => fail(new Error(`exited ${code}: ${out}`)));
      });
    } finally {
      child.kill();
    }
    expect(out).toMatch(/^warning: p\/project\.yaml:\d+: tokens: token 'dev' is written in plaintext/m);
    expect(out).toContain(
      `note: the warning above does not stop the server; \`node bin/cqa.js check ${own}\` lists each with what to change`,
    );
  }, 30_000);
});
