// The runtime boundary of docs/architecture.md, checked on the sources: src/core/ (model, query
// engine, request core, dialects, descriptions, client) runs on any JavaScript runtime — the edge
// worker, the browser, Node — so it imports nothing of Node's and nothing from src/node/. And no
// import cycle carries a value (a cycle of types only is harmless: it is erased).
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return d.name.endsWith('.ts') && !d.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Import {
  readonly spec: string;
  /** `import type …` / `export type …`: erased, so it binds nothing at run time. */
  readonly typeOnly: boolean;
  /** The source file a relative import names. */
  readonly target?: string;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^;'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => {
    const spec = (m[2] ?? m[3]) as string;
    const typeOnly = m[1] !== undefined;
    if (!spec.startsWith('.')) return { spec, typeOnly };
    return { spec, typeOnly, target: normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts') };
  });
}

const files = sources(SRC);
const imports = new Map(files.map((f) => [f, importsOf(f)]));
const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
// Dependencies (or their entry points) that need Node: native code, Node's file system, a DOM
// emulation; the core may use portable ones (yaml, marked, mrmime).
const NODE_ONLY_PACKAGES = ['sharp', 'turndown', 'turndown-plugin-gfm', 'image-size/fromFile'];

describe('the runtime boundary', () => {
  const core = files.filter((f) => relative(SRC, f).startsWith('core/'));

  it('names Node-only packages that are dependencies (a list that cannot go stale)', () => {
    const { dependencies } = JSON.parse(readFileSync(join(SRC, '../package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const p of NODE_ONLY_PACKAGES) expect(Object.keys(dependencies), p).toContain(p.split('/')[0]);
  });

  it('src/core/ holds the runtime-free core', () => {
    expect(core.length).toBeGreaterThan(80);
    for (const folder of ['model', 'snapshot', 'query', 'http', 'dialects', 'describe', 'client']) {
      expect(
        core.some((f) => relative(SRC, f).startsWith(`core/${folder}/`)),
        folder,
      ).toBe(true);
    }
  });

  it('no file in src/core/ imports a Node module, a Node-only package, or anything outside src/core/', () => {
    const wrong: string[] = [];
    for (const file of core) {
      for (const i of imports.get(file) ?? []) {
        const where = `${relative(SRC, file)} imports ${i.spec}`;
        if (NODE_BUILTINS.has(i.spec)) wrong.push(where);
        else if (NODE_ONLY_PACKAGES.some((p) => i.spec === p || i.spec.startsWith(`${p}/`))) wrong.push(where);
        else if (i.target && !relative(SRC, i.target).startsWith('core/')) wrong.push(where);
      }
    }
    expect(wrong).toEqual([]);
  });

  // Imports are not all: a Node global (Buffer, process, __dirname) needs none. tsc with no Node
  // types finds each one (found from a newcomer: `Buffer.from` in src/core/describe passed every check).
  it('src/core/ type-checks without the types of Node: it uses no Node global', () => {
    const program = ts.createProgram(core, {
      noEmit: true,
      strict: true,
      types: [],
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
    });
    const found = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${relative(SRC, d.file?.fileName ?? '')}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    expect(found).toEqual([]);
    expect(program.getSourceFiles().filter((f) => f.fileName.includes('/@types/node/'))).toEqual([]);
  }, 60_000);

  it('the runtime-free entries (edge, client, MSW in the browser) import only src/core/', () => {
    for (const entry of ['edge.ts', 'msw-browser.ts']) {
      const outside = (imports.get(join(SRC, entry)) ?? []).filter(
        (i) => NODE_BUILTINS.has(i.spec) || (i.target && !relative(SRC, i.target).startsWith('core/')),
      );
      expect(outside, entry).toEqual([]);
    }
  });

  it('no import cycle carries a value', () => {
    const graph = new Map(
      files.map((f) => [f, (imports.get(f) ?? []).filter((i) => !i.typeOnly && i.target).map((i) => i.target as string)]),
    );
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].map((f) => relative(SRC, f)).join(' → '));
        else if (!state.has(next)) visit(next, [...path, next]);
      }
      state.set(file, 'done');
    };
    for (const f of files) if (!state.has(f)) visit(f, [f]);
    expect(cycles).toEqual([]);
  });
});
