// `cqa types` + `createClient<Types>()`: a consumer project compiled with tsc against the package
// as published (`content-query-api/client` → lib/, compiled by the global setup). It must compile,
// and each of its @ts-expect-error lines (a wrong field, a wrong operator for the field's type, a
// wrong enumeration value, …) must be an error — tsc reports an unused one.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/node/commands/types.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-types-'));
const logs: string[] = [];
let origLog: typeof console.log;

beforeAll(() => {
  origLog = console.log;
  console.log = (...args: unknown[]) => void logs.push(args.join(' '));
});
afterAll(() => {
  console.log = origLog;
  rmSync(work, { recursive: true, force: true });
});

function tsc(dir: string): { status: number; output: string } {
  try {
    const output = execFileSync(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', dir], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: 0, output };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { status: err.status, output: err.stdout };
  }
}

describe('cqa types', () => {
  it('writes types that make the client check field names, operators, values and result shapes', async () => {
    const project = join(work, 'consumer');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    symlinkSync(resolve('.'), join(project, 'node_modules', 'content-query-api'), 'dir');
    expect(await run(['content', '--out', join(project, 'cms-types.ts')])).toBe(0);
    expect(logs.at(-1)).toMatch(/^✓ wrote types of 12 collections to /);
    copyFileSync('test/client/consumer.ts.txt', join(project, 'consumer.ts'));
    copyFileSync('test/client/consumer-elmapi.ts.txt', join(project, 'consumer-elmapi.ts')); // content/travel
    copyFileSync('test/client/consumer-elmapi3.ts.txt', join(project, 'consumer-elmapi3.ts')); // content/shop3
    copyFileSync('docs/examples/typed.ts', join(project, 'typed.ts')); // the recipe of docs/client.md
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          // As many projects compile: an option set to a value that may be undefined (`token:
          // process.env.TOKEN`) is accepted (found from outside: it was a type error there).
          exactOptionalPropertyTypes: true,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: [],
          skipLibCheck: true,
        },
        files: ['consumer.ts', 'consumer-elmapi.ts', 'consumer-elmapi3.ts', 'typed.ts', 'cms-types.ts'],
      }),
    );
    // The usage the file's header shows compiles as it is (the sample has three projects, so it
    // names one: createClient<Types['demo']>()), and createClient<Types>() says to pick one.
    const header = readFileSync(join(project, 'cms-types.ts'), 'utf8');
    const usage = /^\/\/ {3}(const cms = createClient<.*;)$/m.exec(header)?.[1];
    expect(usage).toBe("const cms = createClient<Types['demo']>({ baseUrl, project: 'demo', mode: 'static' });");
    writeFileSync(
      join(project, 'header.ts'),
      `import { createClient } from 'content-query-api/client';\nimport type { Types } from './cms-types.js';\nconst baseUrl = 'https://cdn.example.com';\n${usage}\nexport const titles = async () => (await cms.entries('posts', { fields: ['title'] })).data.map((p) => p.title);\n` +
        "const env: Record<string, string | undefined> = {};\nexport const server = createClient({ baseUrl, project: 'demo', mode: 'server', token: env.TOKEN, fetch: undefined });\n" +
        "const whole = createClient<Types>({ baseUrl, project: 'demo', mode: 'static' });\n// @ts-expect-error: several projects: pick one\nexport const nope = () => whole.entries('posts');\n",
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      readFileSync(join(project, 'tsconfig.json'), 'utf8').replace('"typed.ts",', '"typed.ts","header.ts",'),
    );
    const { status, output } = tsc(project);
    expect(output).toBe('');
    expect(status).toBe(0);
    // …and what the compiler says about createClient<Types>(): what to write instead.
    writeFileSync(
      join(project, 'header.ts'),
      readFileSync(join(project, 'header.ts'), 'utf8').replace('// @ts-expect-error: several projects: pick one\n', ''),
    );
    expect(tsc(project).output).toMatch(
      /header\.ts\(\d+,\d+\): error TS2345: Argument of type '"posts"' is not assignable to parameter of type 'Collection<SeveralProjectsPickOne<"demo" \| /,
    );
    writeFileSync(
      join(project, 'header.ts'),
      `${readFileSync(join(project, 'header.ts'), 'utf8')}\n`.replace(
        'export const nope',
        '// @ts-expect-error: several projects: pick one\nexport const nope',
      ),
    );

    // The harness is not vacuous: a wrong field without @ts-expect-error fails to compile.
    const consumer = readFileSync(join(project, 'consumer.ts'), 'utf8');
    writeFileSync(join(project, 'consumer.ts'), consumer.replace("// @ts-expect-error: no field 'prise'\n", ''));
    const broken = tsc(project);
    expect(broken.status).not.toBe(0);
    expect(broken.output).toMatch(/consumer\.ts\(\d+,\d+\): error TS2353: .*'prise'/);
    writeFileSync(join(project, 'consumer.ts'), consumer);

    // …and in the elmapi consumer, a field that is absent when empty is not `| null`.
    const elmapi = readFileSync(join(project, 'consumer-elmapi.ts'), 'utf8');
    writeFileSync(join(project, 'consumer-elmapi.ts'), elmapi.replace('// @ts-expect-error: absent, never null\n', ''));
    const brokenElmapi = tsc(project);
    expect(brokenElmapi.status).not.toBe(0);
    expect(brokenElmapi.output).toMatch(
      /consumer-elmapi\.ts\(\d+,\d+\): error TS2322: Type 'number \| undefined' is not assignable to type 'number \| null'/,
    );
  }, 60_000);

  it('refuses an --out that is not a TypeScript file, and reports content errors without writing', async () => {
    await expect(run(['content', '--out', join(work, 'types.json')])).rejects.toThrow(/--out must name a TypeScript file/);
    const broken = join(work, 'broken');
    mkdirSync(join(broken, 'p', 'posts'), { recursive: true });
    writeFileSync(join(broken, 'p', 'project.yaml'), 'name: P\n');
    writeFileSync(join(broken, 'p', 'posts', '_collection.yaml'), 'fields:\n  n: number\n');
    writeFileSync(join(broken, 'p', 'posts', 'a.yaml'), 'n: not a number\n');
    const errors: string[] = [];
    const origError = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.join(' '));
    try {
      expect(await run([broken, '--out', join(work, 'out', 'types.ts')])).toBe(1);
    } finally {
      console.error = origError;
    }
    expect(errors.join('\n')).toMatch(/a\.yaml.*\n.*nothing written/);
  });
});
