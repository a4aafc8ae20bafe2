// `cqa build --snapshot FILE`: alone it writes only the snapshot file (owner-only), next to --out
// it writes both but never inside --out (token hashes must not be published); content errors
// leave the file as it was.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { UsageError } from '../../src/node/commands/args.js';
import { run } from '../../src/node/commands/build.js';
import { loadSnapshot } from '../../src/core/snapshot/portable.js';
import { listFiles } from './fixture.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-snapcmd-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const content = join(work, 'content');
mkdirSync(join(content, 'shop', 'posts'), { recursive: true });
writeFileSync(
  join(content, 'shop', 'project.yaml'),
  'id: shop\ntokens:\n  - name: dev\n    token: snap-cmd-token\n    scopes: [read, drafts]\n',
);
writeFileSync(
  join(content, 'shop', 'posts', 'hello.md'),
  '---\ntitle: Hello\ncreated_at: 2021-11-25T10:00:00Z\nupdated_at: 2021-11-25T10:00:00Z\n---\nText\n',
);
writeFileSync(
  join(content, 'shop', 'posts', 'wip.md'),
  '---\ntitle: WIP\ndraft: true\ncreated_at: 2021-11-25T10:00:00Z\nupdated_at: 2021-11-25T10:00:00Z\n---\n',
);

describe('cqa build --snapshot', () => {
  let logs: string[];
  beforeEach(() => {
    logs = [];
    const capture = (...a: unknown[]) => void logs.push(a.join(' '));
    vi.spyOn(console, 'log').mockImplementation(capture);
    vi.spyOn(console, 'error').mockImplementation(capture);
  });
  afterEach(() => vi.restoreAllMocks());

  it('alone writes only the snapshot file, readable by its owner only', async () => {
    const file = join(work, 'snapshot.json');
    const defaultOut = resolve('dist');
    const before = existsSync(defaultOut) ? statSync(defaultOut).mtimeMs : null;
    expect(await run([content, '--snapshot', file])).toBe(0);
    expect(existsSync(defaultOut) ? statSync(defaultOut).mtimeMs : null).toBe(before);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(logs.find((l) => l.includes('✓'))).toMatch(/^✓ wrote the snapshot of 2 entries \([\d.]+ k?B\) to .*snapshot\.json$/);
    const loaded = loadSnapshot(readFileSync(file, 'utf8'));
    expect(loaded.hash).toBe((await buildSnapshot({ content })).hash);
    expect([...(loaded.projects.get('shop')?.collections.get('posts')?.byId.keys() ?? [])].sort()).toEqual(['hello', 'wip']);
  });

  it('with --out writes both, the snapshot outside the published tree', async () => {
    const out = join(work, 'dist');
    const file = join(work, 'both.json');
    expect(await run([content, '--out', out, '--snapshot', file, '--include-private'])).toBe(0);
    expect(listFiles(out)).toContain('api/shop/posts/hello/index.json');
    expect(listFiles(out).some((f) => f.includes('both'))).toBe(false);
    expect(existsSync(file)).toBe(true);
  });

  it('refuses a snapshot path inside --out (or the content folder, or a folder), writing nothing', async () => {
    const out = join(work, 'refused');
    await expect(run([content, '--out', out, '--snapshot', join(out, 'snapshot.json')])).rejects.toThrow(/inside --out .*token hashes/);
    await expect(run([content, '--out', out, '--snapshot', out])).rejects.toBeInstanceOf(UsageError);
    await expect(run([content, '--snapshot', join(content, 'shop', 'posts', 'snap.json')])).rejects.toThrow(/outside the content folder/);
    await expect(run([content, '--snapshot', work])).rejects.toThrow(/is a folder/);
    await expect(run([content, '--snapshot', join(work, 'no', 'such', 'dir.json')])).rejects.toThrow(/does not exist/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses through links too, and inside a tree an earlier build wrote (found from outside, round two)', async () => {
    const out = join(work, 'published');
    expect(await run([content, '--out', out, '--include-private'])).toBe(0);
    // Without --out: the tree is found by its manifest.json, and would publish the token hashes.
    await expect(run([content, '--snapshot', join(out, 'api', 'snapshot.json')])).rejects.toThrow(
      `--snapshot ${join(out, 'api', 'snapshot.json')} is inside ${out}, a tree cqa build wrote`,
    );
    symlinkSync(out, join(work, 'to-published'));
    await expect(run([content, '--out', out, '--snapshot', join(work, 'to-published', 'snap.json')])).rejects.toThrow(/ is inside /);
    symlinkSync(content, join(work, 'to-content'));
    await expect(run([content, '--snapshot', join(work, 'to-content', 'snap.json')])).rejects.toThrow(/outside the content folder/);
    expect(existsSync(join(out, 'api', 'snapshot.json'))).toBe(false);
  });

  it('refuses --out holding the content through a link (found from outside: the content was deleted)', async () => {
    const out = join(work, 'holds-content');
    expect(await run([content, '--out', out, '--include-private'])).toBe(0);
    const inner = join(out, 'src');
    cpSync(content, inner, { recursive: true });
    symlinkSync(inner, join(work, 'to-inner'));
    await expect(run([join(work, 'to-inner'), '--out', out, '--include-private'])).rejects.toThrow(/must be outside the content folder/);
    expect(existsSync(join(inner, 'shop', 'project.yaml'))).toBe(true);
  });

  it('replaces only a snapshot or an empty file (found from outside: --snapshot package.json replaced it)', async () => {
    const other = join(work, 'package.json');
    writeFileSync(other, '{"name":"app"}\n');
    await expect(run([content, '--snapshot', other])).rejects.toThrow(
      `--snapshot ${other} exists and is not a snapshot cqa build wrote, so it would be replaced`,
    );
    expect(readFileSync(other, 'utf8')).toBe('{"name":"app"}\n');
    const empty = join(work, 'empty.json');
    writeFileSync(empty, '');
    expect(await run([content, '--snapshot', empty])).toBe(0);
    expect(await run([content, '--snapshot', empty])).toBe(0); // its own snapshot, replaced
    expect(loadSnapshot(readFileSync(empty, 'utf8')).hash).toBe((await buildSnapshot({ content })).hash);
    // Nor a link (to a snapshot too), a device or a pipe: each would become a file of token hashes.
    symlinkSync(empty, join(work, 'link.json'));
    await expect(run([content, '--snapshot', join(work, 'link.json')])).rejects.toThrow(
      /is not a regular file \(a link, a device, a pipe\)/,
    );
    await expect(run([content, '--snapshot', '/dev/null'])).rejects.toThrow(/is not a regular file/);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('on content errors exits 1 and leaves the snapshot file as it was', async () => {
    const file = join(work, 'keep.json');
    expect(await run([content, '--snapshot', file])).toBe(0);
    const before = readFileSync(file, 'utf8');
    const broken = join(work, 'broken');
    cpSync(content, broken, { recursive: true });
    writeFileSync(join(broken, 'shop', 'posts', 'bad.md'), '---\ntitle: [unclosed\n---\n');
    expect(await run([broken, '--snapshot', file])).toBe(1);
    expect(logs.at(-1)).toMatch(/keep\.json was not changed$/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
