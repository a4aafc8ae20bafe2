// Types for scripts/edge-bundle.mjs (plain ESM, not compiled), for the TypeScript tests.
export const ROOT: string;
export const EDGE_BUDGET: number;
export const TINY_WORKER: string;

export interface WorkerBundle {
  code: string;
  /** Minified size in bytes. */
  bytes: number;
  /** Node built-ins the bundle tried to import, with the importing file. */
  nodeImports: string[];
  /** Files bundled, relative to the repository root. */
  inputs: string[];
}

export function bundleWorker(source?: string, options?: { minify?: boolean; external?: string[] }): Promise<WorkerBundle>;
export function edgeBundleSize(): Promise<{ bytes: number; budget: number; pass: boolean; nodeImports: string[]; modules: number }>;
