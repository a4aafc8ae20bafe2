// Runs before each test file, also when files share a worker's modules (vitest.config.ts): a hook
// in a helper module would be registered for the first file that imports it only.
import { afterAll, vi } from 'vitest';
import { removeTempRoots } from './temp-roots.js';

afterAll(removeTempRoots);
// A spy a file left in place (vi.spyOn) ends with the file.
afterAll(() => vi.restoreAllMocks());
