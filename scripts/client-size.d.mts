// Types for scripts/client-size.mjs (plain ESM, not compiled), for the TypeScript tests.
export const CLIENT_BUDGET: number;
export function clientBundle(): Promise<{ bytes: number; budget: number; code: string; inputs: string[] }>;
export function clientBundleSize(): Promise<{ bytes: number; budget: number }>;
