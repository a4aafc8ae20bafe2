// `cqa token create` prints lines to add to project.yaml: added as it says, they load, whether the
// file has a 'tokens:' line yet or not (found from outside: a pulled project.yaml has none, and
// the item lines pasted alone broke it with the YAML parser's own words).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { load } from '../content/helpers.js';

let out: string[] = [];
beforeEach(() => {
  out = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
});
afterEach(() => vi.restoreAllMocks());

/** The lines cqa token create says to add, and the token it printed once. */
async function created(): Promise<{ lines: string[]; token: string }> {
  expect(await main(['token', 'create', '--project', 'p', '--name', 'web'])).toBe(0);
  const text = out.join('\n').split('\n');
  const from = text.findIndex((l) => l.startsWith('Add these lines'));
  const start = text.findIndex((l, i) => i > from && l.trim() !== '' && !l.startsWith('the others'));
  const end = text.findIndex((l, i) => i > start && l.trim() === '');
  const token = text[text.findIndex((l) => l.startsWith('New token')) + 2]?.trim() ?? '';
  return { lines: text.slice(start, end), token };
}

describe('cqa token create', () => {
  it('its lines, added at the end of a project.yaml without tokens (as cqa pull writes one), give the project that token', async () => {
    const { lines, token } = await created();
    expect(lines[0]).toBe('tokens:');
    const r = await load({
      'p/project.yaml': `name: P\nlocales:\n  - en\npublic: false\n${lines.join('\n')}\n`,
      'p/posts/a.yaml': 'title: A\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.model.projects[0]?.tokens.map((t) => t.name)).toEqual(['web']);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('without their first line, under a tokens: line that is there already', async () => {
    const { lines } = await created();
    const has = `name: P\npublic: false\ntokens:\n  - name: old\n    sha256: ${'a'.repeat(64)}\n`;
    const r = await load({ 'p/project.yaml': `${has}${lines.slice(1).join('\n')}\n` });
    expect(r.issues).toEqual([]);
    expect(r.model.projects[0]?.tokens.map((t) => t.name)).toEqual(['old', 'web']);
  });
});
