#!/usr/bin/env node
// Thin launcher: the CLI is compiled from src/ into lib/ by `npm run build:ts` (and by `npm pack`,
// through the prepack script, so a tarball and a git install hold lib/).
// A git checkout that was never built has no lib/: say what to run rather than print a stack trace.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../lib/cli.js', import.meta.url);
if (!existsSync(cli)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  console.error(`cqa: ${root}lib/ is missing (not built yet): run \`npm run build:ts\` in ${root}`);
  process.exit(1);
}
const { runCli } = await import(cli.href);
runCli(process.argv.slice(2));
