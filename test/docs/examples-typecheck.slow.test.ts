// The docs' code, compiled as a consumer's strict TypeScript project would compile it, against
// the package as published (lib/, compiled by the global setup): every ```ts block of library.md,
// edge.md and client.md, and the example files the docs show (docs/examples/*.test.mjs) as the
// .ts a TypeScript user makes of them — each `let x;` given the type of what is assigned to it,
// nothing else. The journal examples read `record.response` with no `!` (JournaledRequest).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const work = mkdtempSync(join(tmpdir(), 'cqa-docs-ts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function tsc(dir: string, config: string): { status: number; output: string } {
  try {
    const output = execFileSync(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', join(dir, config)], {
      encoding: 'utf8',
      timeout: 90_000,
    });
    return { status: 0, output };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { status: err.status, output: err.stdout };
  }
}

/** The ```ts blocks of a page, with the line of their fence. */
function tsBlocks(page: string): { line: number; code: string }[] {
  const lines = readFileSync(page, 'utf8').split('\n');
  const found: { line: number; code: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const end = lines.indexOf('```', i + 1);
    found.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return found;
}

/** An example .mjs as TypeScript: `let x;` typed by what the file assigns to it (`x = await f(…)`). */
function asTypeScript(js: string): string {
  return js.replace(/^let (\w+);/gm, (line, name: string) => {
    const assigned = new RegExp(`^\\s*${name} = (await )?(\\w+)\\(`, 'm').exec(js);
    if (!assigned) return line;
    const type = `ReturnType<typeof ${assigned[2]}>`;
    return `let ${name}: ${assigned[1] ? `Awaited<${type}>` : type};`;
  });
}

const EXAMPLES = [
  'fixtures.test.mjs',
  'msw.test.mjs',
  'contract.test.mjs',
  'contract-failures.test.mjs',
  'elmapi-contract.test.mjs',
  'elmapi3-contract.test.mjs',
];

describe('the docs, as strict TypeScript', () => {
  it('compile: the ts blocks of library.md, edge.md and client.md, and the example tests', () => {
    const project = join(work, 'consumer');
    mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
    symlinkSync(resolve('.'), join(project, 'node_modules', 'content-query-api'), 'dir');
    for (const dep of ['vitest', 'msw', '@types/node'])
      symlinkSync(resolve('node_modules', dep), join(project, 'node_modules', dep), 'dir');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    // client.md's typed example imports the generated types; an empty Types would not do.
    execFileSync(process.execPath, ['bin/cqa.js', 'types', 'content', '--out', join(project, 'cms-types.ts')], { stdio: 'pipe' });
    const files: string[] = [];
    for (const page of ['docs/library.md', 'docs/edge.md', 'docs/client.md'])
      for (const b of tsBlocks(page)) {
        const name = `${page.replace(/\W/g, '_')}_${b.line}.ts`;
        // Each block a module of its own (an import-less block would share a global scope).
        writeFileSync(join(project, name), `${b.code}\nexport {};\n`);
        files.push(name);
      }
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const example of EXAMPLES) {
      const name = example.replace(/\.mjs$/, '.ts');
      writeFileSync(join(project, name), asTypeScript(readFileSync(join('docs/examples', example), 'utf8')));
      files.push(name);
    }
    const options = { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true };
    // The .ts blocks are TypeScript as written; the .mjs examples' callbacks have no annotations.
    const tsFiles = files.filter((f) => f.startsWith('docs_'));
    writeFileSync(
      join(project, 'tsconfig.blocks.json'),
      JSON.stringify({ compilerOptions: { ...options, types: ['node'] }, files: [...tsFiles, 'cms-types.ts'] }),
    );
    writeFileSync(
      join(project, 'tsconfig.examples.json'),
      JSON.stringify({
        compilerOptions: { ...options, noImplicitAny: false, types: ['node'] },
        files: files.filter((f) => !tsFiles.includes(f)),
      }),
    );
    const blocks = tsc(project, 'tsconfig.blocks.json');
    const examples = tsc(project, 'tsconfig.examples.json');
    expect({ blocks: blocks.output, examples: examples.output }).toEqual({ blocks: '', examples: '' });
    expect([blocks.status, examples.status]).toEqual([0, 0]);

    // Not vacuous: a journal record read as a whole-JSON answer is a type error (body may be null).
    writeFileSync(
      join(project, 'fixtures.test.ts'),
      `${readFileSync(join(project, 'fixtures.test.ts'), 'utf8')}\nexport const b: string = (await api.requests())[0]!.response.body;\n`,
    );
    expect(tsc(project, 'tsconfig.examples.json').output).toMatch(/fixtures\.test\.ts\(\d+,\d+\): error TS2322: Type 'string \| null'/);
  }, 120_000);
});
