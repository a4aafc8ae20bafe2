import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import matter from 'gray-matter';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AUTHOR_COUNT,
  CATEGORIES,
  MEDIA,
  TAGS,
  exportJsonServerDb,
  generateContent,
  generateItems,
} from '../../scripts/generate-content.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'cqa-generate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function tree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return files;
}
const yaml = (s: string) => parse(s) as Record<string, unknown>;

describe('scripts/generate-content.mjs', () => {
  const N = 300;
  const a = generateContent({ entries: N, out: join(tmp, 'a'), seed: 42 });
  const b = generateContent({ entries: N, out: join(tmp, 'b'), seed: 42 });
  const c = generateContent({ entries: N, out: join(tmp, 'c'), seed: 43 });

  it('gives byte-identical trees for the same seed, and a different tree for another seed', () => {
    const ta = tree(a.root),
      tb = tree(b.root),
      tc = tree(c.root);
    expect([...ta.keys()]).toEqual([...tb.keys()]);
    for (const [path, bytes] of ta) expect(bytes.equals(tb.get(path)!), path).toBe(true);
    const changed = [...ta].filter(([path, bytes]) => !tc.get(path)?.equals(bytes));
    expect(changed.length).toBeGreaterThan(N / 2);
  });

  it('writes N items, the authors, the media and a project with the bench token', () => {
    const items = readdirSync(join(a.project, 'items')).filter((f) => !f.startsWith('_'));
    expect(items).toHaveLength(N);
    expect(items.some((f) => f.endsWith('.md')) && items.some((f) => f.endsWith('.yaml'))).toBe(true);
    expect(readdirSync(join(a.project, 'authors')).filter((f) => !f.startsWith('_'))).toHaveLength(AUTHOR_COUNT);
    for (const m of MEDIA) expect(statSync(join(a.project, 'media', m)).size).toBeGreaterThan(50);
    const project = yaml(readFileSync(join(a.project, 'project.yaml'), 'utf8'));
    expect(project).toMatchObject({ id: 'bench', tokens: [{ token: 'bench-token', scopes: ['read', 'drafts'] }] });
    expect(a.drafts).toBeGreaterThan(0);
    expect(a.drafts).toBeLessThan(N * 0.06);
  });

  it('writes entries that parse as YAML 1.2 / front matter with the declared field types', () => {
    const dir = join(a.project, 'items');
    const files = readdirSync(dir).filter((f) => !f.startsWith('_'));
    const authors = new Set(readdirSync(join(a.project, 'authors')).map((f) => f.replace(/\.yaml$/, '')));
    let bytes = 0;
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      bytes += text.length;
      const data = file.endsWith('.md')
        ? { ...(matter(text, { engines: { yaml: (s: string) => yaml(s) as object } }).data as Record<string, unknown>), body: 'x' }
        : yaml(text);
      expect(typeof data.title).toBe('string');
      expect(typeof data.price).toBe('number');
      expect(Number.isInteger(data.stock)).toBe(true);
      expect(data.in_stock).toBe((data.stock as number) > 0);
      expect(CATEGORIES).toContain(data.category);
      for (const t of data.tags as string[]) expect(TAGS).toContain(t);
      expect(data.published).toMatch(/^\d{4}-\d\d-\d\d$/); // stays a string under YAML 1.2
      expect(data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(authors.has(data.author as string)).toBe(true);
      expect(MEDIA).toContain(data.cover);
      expect(typeof data.body).toBe('string');
    }
    expect(bytes / files.length).toBeGreaterThan(700); // ~1 KiB entries
  });

  it('honours --format md and yaml', () => {
    const md = generateContent({ entries: 20, out: join(tmp, 'md'), format: 'md' });
    const ym = generateContent({ entries: 20, out: join(tmp, 'yaml'), format: 'yaml' });
    expect(readdirSync(join(md.project, 'items')).filter((f) => f.endsWith('.md'))).toHaveLength(20);
    expect(readdirSync(join(ym.project, 'items')).filter((f) => f.endsWith('.yaml') && !f.startsWith('_'))).toHaveLength(20);
  });

  it('exports the same published items as a json-server db.json', () => {
    const fromDir = exportJsonServerDb(a.root);
    const fromParams = exportJsonServerDb({ entries: N, seed: 42 });
    expect(fromDir).toEqual(fromParams);
    expect(fromDir.items).toHaveLength(N - a.drafts);
    expect(fromDir.items[0]).not.toHaveProperty('draft');
    const file = join(tmp, 'db.json');
    expect(exportJsonServerDb(a.root, file)).toEqual({ items: N - a.drafts, file });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(fromDir);
    const first = [...generateItems({ entries: N, seed: 42 })].find((i) => !i.draft)!;
    const { draft: _d, ...flat } = first;
    expect(fromDir.items[0]).toEqual(flat);
  });
});
