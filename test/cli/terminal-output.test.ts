// Issue 20, item 13: names and values from content files reach the terminal escaped. A file named
// with `ESC ] 0 ; pwned BEL` (sets the window title), a YAML key with `ESC [ 2 J` (clears the
// screen), a C1 CSI and a bidi override must print as visible \u escapes in `cqa check`, in
// `cqa serve`'s content errors and in `serve --watch` reports, and the file must still be named.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/node/server/start.js';
import { printable, printableJson, printableLines } from '../../src/node/printable.js';

const TITLE_FILE = '\x1b]0;pwned\x07.md';
const BIDI_FILE = 'evil\u202Egnp.md';
const roots: string[] = [];
afterAll(() =>
  roots.forEach((r) => {
    rmSync(r, { recursive: true, force: true });
  }),
);

/** A project whose posts have a hostile file name, hostile keys and a hostile value. */
function hostileTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'cqa-terminal-'));
  roots.push(root);
  mkdirSync(join(root, 'demo', 'posts'), { recursive: true });
  writeFileSync(join(root, 'demo', 'project.yaml'), 'locales: [en]\npublic: true\n');
  writeFileSync(join(root, 'demo', 'posts', '_collection.yaml'), 'fields:\n  title: { type: text, required: true }\n  price: number\n');
  writeFileSync(join(root, 'demo', 'posts', TITLE_FILE), '---\ntitle: A\n---\n');
  writeFileSync(join(root, 'demo', 'posts', BIDI_FILE), '---\ntitle: B\n---\n');
  writeFileSync(
    join(root, 'demo', 'posts', 'keys.md'),
    '---\ntitle: K\n"\\e[2J": 1\n"\\u009b31m": 2\nprice: "\\e]52;c;cHduZWQ=\\a"\n---\n',
  );
  writeFileSync(join(root, 'demo', 'posts', 'raw.md'), '---\ntitle: R\n\x1b[2J: 1\n---\n');
  return root;
}

/** Runs the compiled CLI; its stdout and stderr, as bytes read as Latin-1 so that no byte is hidden. */
function cqa(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/cqa.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: Buffer.concat(chunks).toString('utf8') }));
  });
}

/** What must not reach a terminal: C0 other than newline and tab, DEL, C1, bidi controls. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function expectSafeAndNamed(out: string): void {
  expect(out).not.toMatch(CONTROL);
  expect(out).toContain('demo/posts/\\u001b]0;pwned\\u0007.md');
  expect(out).toContain('demo/posts/evil\\u202egnp.md');
  expect(out).toContain('\\u001b[2J');
}

describe('terminal output of content-derived text', () => {
  it('cqa check escapes control characters in file names, keys and values', async () => {
    const { code, out } = await cqa(['check', hostileTree()]);
    expect(code).toBe(1);
    expectSafeAndNamed(out);
    expect(out).toContain('\\u009b31m');
  }, 40_000);

  it('cqa serve prints its content errors escaped', async () => {
    const { code, out } = await cqa(['serve', hostileTree(), '--port', '0', '--host', '127.0.0.1']);
    expect(code).not.toBe(0);
    expectSafeAndNamed(out);
  }, 40_000);

  it('serve --watch reports a broken file escaped', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cqa-terminal-'));
    roots.push(root);
    mkdirSync(join(root, 'demo', 'posts'), { recursive: true });
    writeFileSync(join(root, 'demo', 'project.yaml'), 'locales: [en]\npublic: true\n');
    writeFileSync(join(root, 'demo', 'posts', '_collection.yaml'), 'fields:\n  title: { type: text, required: true }\n');
    writeFileSync(join(root, 'demo', 'posts', 'ok.md'), '---\ntitle: ok\n---\n');
    const lines: string[] = [];
    const server = await startServer({ content: root, watch: true, host: '127.0.0.1', port: 0, log: (l) => lines.push(l) });
    try {
      writeFileSync(join(root, 'demo', 'posts', TITLE_FILE), '---\n"\\e[2J": 1\n---\n');
      const deadline = Date.now() + 15_000;
      while (!lines.some((l) => l.includes('still serving the last good snapshot')) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const report = lines.join('\n');
      expect(report).toContain('still serving the last good snapshot');
      expect(report).not.toMatch(CONTROL);
      expect(report).toContain('demo/posts/\\u001b]0;pwned\\u0007.md');
      expect(report).toContain('\\u001b[2J');
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe('printable()', () => {
  it('shows every C0, DEL, C1 and bidi control as a \\u escape and keeps other text', () => {
    for (let c = 0; c < 0xa0; c++) {
      if (c >= 0x20 && c < 0x7f) continue;
      expect(printable(`a${String.fromCharCode(c)}b`)).toBe(`a\\u${c.toString(16).padStart(4, '0')}b`);
    }
    for (const c of ['\u061c', '\u200e', '\u200f', '\u2028', '\u2029', '\u202a', '\u202e', '\u2066', '\u2069'])
      expect(printable(c)).toMatch(/^\\u[0-9a-f]{4}$/);
    // What no reader can see or tell from a space: zero-width characters, a BOM, other spaces.
    for (const c of ['\u00a0', '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\u202f', '\u3000', '\ufeff', '\u2009'])
      expect(printable(`count${c}`)).toBe(`count\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(printable('café 😀 日本 "quoted" \\ path/x.md')).toBe('café 😀 日本 "quoted" \\ path/x.md');
    expect(printableLines('a\n\tb\x1b')).toBe('a\n\tb\\u001b');
  });

  it('printableJson gives the same JSON value with no control or bidi character in it', () => {
    const value = { url: '/a\x1b[2J\u009b\u202e', n: 1 };
    const text = printableJson(value);
    expect(text).not.toMatch(CONTROL);
    expect(JSON.parse(text)).toEqual(value);
  });
});
