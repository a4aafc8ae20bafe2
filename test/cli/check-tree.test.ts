// `cqa check` says what `cqa build` would refuse to write (ids that name a file the tree writes
// itself), which cqa serve answers: a warning, exit 0 (found from outside: check passed, build failed).
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run as build } from '../../src/node/commands/build.js';
import { run as check } from '../../src/node/commands/check.js';
import { run as init } from '../../src/node/commands/init.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-check-tree-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('cqa check and the static tree', () => {
  let said: string[];
  beforeEach(() => {
    said = [];
    const capture = (...a: unknown[]) => void said.push(a.join(' '));
    vi.spyOn(console, 'log').mockImplementation(capture);
    vi.spyOn(console, 'error').mockImplementation(capture);
  });
  afterEach(() => vi.restoreAllMocks());

  it('warns of an entry or a media file whose id is a file the tree writes, as cqa build then refuses it', async () => {
    const content = join(work, 'content');
    await init([content]);
    expect(await check([content])).toBe(0);
    expect(said.join('\n')).not.toContain('cqa build would refuse');
    // [case, file, its text, the build refused, who makes the folder]; round two (found from outside): a draft, a .gz sibling.
    const cases: [string, string, string, string, string][] = [
      ['entry', 'site/posts/index.json.md', '---\ntitle: I\n---\n', 'cqa build', 'the entry site/posts/index.json.md'],
      ['media', 'site/media/index.json', '{}', 'cqa build', "the media file 'index.json'"],
      [
        'draft',
        'site/posts/index.json.md',
        '---\ntitle: I\ndraft: true\n---\n',
        'cqa build --drafts',
        'the entry site/posts/index.json.md',
      ],
      [
        'sibling',
        'site/posts/index.json.gz.md',
        '---\ntitle: I\n---\n',
        'cqa build --precompress gzip',
        'the entry site/posts/index.json.gz.md',
      ],
    ];
    for (const [kind, file, text, refusing, maker] of cases) {
      const tree = join(work, kind);
      cpSync(content, tree, { recursive: true });
      writeFileSync(join(tree, file), text);
      said = [];
      expect(await check([tree]), kind).toBe(0);
      const warning = said.find((l) => l.includes('would refuse this content: '));
      expect(warning, kind).toContain(
        refusing === 'cqa build' ? 'cqa build would refuse' : 'cqa build --drafts or --precompress would refuse',
      );
      const problem = warning?.split('refuse this content: ')[1];
      expect(problem, kind).toContain(`as a file and as a directory, made a folder by ${maker}`);
      expect(said.at(-1), kind).toMatch(/^✓ content ok: .* \(\d+ warnings?\)$/);
      said = [];
      const options = refusing.split(' ').slice(2);
      expect(await build([tree, '--out', join(work, `${kind}-dist`), '--include-private', ...options]), kind).toBe(1);
      expect(said.join('\n'), kind).toContain(problem as string);
    }
  });

  it('warns of a media file named 404.html, which cqa build --host cloudflare refuses (found from outside)', async () => {
    const tree = join(work, 'pages-404');
    await init([tree]);
    writeFileSync(join(tree, 'site/media/404.html'), '<h1>Oops</h1>');
    said = [];
    expect(await check([tree])).toBe(0);
    const warning = said.find((l) => l.includes('cqa build --host cloudflare would refuse this content: '));
    expect(warning).toContain("the media file '404.html' would be Cloudflare Pages' 404 page");
    said = [];
    expect(await build([tree, '--out', join(work, 'pages-404-dist'), '--include-private', '--host', 'cloudflare'])).toBe(1);
    expect(said.join('\n')).toContain(warning?.split('refuse this content: ')[1] as string);
  });
});
