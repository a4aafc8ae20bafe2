#!/usr/bin/env node
// The explorer's browser code, bundled (docs/development.md#the-explorers-browser-code): the
// TypeScript of src/core/http/explorer/browser/ (checked by `npm test`'s tsc with the DOM lib)
// becomes two minified scripts, kept as strings in lib/core/http/explorer/bundle.js, which the
// pages inline and allow by their hash. Swagger UI's two files (a devDependency) are copied to
// lib/vendor/swagger-ui/ with their licence, for the API reference page. Runs after tsc in
// `npm run build:ts` (so in `prepack`) and in test/global-setup.ts; vitest.config.ts bundles the
// same sources when a test imports them.
//
//   node scripts/build-browser.mjs          # after tsc -p tsconfig.build.json; writes into lib/
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BROWSER = join(ROOT, 'src/core/http/explorer/browser');

/** The entries: the export name of each bundled script in bundle.js. */
const ENTRIES = { EXPLORER_SCRIPT: 'main.ts', REFERENCE_SCRIPT: 'reference.ts' };

/** The files of swagger-ui-dist the reference page needs, and its licence and notice. */
export const SWAGGER_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE', 'NOTICE'];

/** One entry bundled for the browser: an IIFE, minified, no source map, no legal comments. */
async function bundle(entry) {
  const result = await build({
    entryPoints: [join(BROWSER, entry)],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text.trimEnd();
}

/** `{ EXPLORER_SCRIPT, REFERENCE_SCRIPT }`: each script's text. */
export async function browserScripts() {
  const out = {};
  for (const [name, entry] of Object.entries(ENTRIES)) out[name] = await bundle(entry);
  return out;
}

/** The text of bundle.js: one exported string per script. */
export async function bundleModule() {
  const scripts = await browserScripts();
  return `// Made by scripts/build-browser.mjs from src/core/http/explorer/browser/: do not edit.\n${Object.entries(scripts)
    .map(([name, text]) => `export const ${name} = ${JSON.stringify(text)};`)
    .join('\n')}\n`;
}

/** Where swagger-ui-dist is installed (a devDependency of the checkout). */
export function swaggerDist() {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** Writes lib/core/http/explorer/bundle.js (and its .d.ts) and lib/vendor/swagger-ui/. */
export async function writeBrowserBundles(lib = join(ROOT, 'lib')) {
  const dir = join(lib, 'core/http/explorer');
  mkdirSync(dir, { recursive: true });
  const text = await bundleModule();
  writeFileSync(join(dir, 'bundle.js'), text);
  writeFileSync(
    join(dir, 'bundle.d.ts'),
    `${Object.keys(ENTRIES)
      .map((n) => `export declare const ${n}: string;`)
      .join('\n')}\n`,
  );
  const vendor = join(lib, 'vendor/swagger-ui');
  mkdirSync(vendor, { recursive: true });
  const from = swaggerDist();
  for (const f of SWAGGER_FILES) copyFileSync(join(from, f), join(vendor, f));
  return { bundle: Buffer.byteLength(text) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const scripts = await browserScripts();
  await writeBrowserBundles();
  for (const [name, text] of Object.entries(scripts))
    console.log(`${name}: ${Buffer.byteLength(text).toLocaleString('en')} bytes minified`);
}
