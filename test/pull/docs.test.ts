// docs/pull.md: its sh blocks run as a reader would run them, from the repository root (start the
// sample server, pull both projects, build the pulled tree).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from './fixture.js';

const blocks = [...readFileSync('docs/pull.md', 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);

afterAll(removeTempDirs);

describe('docs/pull.md', () => {
  it('has runnable examples', () => expect(blocks.length).toBeGreaterThan(0));

  it.each(blocks.map((b, i) => [i + 1, b] as const))('sh block %i runs', { timeout: 180_000 }, (_i, block) => {
    // The block's mktemp -d lands in a folder this test removes.
    const env = { ...process.env, TMPDIR: tempDir('cqa-pull-docs-') };
    const r = spawnSync('bash', ['-euo', 'pipefail', '-c', block], { encoding: 'utf8', timeout: 170_000, env });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/✓ pulled demo into .*: 7 collections/);
    expect(r.stdout).toMatch(/✓ pulled 5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47 into .*: 2 collections/);
    expect(r.stdout).toMatch(/✓ wrote \d+ files/);
  });
});
