// Runs once before the suites: compiles src/ to lib/, which the tests of the compiled CLI and of
// the worker-thread loader run (tsc emits even when a type error elsewhere is reported). lib/ is
// emptied first, as `npm run build:ts` does, so no file of a deleted source lingers in the package.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';

export default function compile(): void {
  rmSync('lib', { recursive: true, force: true });
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'pipe', timeout: 120_000 });
  } catch {
    /* emitted anyway; checked below */
  }
  if (!existsSync('lib/cli.js')) throw new Error('compiling src/ to lib/ failed: run `npm run build:ts` to see why');
}
