// `cqa build` killed with SIGKILL at any moment: the output is always the complete previous tree
// or the complete new one (or, killed between the two renames of the swap, the complete previous
// tree moved aside, which the next build puts back), and the next build leaves no temp or old
// folder behind. Real child processes of the compiled CLI: killed at each step of the swap by the
// CQA_TEST_KILL_AT hook, and after varied delays.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateContent } from '../../scripts/generate-content.mjs';
import { newSuffix, recoverOutput } from '../../src/node/output/dist-swap.js';
import { listFiles } from './fixture.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-dist-kill-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const site = join(work, 'site'); // holds only dist/ and what builds put beside it
const out = join(site, 'dist');
const contentA = join(work, 'a');
const contentB = join(work, 'b');
const broken = join(work, 'broken');

type Digest = Map<string, string>;
const digest = (dir: string): Digest =>
  new Map(
    listFiles(dir).map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );
const siblings = () => readdirSync(site).sort();

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  err: string;
  ms: number;
}

/** `cqa build <content> --out dist`, SIGKILLed after `killAfter` ms when given. */
function build(content: string, options: { killAfter?: number; killAt?: string } = {}): Promise<Run> {
  const started = performance.now();
  const env = { ...process.env, ...(options.killAt ? { CQA_TEST_KILL_AT: options.killAt } : {}) };
  const child = spawn(process.execPath, ['bin/cqa.js', 'build', content, '--out', out, '--include-private', '--precompress', 'all'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env,
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const timers = [setTimeout(() => child.kill('SIGKILL'), options.killAfter ?? 60_000)];
  return new Promise((done) =>
    child.on('exit', (code, signal) => {
      for (const t of timers) clearTimeout(t);
      done({ code, signal, err, ms: performance.now() - started });
    }),
  );
}

let treeA: Digest;
let treeB: Digest;
let buildMs: number;

beforeAll(async () => {
  // Two different trees of ~350 files each, and a copy of A with a content error.
  generateContent({ entries: 100, out: contentA, seed: 1 });
  generateContent({ entries: 100, out: contentB, seed: 2 });
  cpSync(contentA, broken, { recursive: true });
  writeFileSync(join(broken, 'bench/authors/zz-broken.yaml'), 'name: [unclosed\n');
  mkdirSync(site);
  const refB = join(work, 'ref-b');
  const r = spawnSync(process.execPath, ['bin/cqa.js', 'build', contentB, '--out', refB, '--include-private', '--precompress', 'all'], {
    timeout: 60_000,
  });
  expect(r.status).toBe(0);
  treeB = digest(refB);
  rmSync(refB, { recursive: true });
  const first = await build(contentA);
  expect(first.code, first.err).toBe(0);
  treeA = digest(out);
  buildMs = first.ms;
  expect(treeA.size).toBeGreaterThan(300);
}, 90_000);

/** What may be there after a kill: the complete old or new tree, or the complete old one moved aside. */
function expectOldOrNew(old: Digest, next: Digest): 'old' | 'new' | 'aside' {
  if (existsSync(out)) {
    const now = digest(out);
    if (now.size === next.size && [...next].every(([f, h]) => now.get(f) === h)) return 'new';
    expect(now).toEqual(old);
    return 'old';
  }
  const aside = siblings().filter((n) => /^dist\.old-\d+-[0-9a-f]{12}$/.test(n));
  expect(aside).toHaveLength(1);
  expect(digest(join(site, aside[0] as string))).toEqual(old);
  return 'aside';
}

describe('cqa build killed with SIGKILL', () => {
  it('at each step of the swap', async () => {
    // Tree written, not swapped: dist is A, the killed build's temp dir is left…
    let r = await build(contentB, { killAt: 'written' });
    expect(r.signal).toBe('SIGKILL');
    expect(expectOldOrNew(treeA, treeB)).toBe('old');
    expect(siblings()).toEqual(['dist', expect.stringMatching(/^dist\.tmp-\d+-[0-9a-f]{12}$/)]);

    // …and goes at the next build, which here is killed between the two renames: no dist, A aside.
    r = await build(contentB, { killAt: 'moved-aside' });
    expect(r.signal).toBe('SIGKILL');
    expect(expectOldOrNew(treeA, treeB)).toBe('aside');
    expect(siblings().some((n) => n.startsWith('dist.tmp-'))).toBe(true);

    // The next build puts A back even though it fails on a content error, and cleans up.
    r = await build(broken);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/restored .*dist, which an interrupted build had moved aside/);
    expect(digest(out)).toEqual(treeA);
    expect(siblings()).toEqual(['dist']);

    // Swapped, the old tree not yet removed: dist is B; the next build removes A's leftover.
    r = await build(contentB, { killAt: 'swapped' });
    expect(r.signal).toBe('SIGKILL');
    expect(expectOldOrNew(treeA, treeB)).toBe('new');
    expect(siblings()).toEqual(['dist', expect.stringMatching(/^dist\.old-\d+-[0-9a-f]{12}$/)]);
    r = await build(contentA);
    expect(r.code, r.err).toBe(0);
    expect(digest(out)).toEqual(treeA);
    expect(siblings()).toEqual(['dist']);
  }, 120_000);

  it('after varied delays: always the complete old or new tree, nothing left after the next build', async () => {
    let current = treeA;
    const seen = new Set<string>();
    for (const fraction of [0.25, 0.6, 0.9, 1.1]) {
      // Always toward the other tree, so that old and new can be told apart.
      const [content, next] = current === treeA ? [contentB, treeB] : [contentA, treeA];
      await build(content, { killAfter: Math.round(buildMs * fraction) });
      const state = expectOldOrNew(current, next);
      seen.add(state);
      if (state === 'new') current = next;
    }
    const last = await build(contentA);
    expect(last.code, last.err).toBe(0);
    expect(digest(out)).toEqual(treeA);
    expect(siblings()).toEqual(['dist']);
    expect(seen.has('old')).toBe(true); // (which others occur depends on the machine's speed)
  }, 180_000);
});

describe('recoverOutput', () => {
  it('removes only our own leftovers, of processes that are gone', async () => {
    const dir = join(work, 'leftovers');
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid as number; // exited: its pid is free
    const hex = 'a1b2c3d4e5f6';
    mkdirSync(join(dir, 'dist'), { recursive: true });
    const ours = [
      `dist.tmp-${dead}-${hex}`,
      `dist.old-${dead}-${hex}`,
      `dist.tmp-${process.pid}-${hex}`, // an earlier process that had this pid (a container's runs share theirs)
    ];
    const notOurs = [
      `dist.tmp-${process.pid}-${newSuffix()}`, // a live build (this process)
      'dist.tmp-abc', // not our pattern
      `dist.tmp-${dead}-${hex}x`,
      `dist.old-${dead}-ABCDEF123456`,
      `other.tmp-${dead}-${hex}`,
      `dist.bak-${dead}-${hex}`,
    ];
    for (const n of [...ours, ...notOurs]) mkdirSync(join(dir, n));
    writeFileSync(join(dir, `dist.tmp-${dead}-0123456789ab`), 'a file, not a build folder');
    expect(await recoverOutput(join(dir, 'dist'))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['dist', ...notOurs, `dist.tmp-${dead}-0123456789ab`].sort());
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'on Linux, removes the dir of a killed build whose pid is still taken: by a zombie, or by a process started since',
    async () => {
      const dir = join(work, 'taken');
      mkdirSync(join(dir, 'dist'), { recursive: true });
      const made = join(dir, 'made-before');
      mkdirSync(made);
      // A sleep started before its dir (a build still running) and one started a while after the dir was made.
      const running = spawn('sleep', ['60'], { stdio: 'ignore' });
      mkdirSync(join(dir, `dist.tmp-${running.pid}-000000000001`));
      await new Promise((r) => setTimeout(r, 1500));
      const later = spawn('sleep', ['60'], { stdio: 'ignore' });
      renameSync(made, join(dir, `dist.tmp-${later.pid}-000000000002`));
      // A killed process that its parent (a shell become sleep) never waits for stays a zombie.
      const parent = spawn('/bin/sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
      try {
        const zombie = Number(await new Promise<string>((r) => parent.stdout.once('data', (d: Buffer) => r(d.toString()))));
        mkdirSync(join(dir, `dist.tmp-${zombie}-000000000003`));
        process.kill(zombie, 'SIGKILL');
        for (let i = 0; i < 400 && !/\) Z /.test(readFileSync(`/proc/${zombie}/stat`, 'latin1')); i++)
          await new Promise((r) => setTimeout(r, 25));
        expect(readFileSync(`/proc/${zombie}/stat`, 'latin1')).toMatch(/\) Z /);
        expect(await recoverOutput(join(dir, 'dist'))).toBe(false);
        expect(readdirSync(dir).sort()).toEqual(['dist', `dist.tmp-${running.pid}-000000000001`]);
      } finally {
        for (const child of [running, later, parent]) child.kill('SIGKILL');
      }
    },
  );

  it('puts back the newest moved-aside tree when dist is missing', async () => {
    const dir = join(work, 'restore');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    mkdirSync(join(dir, `dist.old-${dead}-000000000001`, 'api'), { recursive: true });
    writeFileSync(join(dir, `dist.old-${dead}-000000000001`, 'manifest.json'), '{}');
    mkdirSync(join(dir, `dist.tmp-${dead}-000000000002`), { recursive: true });
    expect(await recoverOutput(join(dir, 'dist'))).toBe(true);
    expect(readdirSync(dir)).toEqual(['dist']);
    expect(readdirSync(join(dir, 'dist')).sort()).toEqual(['api', 'manifest.json']);
  });
});
