// The docs, tested: every ```sh block of README.md and docs/*.md runs (as `npx cqa …` would, with
// the compiled CLI) from a fresh folder holding a copy of the sample content/, and must exit 0 —
// or the code its info string names (```sh exit=2). ```text blocks are shown, not run (servers,
// live URLs). And every relative link points to a file that exists, and to a heading of it.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const PAGES = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const work = mkdtempSync(join(tmpdir(), 'cqa-docs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Block {
  readonly page: string;
  readonly line: number;
  readonly info: string;
  readonly code: string;
}

/** Fenced code blocks (``` only), with the line their fence is on. */
function blocks(page: string): Block[] {
  const found: Block[] = [];
  const lines = readFileSync(page, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    found.push({ page, line: i + 1, info: `${open[1]}${open[2]}`.trim(), code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return found;
}

// `cqa` and `npx cqa` are the compiled CLI of this checkout (lib/, from test/global-setup.ts), and
// `npx <tool>` a tool of its node_modules/.bin — never a download. Programs on PATH rather than
// shell functions, so that `timeout 60 npx cqa …` and `… &` work too.
const shims = join(work, 'bin');
mkdirSync(shims);
const shim = (name: string, body: string) => {
  writeFileSync(join(shims, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(shims, name), 0o755);
};
shim('cqa', `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(resolve('bin/cqa.js'))} "$@"`);
shim(
  'npx',
  `[ "$1" = cqa ] && { shift; exec ${JSON.stringify(join(shims, 'cqa'))} "$@"; }
tool="$1"; shift
[ -x ${JSON.stringify(resolve('node_modules/.bin'))}/"$tool" ] || { echo "npx: $tool is not a dependency of this repository" >&2; exit 127; }
exec ${JSON.stringify(resolve('node_modules/.bin'))}/"$tool" "$@"`,
);

const commands = PAGES.flatMap(blocks).filter((b) => b.info === 'sh' || b.info.startsWith('sh '));

describe('the commands of the docs', () => {
  it('are there', () => {
    expect(commands.length).toBeGreaterThan(5);
  });

  // One folder per page: a page's blocks may build on each other (build, then look at dist/).
  const folders = new Map<string, string>();
  it.each(commands.map((b) => [`${b.page}:${b.line}`, b] as const))('%s runs', (_, block) => {
    let cwd = folders.get(block.page);
    if (!cwd) {
      cwd = mkdtempSync(join(work, 'page-'));
      cpSync('content', join(cwd, 'content'), { recursive: true });
      folders.set(block.page, cwd);
    }
    const expected = Number(/\bexit=(\d+)/.exec(block.info)?.[1] ?? 0);
    const env = { ...process.env, NO_COLOR: '1', PATH: `${shims}:${process.env.PATH}` };
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', block.code], { cwd, encoding: 'utf8', timeout: 30_000, env });
    expect({ status: run.status, stderr: run.stderr }).toMatchObject({ status: expected });
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  for (const [, title] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = title!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('the links of the docs', () => {
  it.each(PAGES)('%s: every relative link and anchor resolves', (page) => {
    // Code blocks and inline code show Markdown, not links (security.md quotes attack links).
    const text = readFileSync(page, 'utf8')
      .replace(/^```[\s\S]*?^```/gm, '')
      .replace(/`[^`\n]*`/g, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue; // https:, mailto:
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const file = path === '' ? page : join(dirname(page), path);
      if (!existsSync(file)) broken.push(`${target}: no file ${file}`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchors(file).has(anchor))
        broken.push(`${target}: no heading #${anchor} in ${file}`);
    }
    expect(broken).toEqual([]);
  });
});
