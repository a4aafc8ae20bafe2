// Types for scripts/build-browser.mjs (plain ESM, not compiled), for the TypeScript tests.
export const ROOT: string;
export const SWAGGER_FILES: string[];
export function browserScripts(): Promise<{ EXPLORER_SCRIPT: string; REFERENCE_SCRIPT: string }>;
export function bundleModule(): Promise<string>;
export function swaggerDist(): string;
export function writeBrowserBundles(lib?: string): Promise<{ bundle: number }>;
