// `cqa init` (issue 24): a project to start from that `cqa check` passes and `cqa serve` serves,
// whose token is printed once and stored only as its sha256; a folder with anything in it is
// refused unless --force.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../http/fixture.js';

const work = tempDir('cqa-init-');
afterAll(() => rmSync(work, { recursive: true, force: true }));
const cqa = (args: string[]) => {
  const r = spawnSync(process.execPath, [join(process.cwd(), 'bin/cqa.js'), ...args], { cwd: work, encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

describe('cqa init', () => {
  it('writes a project that cqa check passes; the token is printed once and kept only as its sha256', () => {
    const r = cqa(['init', 'demo']);
    expect(r.code, r.err).toBe(0);
    const token = /^ {2}([A-Za-z0-9_-]{43})$/m.exec(r.out)?.[1] as string;
    expect(token).toBeDefined();
    expect(r.out.split(token).length - 1).toBe(2); // the token line and the curl line
    const files = filesUnder(join(work, 'demo'));
    expect(files.map((f) => f.slice(work.length + 1)).sort()).toEqual([
      'demo/site/media/_media.yaml',
      'demo/site/media/welcome.svg',
      'demo/site/posts/_collection.yaml',
      'demo/site/posts/getting-started.md',
      'demo/site/posts/hello.de.md',
      'demo/site/posts/hello.md',
      'demo/site/project.yaml',
    ]);
    for (const f of files) expect(readFileSync(f, 'utf8')).not.toContain(token);
    expect(readFileSync(join(work, 'demo/site/project.yaml'), 'utf8')).toContain(
      `sha256: ${createHash('sha256').update(token).digest('hex')}`,
    );
    const check = cqa(['check', 'demo']);
    expect(check.code, check.err).toBe(0);
    expect(check.out).toBe('✓ content ok: 1 project, 1 collection, 3 entries, 1 media\n');
    expect(check.err).toBe(''); // no warning either
  });

  it('its Next lines name cqa as the shell finds it: npx cqa when installed in the project (found from outside), and how to build', () => {
    const global = cqa(['init', 'next-global']);
    expect(global.out).toMatch(/^ {2}cqa check next-global$/m);
    expect(global.out).toMatch(/^ {2}cqa build next-global --include-private {3}# a static host checks no token/m);
    // As npm installs it: the package's files under ./node_modules.
    const project = join(work, 'installed');
    const pkg = join(project, 'node_modules', 'content-query-api');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    copyFileSync(join(process.cwd(), 'bin/cqa.js'), join(pkg, 'bin/cqa.js'));
    copyFileSync(join(process.cwd(), 'package.json'), join(pkg, 'package.json'));
    symlinkSync(join(process.cwd(), 'lib'), join(pkg, 'lib'));
    symlinkSync(join(process.cwd(), 'node_modules'), join(pkg, 'node_modules'));
    const local = spawnSync(process.execPath, [join(pkg, 'bin/cqa.js'), 'init', 'content'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(local.status, local.stderr).toBe(0);
    expect(local.stdout).toMatch(/^ {2}npx cqa check content$/m);
    expect(local.stdout).toMatch(/^ {2}npx cqa serve content --watch$/m);
  });

  it('cqa serve serves it: the printed token reads the posts, the German variant included', async () => {
    const token = /^ {2}([A-Za-z0-9_-]{43})$/m.exec(cqa(['init', 'served']).out)?.[1] as string;
    const child = spawn(process.execPath, [join(process.cwd(), 'bin/cqa.js'), 'serve', 'served', '--port', '0'], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((ok, fail) => {
        let out = '';
        const timer = setTimeout(() => fail(new Error(`no URL after 20 s: ${out}`)), 20_000);
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            ok(m[1] as string);
          }
        });
      });
      const res = await fetch(`${url}/api/site/posts?fields=title&sort=id`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { id: string; locale: string; title: string }[] };
      expect(body.data.map((e) => [e.id, e.locale, e.title])).toEqual([
        ['getting-started', 'en', 'Getting started'],
        ['hello', 'en', 'Hello, world'],
        ['hello.de', 'de', 'Hallo, Welt'],
      ]);
      const media = await fetch(`${url}/media/site/welcome.svg`);
      expect(media.status).toBe(200);
      await media.arrayBuffer();
      const hello = await fetch(`${url}/api/site/posts/hello?fields=translations,body_html`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      expect(await hello.json()).toEqual({
        data: { id: 'hello', locale: 'en', body_html: expect.stringContaining('<strong>body</strong>'), translations: { de: 'hello.de' } },
      });
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);

  it('refuses a folder that is not empty (exit 2), writes into it with --force', () => {
    mkdirSync(join(work, 'busy'));
    writeFileSync(join(work, 'busy', 'notes.txt'), 'mine');
    const r = cqa(['init', 'busy']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "cqa init: 'busy' is not empty (1 item); give a new or empty folder, or --force to write the starter files into it (files of the same names are replaced)\n(see 'cqa init --help')\n",
    );
    expect(readdirSync(join(work, 'busy'))).toEqual(['notes.txt']);
    const forced = cqa(['init', 'busy', '--force', '--project', 'blog']);
    expect(forced.code, forced.err).toBe(0);
    expect(readFileSync(join(work, 'busy', 'notes.txt'), 'utf8')).toBe('mine');
    expect(cqa(['check', 'busy']).code).toBe(0);
  });

  it('refuses a bad project id and a file for a folder', () => {
    expect(cqa(['init', 'x', '--project', '../up']).err).toBe(
      "cqa init: --project '../up' is not a valid project id (letters, digits, '_' and '-', starting with a letter or digit)\n(see 'cqa init --help')\n",
    );
    writeFileSync(join(work, 'file'), '');
    expect(cqa(['init', 'file'])).toMatchObject({
      code: 2,
      err: "cqa init: 'file' is a file; give a folder to create (cqa init <folder>)\n(see 'cqa init --help')\n",
    });
  });

  it('makes missing parent folders, and fails at once where the system cannot make one (/proc: Node’s recursive mkdir retried until the 20 s timeout)', () => {
    const r = cqa(['init', 'a/b/c']);
    expect(r.code).toBe(0);
    expect(readdirSync(join(work, 'a/b/c'))).toContain('site');
    if (process.platform !== 'linux') return;
    expect(cqa(['init', '/proc/cqa-no-such/site'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^cqa init: ENOENT.*'\/proc\/cqa-no-such'/),
    });
  });
});
