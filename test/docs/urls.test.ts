// The docs' URLs, asked: every curl line of the docs aimed at `cqa serve` (http://127.0.0.1:4000)
// and every example path of http-api.md (a line of a code block starting with /api/) is sent to a
// server of the sample content, as written — with the line's headers — and must answer 2xx, or
// the status the line names (`Prefer: status=503`, `→ 400`). A line holding a placeholder
// (`<project>`, `…`) is shown, not run.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/node/server/start.js';

const PAGES = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

interface Example {
  readonly where: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly expected: number | null; // null: any 2xx
}

/** The lines of a page's code blocks, a `\` continuation joined to its line. */
function codeLines(page: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const lines = readFileSync(page, 'utf8').split('\n');
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trimStart().startsWith('```')) {
      inBlock = !inBlock;
      continue;
    }
    if (!inBlock) continue;
    const start = i;
    let text = lines[i]!;
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1)} ${lines[++i]!.trim()}`;
    out.push({ line: start + 1, text });
  }
  return out;
}

/** The examples of the docs: curl lines to 127.0.0.1:4000, and http-api.md's bare /api/ paths. */
function examples(): Example[] {
  const found: Example[] = [];
  for (const page of PAGES)
    for (const { line, text } of codeLines(page)) {
      const where = `${page}:${line}`;
      const status = /→ (\d{3})\b/.exec(text)?.[1];
      const curl = /(?:^|\s)curl\s(.*)$/.exec(text);
      if (curl) {
        const url = /'?http:\/\/127\.0\.0\.1:4000(\/[^'\s]*)'?/.exec(curl[1]!)?.[1];
        if (!url || /[<…]/.test(url)) continue;
        const headers: Record<string, string> = {};
        for (const m of curl[1]!.matchAll(/-H (?:'([^']*)'|"([^"]*)")/g)) {
          const h = m[1] ?? m[2]!;
          const colon = h.indexOf(':');
          headers[h.slice(0, colon).trim().toLowerCase()] = h
            .slice(colon + 1)
            .trim()
            .replace('$CQA_TOKEN', 'demo-token');
        }
        const prefer = /status=(\d{3})/.exec(headers.prefer ?? '')?.[1];
        found.push({ where, path: url, headers, expected: Number(prefer ?? status) || null });
      } else if (page === 'docs/http-api.md' && /^\/api\/\S+$/.test(text.trim()) && !/[<…]/.test(text)) {
        // Shown without headers: asked as a client of the demo project would.
        found.push({
          where,
          path: text.trim(),
          headers: { accept: 'application/json', authorization: 'Bearer demo-token' },
          expected: Number(status) || null,
        });
      }
    }
  return found;
}

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ content: 'content', journal: 0 });
});
afterAll(() => server?.close());

describe('the URLs of the docs', () => {
  const all = examples();
  it('are found (http-api.md has both kinds)', () => {
    expect(all.filter((e) => e.where.startsWith('docs/http-api.md')).length).toBeGreaterThanOrEqual(7);
  });

  it.each(all.map((e) => [`${e.where} ${e.path}`, e] as const))('%s answers as the docs say', async (_, e) => {
    const res = await fetch(`${server.url}${e.path}`, { headers: e.headers });
    const body = await res.text();
    if (e.expected === null)
      expect({ status: res.status < 300 ? 'ok' : res.status, body: res.status < 300 ? '' : body }).toEqual({ status: 'ok', body: '' });
    else expect(res.status).toBe(e.expected);
  });
});
