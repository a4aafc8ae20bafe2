// Size of `content-query-api/client` in a browser bundle: esbuild, minified, ESM, platform
// browser (a Node import fails the build). Printed by `npm run bench`, asserted by
// test/client/bundle.test.ts against the budget of issue 12.
//
//   node scripts/client-size.mjs   → { "bytes": …, "budget": 71680 }
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

// 70 KiB since the third wave (issues 20, 23, 24): the static client runs the query engine, so it
// carries the linear `like` matcher and the cost budget; the client checks path segments and query
// keys before sending, and speaks the elmapi3 dialect (69,688 bytes then; 60 KiB before).
// 68,554 bytes once the static tree's reader took the cqa dialect alone, not the server's others.
// 71 KiB since a sort makes each json value's text once and skips a long common start of two
// texts (a first sort of large values held a server for seconds): 71,617 -> 71,813 bytes.
// 72 KiB since elmapi3's `paginate`/`page` and `state: 'draft'` (found from outside: an SDK
// user could not page entries through the typed client): 72,645 -> 72,930 bytes.
// 72.25 KiB since the static client answers a request target past 8 KiB with the server's 414
// (found from outside: it answered with a 200): 73,700 -> 73,932 bytes.
export const CLIENT_BUDGET = 72.25 * 1024;
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
