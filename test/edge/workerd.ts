// Running a worker in workerd (Cloudflare's runtime) through miniflare: no network, no account.
// Worker files come from docs/edge.md (the blocks marked `<!-- test: name -->`), bundled by esbuild
// as wrangler does: `content-query-api/edge` resolves to this package's own build (lib/), and
// `./snapshot.json` stays a separate Text module, as the recipe's wrangler.toml rule makes it.
// miniflare runs workerd from the @cloudflare/workerd-<platform> package: no install script needed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { bundleWorker } from '../../scripts/edge-bundle.mjs';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The fenced block that follows `<!-- test: name -->` in docs/edge.md. */
export function docBlock(name: string): string {
  const doc = readFileSync(join(ROOT, 'docs', 'edge.md'), 'utf8');
  const at = doc.indexOf(`<!-- test: ${name} -->`);
  if (at < 0) throw new Error(`docs/edge.md has no block marked '${name}'`);
  const m = /```[a-z]*\n([\s\S]*?)```/.exec(doc.slice(at));
  if (!m) throw new Error(`docs/edge.md: no code block after '${name}'`);
  return m[1] as string;
}

/** One `key = "value"` of a wrangler.toml. */
export function tomlString(toml: string, key: string): string {
  const m = new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, 'm').exec(toml);
  if (!m) throw new Error(`wrangler.toml has no ${key}`);
  return m[1] as string;
}

/** The worker module bundled for workerd (scripts/edge-bundle.mjs: platform neutral, no Node). */
export async function bundle(source: string): Promise<string> {
  const { code, nodeImports } = await bundleWorker(source, { minify: false, external: ['./snapshot.json'] });
  if (nodeImports.length > 0) throw new Error(`the worker imports Node modules: ${nodeImports.join(', ')}`);
  return code;
}

export interface WorkerOptions {
  readonly code: string;
  readonly compatibilityDate: string;
  /** Contents of the Text module `./snapshot.json`, when the worker imports it. */
  readonly snapshotModule?: string;
  /** KV namespaces by binding: key → value. */
  readonly kv?: Record<string, Record<string, string>>;
  /** R2 buckets by binding: key → bytes. */
  readonly r2?: Record<string, Record<string, Uint8Array>>;
}

export interface RunningWorker {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  close(): Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const modules: { type: 'ESModule' | 'Text'; path: string; contents: string }[] = [
    { type: 'ESModule', path: 'worker.js', contents: options.code },
  ];
  if (options.snapshotModule !== undefined) modules.push({ type: 'Text', path: 'snapshot.json', contents: options.snapshotModule });
  const mf = new Miniflare({
    modules,
    compatibilityDate: options.compatibilityDate,
    host: '127.0.0.1',
    port: 0,
    kvNamespaces: Object.keys(options.kv ?? {}),
    r2Buckets: Object.keys(options.r2 ?? {}),
  });
  try {
    const url = await mf.ready;
    for (const [binding, values] of Object.entries(options.kv ?? {})) {
      const ns = (await mf.getKVNamespace(binding)) as unknown as { put(key: string, value: string): Promise<void> };
      for (const [k, v] of Object.entries(values)) await ns.put(k, v);
    }
    for (const [binding, objects] of Object.entries(options.r2 ?? {})) {
      const bucket = (await mf.getR2Bucket(binding)) as unknown as { put(key: string, value: Uint8Array): Promise<unknown> };
      for (const [k, v] of Object.entries(objects)) await bucket.put(k, v);
    }
    return { url: url.origin, close: () => mf.dispose() };
  } catch (e) {
    await mf.dispose();
    throw e;
  }
}
