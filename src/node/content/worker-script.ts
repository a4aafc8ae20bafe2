// The script a worker thread or child process runs. From the compiled package: the `.js` beside the
// caller. From the TypeScript sources (vitest): its compiled copy in lib/, which test/global-setup.ts
// compiles before the suites — a worker cannot run TypeScript on every supported Node, and falling
// back to the calling thread would leave the off-thread path untested (docs/architecture.md).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `name` ('./parse-worker.js') resolved against `from` (the caller's import.meta.url). */
export function workerScript(name: string, from: string): URL {
  const url = new URL(name, from);
  if (!from.endsWith('.ts')) return url;
  const path = url.pathname;
  const at = path.lastIndexOf('/src/');
  const compiled = new URL(`${path.slice(0, at)}/lib/${path.slice(at + '/src/'.length)}`, url);
  if (!existsSync(fileURLToPath(compiled))) {
    throw new Error(`${fileURLToPath(compiled)} is missing: run \`npm run build:ts\` (the sources start their workers from lib/)`);
  }
  return compiled;
}
