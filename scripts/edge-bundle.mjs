#!/usr/bin/env node
// The size of a Cloudflare-style worker that imports `content-query-api/edge`, bundled and minified
// with esbuild for a runtime without Node (platform 'neutral', the conditions workerd uses). Used
// by test/edge/bundle.test.ts (budget, no Node imports) and callable from `npm run bench`:
//
//   node scripts/edge-bundle.mjs        # after `npm run build:ts`; prints size against the budget
//
//   import { edgeBundleSize } from './edge-bundle.mjs';
//   const { bytes, budget } = await edgeBundleSize();
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Budget of issue 12: a worker that imports the edge entry, minified. */
// 92 KiB since the third wave (issues 20, 23): the query cost budget, the linear `like` matcher,
// the media sandbox headers, the client's path checks and the elmapi3 dialect's small always-on
// part (its route table is opt-in: elmapi3Routes) measured 90,149 bytes; 81,920 before. 94 KiB
// since issue 21's outside rounds: createHandler refuses an unknown option (naming the closest)
// and what is not a snapshot, and a 404 says when the content has errors: 94,574 bytes. 96 KiB
// since an answer over 64 Mi characters is a 400 naming the limit that fits (answer-size.ts, and
// document-pieces.ts to measure a collection's list before joining it): 95,039 -> 97,168 bytes.
// 97 KiB since createHandler refuses an option value of another kind (`cors: false`, `maxLimit:
// '10'`), saying what to write: 99,142 bytes. 98 KiB since handler.close() answers 503 for an
// override (MSW) that has not answered, rather than leave its request pending for ever: 99,432
// bytes. 99 KiB since `cors` refuses an origin no browser sends, answers say nosniff, and a sort
// makes each json value's text once: 100,507 bytes (101,010 with round two). 100 KiB since a
// preflight allows any header a client adds, an injected failure reaches /api and quotes Prefer as
// sent, a wait left open is no unhandled rejection at close, and group and range fields take
// null/not_null only: 101,387 bytes. 101 KiB since elmapi3's write routes answer 403 as v3 does to
// a read token, `like` on an enumeration is said, and a list held as UTF-8 is measured before it is
// decoded (all found from outside): 102,580 bytes. 102 KiB since createHandler refuses options that
// cannot work together, a query names the field a typo meant, and a group's relations hide drafts
// (all found from outside): 103,786 bytes. 103 KiB since the OpenAPI description is made when first asked
// for (the snapshot's hash covers what it is made of) and a snapshot file that lacks one of its
// descriptions is refused as it loads: 104,309 -> 104,594 bytes. Workers allow 3 MiB: the budget only
// keeps growth deliberate.
export const EDGE_BUDGET = 103 * 1024;

/** The smallest useful worker: the snapshot from a binding, the handler made once. */
export const TINY_WORKER = `
import { createHandler, loadSnapshot } from 'content-query-api/edge';
let handler;
export default {
  fetch(request, env) {
    handler ??= createHandler(loadSnapshot(env.SNAPSHOT));
    return handler(request);
  },
};
`;

// Node's built-in modules as a bundler sees them: `node:x`, or a bare name of one.
const NODE_BUILTIN =
  /^(node:.*|assert|async_hooks|buffer|child_process|cluster|console|constants|crypto|dgram|diagnostics_channel|dns|domain|events|fs|fs\/promises|http|http2|https|inspector|module|net|os|path|path\/posix|perf_hooks|process|punycode|querystring|readline|repl|stream|stream\/web|string_decoder|sys|timers|tls|trace_events|tty|url|util|v8|vm|wasi|worker_threads|zlib)$/;

/**
 * Bundles `source` (a worker module, resolved from the repository root, so `content-query-api/edge`
 * is this package's own export) and reports its minified size, the Node built-ins it tried to
 * import (kept external and listed, not failing the build) and the files it pulled in. `external`:
 * imports left to the runtime (e.g. './snapshot.json', a text module wrangler adds beside it).
 */
export async function bundleWorker(source = TINY_WORKER, { minify = true, external = [] } = {}) {
  const nodeImports = new Set();
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, sourcefile: 'worker.js', loader: 'js' },
    bundle: true,
    write: false,
    minify,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    metafile: true,
    external,
    logLevel: 'silent',
    plugins: [
      {
        name: 'record-node-builtins',
        setup(b) {
          b.onResolve({ filter: NODE_BUILTIN }, (args) => {
            nodeImports.add(`${args.path} (from ${args.importer.replace(ROOT, '')})`);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  const code = result.outputFiles[0].text;
  return {
    code,
    bytes: Buffer.byteLength(code),
    nodeImports: [...nodeImports].sort(),
    inputs: Object.keys(result.metafile.inputs).sort(),
  };
}

/** `{ bytes, budget }` of the tiny worker (plus what else a caller may want to print). */
export async function edgeBundleSize() {
  const { bytes, nodeImports, inputs } = await bundleWorker();
  return { bytes, budget: EDGE_BUDGET, pass: bytes <= EDGE_BUDGET && nodeImports.length === 0, nodeImports, modules: inputs.length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await edgeBundleSize();
  console.log(
    `edge worker bundle: ${(r.bytes / 1024).toFixed(1)} KiB minified (budget ${r.budget / 1024} KiB), ${r.modules} modules${r.nodeImports.length ? `, Node imports: ${r.nodeImports.join(', ')}` : ''}`,
  );
  process.exitCode = r.pass ? 0 : 1;
}
