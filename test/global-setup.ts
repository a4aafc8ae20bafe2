// Runs once before the suites: compiles src/ to lib/, which the tests of the compiled CLI and of
// the worker-thread loader run (tsc emits even when a type error elsewhere is reported).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export default function compile(): void {
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'pipe', timeout: 120_000 });
  } catch {
    /* emitted anyway; checked below */
  }
  if (!existsSync('lib/cli.js')) throw new Error('compiling src/ to lib/ failed: run `npm run build:ts` to see why');
}
