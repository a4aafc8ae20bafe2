// `npm run test:slow`: the suites `npm test` leaves out (see vitest.config.ts).
import { defineConfig } from 'vitest/config';
import { base, explorerBundle, SLOW } from './vitest.config.js';

export default defineConfig({ plugins: [explorerBundle], test: { ...base, include: SLOW } });
