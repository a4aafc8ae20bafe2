// The package as a consumer gets it: what `npm pack` puts in the tarball, the launcher of a checkout
// that was never built, and the public types of the runtime-free entries compiled without
// @types/node (a Workers or browser project has none). lib/ is compiled by test/global-setup.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const work = mkdtempSync(join(tmpdir(), 'cqa-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm pack', () => {
  it('ships lib, bin, the CommonJS types of msw, LICENSE and package.json, and no tests, sources, source maps or content', () => {
    // --ignore-scripts: `prepack` would rebuild lib/ under the other suites' feet.
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      encoding: 'utf8',
      timeout: 60_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'bin/cqa.js',
        'lib/index.js',
        'lib/index.d.ts',
        'lib/edge.js',
        'lib/core/client/index.js',
        'lib/cli.js',
        'lib/msw.js',
        'lib/msw.d.ts',
        'lib/msw-browser.js',
        'lib/core/http/msw-handlers.js',
      ]),
    );
    const outside = files.filter((f) => !f.startsWith('lib/'));
    // types/msw.d.cts: content-query-api/msw's types for a CommonJS project.
    expect(outside.sort()).toEqual(['LICENSE', 'README.md', 'bin/cqa.js', 'package.json', 'types/msw.d.cts']);
    expect(files.filter((f) => f.endsWith('.map') || (f.endsWith('.ts') && !f.endsWith('.d.ts')))).toEqual([]);
  });

  it('names its repository and license, and lets tools read package.json through exports', async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as Record<string, unknown> & {
      exports: Record<string, unknown>;
    };
    expect(pkg.license).toBe('MIT');
    expect(pkg).toMatchObject({
      repository: { url: expect.stringContaining('github.com/') },
      homepage: expect.any(String),
      bugs: { url: expect.any(String) },
    });
    expect(pkg.exports['./package.json']).toBe('./package.json');
  });

  it('exports content-query-api/msw (types too, for node10 resolution) with msw as an optional peer dependency', async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as Record<string, unknown> & {
      exports: Record<string, unknown>;
    };
    expect(pkg.exports['./msw']).toEqual({
      types: { import: './lib/msw.d.ts', require: './types/msw.d.cts' },
      browser: './lib/msw-browser.js',
      default: './lib/msw.js',
    });
    expect(pkg).toMatchObject({
      typesVersions: { '*': { msw: ['./lib/msw.d.ts'] } },
      peerDependencies: { msw: expect.stringMatching(/^\^2\./) },
      peerDependenciesMeta: { msw: { optional: true } },
    });
    // Through a variable: tsc checks this file before lib/ is built (a fresh clone has no lib/msw.d.ts).
    const entry = 'content-query-api/msw';
    const { createMswHandlers } = (await import(entry)) as typeof import('../../src/msw.js');
    expect(typeof createMswHandlers).toBe('function');
  });
});

describe('require()', () => {
  // Node 20.19+ can require() an ES module graph without a top-level await (richtext.ts loads
  // marked lazily without one): a CommonJS project can use the package.
  it.runIf((process.features as { require_module?: boolean }).require_module)('gives the library to a CommonJS project', () => {
    const r = spawnSync(process.execPath, ['-e', "console.log(typeof require('./lib/index.js').startServer)"], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('function');
  });
});

describe('bin/cqa.js', () => {
  it('says in one line how to build lib/ when it is missing, exit 1', () => {
    const checkout = join(work, 'unbuilt');
    mkdirSync(join(checkout, 'bin'), { recursive: true });
    cpSync('bin/cqa.js', join(checkout, 'bin/cqa.js'));
    writeFileSync(join(checkout, 'package.json'), JSON.stringify({ type: 'module' }));
    const run = spawnSync(process.execPath, [join(checkout, 'bin/cqa.js'), 'check'], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^cqa: .*lib\/ is missing \(not built yet\): run `npm run build:ts` in .*\n$/);
    expect(run.stderr.split('\n')).toHaveLength(2);
  });
});

/**
 * A consumer project of the package's declarations (no .js, no @types/node anywhere above it) with
 * `file` as its one source, checked by tsc: what tsc printed and its exit status.
 */
function compileConsumer(
  name: string,
  consumer: { type: 'module' | 'commonjs'; file: string; source: string; compilerOptions: Record<string, unknown>; links?: string[] },
): { stdout: string; status: number | null } {
  const project = join(work, name);
  const pkg = join(project, 'node_modules', 'content-query-api');
  mkdirSync(pkg, { recursive: true });
  for (const dir of ['lib', 'types']) cpSync(dir, join(pkg, dir), { recursive: true, filter: (src) => !src.endsWith('.js') });
  cpSync('package.json', join(pkg, 'package.json'));
  for (const dep of consumer.links ?? []) symlinkSync(resolve('node_modules', dep), join(project, 'node_modules', dep));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: consumer.type }));
  writeFileSync(join(project, consumer.file), consumer.source);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', ...consumer.compilerOptions },
      files: [consumer.file],
    }),
  );
  return spawnSync(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8', timeout: 60_000 });
}

