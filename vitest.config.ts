// `npm test`: the quick loop (≤ 3 minutes on an idle 2-core machine). The suites in SLOW drive a
// browser, kill processes, start real servers, build large trees, time work at scale, run property
// tests at scale or every docs block: `npm run test:slow` runs them, `npm run test:all` runs
// everything, and CI runs both loops (.ci/run) — nothing is left out of CI. docs/development.md#tests says how to choose.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import fg from 'fast-glob';
import { configDefaults, defineConfig, type Plugin } from 'vitest/config';
import { bundleModule } from './scripts/build-browser.mjs';

export const ALL = ['test/**/*.test.ts', 'docs/examples/*.test.mjs'];

// A slow suite is named *.slow.test.ts (docs/development.md#tests).
export const SLOW = ['test/**/*.slow.test.ts'];

// The explorer's browser scripts, bundled from src/core/http/explorer/browser/ when a test imports
// the sources (src/core/http/explorer/page.ts imports './bundle.js', which only lib/ holds as a
// file): the same esbuild step as `npm run build:ts` (scripts/build-browser.mjs), once per run.
const BUNDLE_ID = '\0cqa-explorer-bundle';
let bundled: Promise<string> | undefined;
export const explorerBundle: Plugin = {
  name: 'cqa-explorer-bundle',
  enforce: 'pre',
  resolveId(id, importer) {
    return id === './bundle.js' && importer?.replace(/\\/g, '/').endsWith('/src/core/http/explorer/page.ts') ? BUNDLE_ID : undefined;
  },
  load(id) {
    if (id !== BUNDLE_ID) return undefined;
    bundled ??= bundleModule();
    return bundled;
  },
};

export const base = {
  globalSetup: ['test/global-setup.ts'],
  setupFiles: ['test/setup.ts'],
  testTimeout: 20_000,
  hookTimeout: 30_000,
};

// Vitest runs one file at a time on 2 cores (all cores but one); the quick loop's files mostly wait
// on the processes and servers they start, so it runs two there (docs/development.md#tests).
const workers = Math.max(2, availableParallelism() - 1);

// The quick loop shares each worker's module graph between files (no re-import per file:
// docs/development.md#tests). A file that replaces modules, globals or the environment runs alone,
// in a thread (Vitest sets isolation per pool, not per project); spies are restored after each file
// by test/setup.ts.
const CHANGES_GLOBALS =
  /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(|process\.env\.\w+\s*=[^=]|delete process\.env|Object\.assign\(process\.env|globalThis\.\w+\s*=[^=]/;
const quick = fg.sync(ALL, { ignore: [...configDefaults.exclude, ...SLOW] });
const isolated = quick.filter((file) => CHANGES_GLOBALS.test(readFileSync(file, 'utf8')));

export default defineConfig({
  plugins: [explorerBundle],
  test: {
    ...base,
    maxWorkers: workers,
    minWorkers: 1,
    poolOptions: { forks: { isolate: false } },
    // Property tests run a fifth of their cases here, all of them in test:all (test/property-runs.ts).
    provide: { propertyShare: 0.2 },
    projects: [
      { extends: true, test: { name: 'isolated', include: isolated, pool: 'threads' } },
      { extends: true, test: { name: 'shared', include: quick, exclude: isolated } },
    ],
  },
});
