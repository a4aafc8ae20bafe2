// `content-query-api/edge` bundles for a runtime without Node: a worker that imports it pulls no
// Node module, uses no Node global and no import.meta, and stays within its size budget. And the
// main entry can be imported where import.meta.url is not a file URL (as in a Workers bundle).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleWorker, EDGE_BUDGET, edgeBundleSize } from '../../scripts/edge-bundle.mjs';
import { ROOT } from './workerd.js';

describe('content-query-api/edge', () => {
  it('is a subpath export of the package, exporting createHandler, loadSnapshot and the opt-in explorerPage and elmapi3Routes only', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['./edge']).toEqual({ types: './lib/edge.d.ts', default: './lib/edge.js' });
    const edge = await import(join(ROOT, 'lib', 'edge.js'));
    expect(Object.keys(edge).sort()).toEqual(['createHandler', 'elmapi3Routes', 'explorerPage', 'loadSnapshot']);
  });

  it('bundles without a Node module, a Node global or import.meta, within its budget', async () => {
    const { code, bytes, nodeImports, inputs } = await bundleWorker();
    expect(nodeImports).toEqual([]);
    expect(inputs).toContain('lib/edge.js');
    expect(inputs.filter((f) => /open-file|node\.js|start\.js|content\//.test(f))).toEqual([]);
    expect(code).not.toContain('import.meta');
    // Globals survive minification by name; `ArrayBuffer` and the like are not `Buffer`.
    expect(code.match(/(?<![\w$.])(Buffer|process|require|__dirname|__filename|setImmediate)(?![\w$])/g)).toBeNull();
    expect(bytes).toBeLessThanOrEqual(EDGE_BUDGET);
    expect(await edgeBundleSize()).toMatchObject({ bytes, budget: EDGE_BUDGET, pass: true });
    // The explorer is opt-in: a worker that does not name it carries none of its page or script.
    expect(code).not.toContain('Content Query API explorer');
    expect(code).not.toContain('X-CQA-Explorer');
  });

  it('carries the explorer (page and bundled script) only when the worker opts in to it', async () => {
    const worker = `
import { createHandler, explorerPage, loadSnapshot } from 'content-query-api/edge';
export default { fetch: (request, env) => createHandler(loadSnapshot(env.SNAPSHOT), { explorer: explorerPage })(request) };
`;
    const { code, bytes, nodeImports } = await bundleWorker(worker);
    expect(nodeImports).toEqual([]);
    expect(code).toContain('Content Query API explorer');
    expect(code).toContain('X-CQA-Explorer');
    // About 45 KB more, not Swagger UI's 1.7 MB: the API reference page is for the Node servers only.
    const without = (await bundleWorker()).bytes;
    expect(bytes - without).toBeGreaterThan(0);
    expect(bytes - without).toBeLessThan(60 * 1024);
  });
});

describe('the main entry', () => {
  it('can be imported where import.meta.url is not a file URL (no worker URL made at import time)', async () => {
    // Bundled for Node, then loaded from a data: URL, whose import.meta.url is no base for
    // `new URL('./x.js', import.meta.url)` — what a Workers bundle of the main entry met.
    const result = await build({
      entryPoints: [join(ROOT, 'lib', 'index.js')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      logLevel: 'silent',
      banner: { js: "import { createRequire as __cqaRequire } from 'node:module'; const require = __cqaRequire('/');" },
    });
    const code = (result.outputFiles[0] as { text: string }).text;
    const main = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
    expect(typeof main.createHandler).toBe('function');
    expect(typeof main.loadSnapshot).toBe('function');
  });
});
