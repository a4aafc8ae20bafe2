// `npm run test:all`: every suite, quick and slow (see vitest.config.ts).
import { defineConfig } from 'vitest/config';
import { ALL, base } from './vitest.config.js';

export default defineConfig({ test: { ...base, include: ALL } });
