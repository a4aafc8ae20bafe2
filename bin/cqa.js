#!/usr/bin/env node
// Thin launcher: the CLI is compiled from src/ into lib/ by `npm run build:ts` (and by `npm pack`,
// through the prepack script, so a tarball and a git install hold lib/).
// A git checkout that was never built has no lib/: say what to run rather than print a stack trace.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The command's own process: V8's compiled code is kept between runs (Node 22.1+), in the user's
// cache folder, never a shared one: a cold `cqa serve` answers its first request sooner
// (docs/benchmarks.md#what-each-optimisation-buys). NODE_DISABLE_COMPILE_CACHE=1 turns it off.
const cacheHome = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : '');
if (cacheHome && typeof module.enableCompileCache === 'function') {
  try {
    const { directory } = module.enableCompileCache(join(cacheHome, 'cqa', 'compile-cache'));
    // The load process and its threads (src/node/load-path.ts) start from the same cache.
    if (directory) process.env.NODE_COMPILE_CACHE = directory;
  } catch {
    // an unwritable cache folder only costs the speed-up
  }
}

const cli = new URL('../lib/cli.js', import.meta.url);
if (!existsSync(cli)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  console.error(`cqa: ${root}lib/ is missing (not built yet): run \`npm run build:ts\` in ${root}`);
  process.exit(1);
}
const { runCli } = await import(cli.href);
runCli(process.argv.slice(2));
