// `npm test` shares each worker's modules between test files (vitest.config.ts), so a helper module
// is evaluated once per worker: a hook it registers at load would run for the first file only, and
// the temp folders of every later file would be left behind. Helpers export functions; each test
// file (or test/setup.ts, which runs before every file) registers the hooks.
import { readFileSync } from 'node:fs';
import fg from 'fast-glob';
import { expect, it } from 'vitest';

it('no helper module under test/ registers a vitest hook when it is imported', () => {
  const helpers = fg.sync(['test/**/*.ts', 'docs/examples/**/*.mjs'], { ignore: ['**/*.test.ts', '**/*.test.mjs', 'test/setup.ts'] });
  expect(helpers.length).toBeGreaterThan(10);
  const offenders = helpers.filter((file) => /^(afterAll|afterEach|beforeAll|beforeEach)\(/m.test(readFileSync(file, 'utf8')));
  expect(offenders).toEqual([]);
});

it('no test calls process.chdir: threads refuse it, and files that share a worker would inherit the folder', () => {
  const files = fg.sync(['test/**/*.ts', 'docs/examples/**/*.mjs'], { ignore: ['test/architecture/test-helpers.test.ts'] });
  expect(files.filter((file) => readFileSync(file, 'utf8').includes('process.chdir('))).toEqual([]);
});
