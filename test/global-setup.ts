// Runs once before the suites: compiles src/ to lib/ and bundles the explorer's browser code into
// it, which the tests of the compiled CLI, of the edge bundle and of the worker-thread loader run.
// Emit only (--noCheck, half the time: docs/development.md#tests): `npm test` type-checks on its
// own, and `npm run build:ts` checks what it publishes. lib/ is emptied first, as `npm run build:ts`
// does, so no file of a deleted source lingers in the package.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { writeBrowserBundles } from '../scripts/build-browser.mjs';

export default async function compile(): Promise<void> {
  rmSync('lib', { recursive: true, force: true });
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--noCheck'], {
      stdio: 'pipe',
      timeout: 120_000,
    });
  } catch {
    /* emitted anyway; checked below */
  }
  if (!existsSync('lib/cli.js')) throw new Error('compiling src/ to lib/ failed: run `npm run build:ts` to see why');
  // The explorer's browser scripts and Swagger UI's files, as `npm run build:ts` writes them.
  await writeBrowserBundles();
}