describe('public types', () => {
  // nodenext reads package.json "exports"; node10 (`moduleResolution: "node"`, still common) does not,
  // and finds the subpaths through "typesVersions".
  it.each(['nodenext', 'node10'])(
    'of content-query-api/edge and /client compile without @types/node, lib checks on (moduleResolution %s)',
    (resolution) => {
      const tsc = compileConsumer(`consumer-${resolution}`, {
        type: 'module',
        file: 'worker.ts',
        source: `import { createHandler, loadSnapshot, type FetchHandler, type HandlerOptions, type Snapshot } from 'content-query-api/edge';
import { createClient, ClientError } from 'content-query-api/client';

const options: HandlerOptions = { cors: '*' };
export function handler(text: string): FetchHandler {
  const snapshot: Snapshot = loadSnapshot(text);
  return createHandler(snapshot, options);
}
export const client = createClient({ baseUrl: 'http://127.0.0.1:4000', project: 'demo', mode: 'server' });
export const isClientError = (e: unknown) => e instanceof ClientError;
`,
        compilerOptions: {
          module: resolution === 'node10' ? 'es2022' : 'nodenext',
          moduleResolution: resolution,
          lib: ['es2022', 'dom', 'dom.iterable'],
          types: [],
          skipLibCheck: false,
        },
      });
      expect(tsc.stdout).toBe('');
      expect(tsc.status).toBe(0);
    },
  );
});

describe('the main entry in a CommonJS TypeScript project without esModuleInterop', () => {
  // A declaration file that default-imports a Node module (`import zlib from 'node:zlib'`) gave
  // TS1192 there, with lib checks on (found from outside).
  it('compiles with moduleResolution node, skipLibCheck off', () => {
    const tsc = compileConsumer('consumer-cjs-main', {
      type: 'commonjs',
      file: 'imp.ts',
      source: `import { buildSnapshot, startServer } from 'content-query-api';
export const start = () => startServer({ content: 'content' });
export const build = () => buildSnapshot({ content: 'content' });
`,
      compilerOptions: {
        module: 'commonjs',
        moduleResolution: 'node',
        typeRoots: [resolve('node_modules/@types')],
        types: ['node'],
        skipLibCheck: false,
      },
    });
    expect(tsc.stdout).toBe('');
    expect(tsc.status).toBe(0);
  });
});

describe('content-query-api/msw in a CommonJS TypeScript project', () => {
  // There `msw/node` gives msw's CommonJS declarations: the handlers must be typed with those, not
  // with the ES ones lib/msw.d.ts names (found from outside: setupServer(...api.handlers) did not compile).
  it('setupServer(...api.handlers) compiles (module nodenext, "type": "commonjs")', () => {
    const tsc = compileConsumer('consumer-cjs-msw', {
      type: 'commonjs',
      file: 'test.ts',
      source: `import { setupServer } from 'msw/node';
import { createMswHandlers, type MockApi, type MswOptions } from 'content-query-api/msw';

const options: MswOptions = { content: 'content', origin: 'http://api.test' };
export async function start(): Promise<MockApi> {
  const api = await createMswHandlers(options);
  setupServer(...api.handlers).listen();
  return api;
}
`,
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: true },
      links: ['msw'],
    });
    expect(tsc.stdout).toBe('');
    expect(tsc.status).toBe(0);
  });
});

describe('installing the tarball (issue 24)', () => {
  const app = join(work, 'app');
  let install: ReturnType<typeof spawnSync>;
  beforeAll(() => {
    const packed = join(work, 'packed');
    mkdirSync(packed);
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', packed], {
      encoding: 'utf8',
      timeout: 60_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(packed, 'content-query-api-0.1.0.tgz')], {
      cwd: app,
      encoding: 'utf8',
      timeout: 180_000,
    });
  }, 240_000);

  // A consumer's `npm install ./content-query-api-x.tgz`: no warning about a script npm will not
  // run (`prepare` used to compile lib/; `prepack` does now, before the tarball is made), and both
  // names run the CLI: `cqa` in a project, `content-query-api` for `npx content-query-api` anywhere.
  it('warns about no install script; npx cqa and npx content-query-api both run the CLI', async () => {
    expect(install.status, String(install.stderr)).toBe(0);
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/install-scripts|prepare/);
    const version = (await import('../../package.json', { with: { type: 'json' } })).default.version;
    for (const bin of ['cqa', 'content-query-api']) {
      const run = spawnSync('npx', ['--no', '--', bin, '--version'], { cwd: app, encoding: 'utf8', timeout: 60_000 });
      expect(run.stdout.trim(), `npx ${bin}`).toBe(version);
    }
  }, 120_000);

  // A test runner's module sandbox (vitest's vm pools; Jest's ES modules work the same way) has a
  // require() of its own that loads no ES module: marked, which renders richtext, could not be
  // loaded from the installed package, and the sample failed to load. The library imports it then.
  it('startServer() loads the sample, richtext included, in vitest with --pool vmThreads', () => {
    writeFileSync(
      join(app, 'sandbox.test.js'),
      `import { startServer } from 'content-query-api';
it('serves a richtext field', async () => {
  const server = await startServer({ content: ${JSON.stringify(resolve('content'))} });
  try {
    const res = await fetch(server.url + '/api/demo/pages?limit=1', { headers: { authorization: 'Bearer demo-token' } });
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('<p>');
  } finally {
    await server.close();
  }
});
`,
    );
    writeFileSync(join(app, 'vitest.config.js'), 'export default {};\n');
    const vitest = resolve('node_modules/vitest/vitest.mjs');
    const run = spawnSync(process.execPath, [vitest, 'run', '--pool', 'vmThreads', '--globals', '--root', app], {
      cwd: app,
      encoding: 'utf8',
      timeout: 60_000,
      // Not this run's VITEST_* variables: the inner vitest would take itself for one of its workers.
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST'))), NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    expect(run.stdout + run.stderr).toMatch(/Tests\s+1 passed/);
    expect(run.status).toBe(0);
  }, 70_000);
});
