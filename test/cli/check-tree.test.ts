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
    const cases: [string, string, string][] = [
      ['entry', 'site/posts/index.json.md', 'the entry site/posts/index.json.md'],
      ['media', 'site/media/index.json', "the media file 'index.json'"],
    ];
    for (const [kind, file, maker] of cases) {
      const tree = join(work, kind);
      cpSync(content, tree, { recursive: true });
      writeFileSync(join(tree, file), kind === 'entry' ? '---\ntitle: I\n---\n' : '{}');
      said = [];
      expect(await check([tree]), kind).toBe(0);
      const problem = said.find((l) => l.includes('cqa build would refuse this content: '))?.split('refuse this content: ')[1];
      expect(problem, kind).toContain(`is needed both as a file and as a directory, made a folder by ${maker}`);
      expect(said.at(-1), kind).toMatch(/^✓ content ok: .* \(\d+ warnings?\)$/);
      said = [];
      expect(await build([tree, '--out', join(work, `${kind}-dist`), '--include-private']), kind).toBe(1);
      expect(said.join('\n'), kind).toContain(problem as string);
    }
  });
});
