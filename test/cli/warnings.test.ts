// Many warnings of one kind (found from outside: 49,000 glued-`#` warnings took seconds to print and
// buried the one that differed): `cqa build` and `cqa serve` print ten of each kind and count the
// rest; `cqa check`, the command that lists problems, prints every one.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { warningLines } from '../../src/node/content/issues.js';

const root = mkdtempSync(join(tmpdir(), 'cqa-warnings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(): string {
  const content = join(root, 'content');
  mkdirSync(join(content, 'p', 'posts'), { recursive: true });
  writeFileSync(join(content, 'p', 'project.yaml'), 'public: true\ntokens:\n  - { name: dev, token: dev-token }\n');
  writeFileSync(join(content, 'p', 'posts', '_collection.yaml'), 'fields:\n  title: text\n');
  for (let i = 1; i <= 25; i++)
    writeFileSync(join(content, 'p', 'posts', `e${String(i).padStart(2, '0')}.yaml`), `title: Episode #${i} of the saga\n`);
  return content;
}

function cqa(args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/cqa.js', ...args], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, err }));
  });
}

describe('warnings of one kind', () => {
  const content = tree();

  it('cqa build prints ten of a kind, counts the rest and still prints the one that differs', async () => {
    const { code, err } = await cqa(['build', content, '--out', join(root, 'dist')]);
    expect(code).toBe(0);
    const lines = err.split('\n').filter((l) => l.startsWith('warning:'));
    expect(lines.filter((l) => l.includes('is a YAML comment'))).toHaveLength(11);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^warning: … and 15 more like title: '#1 of the saga' after 'title: Episode' is a YAML comment.* \(cqa check lists them all\)$/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^warning: p\/project\.yaml:3: tokens: token 'dev' is written in plaintext/));
  });

  it('cqa check prints every one', async () => {
    const { err } = await cqa(['check', content]);
    expect(err.split('\n').filter((l) => l.includes('is a YAML comment'))).toHaveLength(25);
    expect(err).not.toContain('more like');
  });

  it('a kind is the message without what it quotes and its numbers, per field', () => {
    const w = (field: string, message: string) => ({ file: 'f.yaml', line: 1, field, message });
    const lines = warningLines([w('a', "'x' is 1"), w('a', "'y' is 2"), w('b', "'z' is 3"), w('a', 'other')], 1);
    expect(lines).toEqual([
      "f.yaml:1: a: 'x' is 1",
      "f.yaml:1: b: 'z' is 3",
      'f.yaml:1: a: other',
      "… and 1 more like a: 'x' is 1 (cqa check lists them all)",
    ]);
  });
});
