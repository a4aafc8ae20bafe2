// `content-query-api/client` in a browser bundle: within its size budget, and nothing but the
// client, the query engine and the serialisers in it (esbuild's browser platform fails the build
// on any Node import).
import { describe, expect, it } from 'vitest';
import { clientBundle } from '../../scripts/client-size.mjs';

describe('client bundle', () => {
  it('is at most 72.25 KiB minified, with no Node import and no Node global', async () => {
    const { bytes, budget, code, inputs } = await clientBundle();
    expect(budget).toBe(72.25 * 1024);
    expect(bytes).toBeLessThanOrEqual(budget);
    for (const input of inputs)
      expect(input).toMatch(
        /^src\/core\/(client|query|model|dialects)\/|^src\/core\/snapshot\/(order|serialize)\.ts$|^src\/core\/http\/problem\.ts$|^src\/core\/suggest\.ts$/,
      );
    expect(code).not.toMatch(/\bprocess\.|\bBuffer\b|\bimport\.meta\b|\brequire\(/);
  }, 30_000);
});
