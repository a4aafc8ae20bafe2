// Size of `content-query-api/client` in a browser bundle: esbuild, minified, ESM, platform
// browser (a Node import fails the build). Printed by `npm run bench`, asserted by
// test/client/bundle.test.ts against the budget of issue 12.
//
//   node scripts/client-size.mjs   → { "bytes": …, "budget": 69632 }
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

// 68 KiB since the third security round and the DX round (issue 20, 24): the static client runs
// the query engine, so it carries the linear `like` matcher and the cost budget, and the client
// checks path segments and query keys before sending (68,070 bytes then; 60 KiB before).
export const CLIENT_BUDGET = 68 * 1024;
const ENTRY = fileURLToPath(new URL('../src/core/client/index.ts', import.meta.url));

/** The minified bundle of the client: its size, the budget, and the bundle itself. */
export async function clientBundle() {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  return { bytes: Buffer.byteLength(code), budget: CLIENT_BUDGET, code, inputs: Object.keys(result.metafile.inputs) };
}

/** `{ bytes, budget }` for the bench table. */
export async function clientBundleSize() {
  const { bytes, budget } = await clientBundle();
  return { bytes, budget };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await clientBundleSize()));
}
