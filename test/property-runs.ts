// How many cases a property test runs: all of them in `npm run test:all` (CI), a fifth in the quick
// loop (vitest.config.ts provides the share). With a seed, the fifth is the first fifth of the same
// cases. docs/development.md#tests.
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    propertyShare: number;
  }
}

export function runs(all: number): number {
  return Math.ceil(all * (inject('propertyShare') ?? 1));
}
