// Runs before each test file, also when files share a worker's modules (vitest.config.ts): a hook
// in a helper module would be registered for the first file that imports it only.
import { afterAll } from 'vitest';
import { removeTempRoots } from './temp-roots.js';

afterAll(removeTempRoots);
