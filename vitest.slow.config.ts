// `npm run test:slow`: the suites `npm test` leaves out (see vitest.config.ts).
import { defineConfig } from 'vitest/config';
import { base, SLOW } from './vitest.config.js';

export default defineConfig({ test: { ...base, include: SLOW } });
