// `npm run test:all`: every suite, quick and slow (see vitest.config.ts).
import { defineConfig } from 'vitest/config';
import { ALL, base, explorerBundle } from './vitest.config.js';

export default defineConfig({ plugins: [explorerBundle], test: { ...base, include: ALL } });
