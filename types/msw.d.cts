// content-query-api/msw's types for a CommonJS TypeScript project. There, `msw/node` gives msw's
// CommonJS declarations, and lib/msw.d.ts (an ES module) would name msw's ES ones: two copies of
// its handler classes, which TypeScript refuses to mix (`setupServer(...api.handlers)` fails). So
// the handlers are typed from here, where `msw` resolves as the project's own does.
import type { HttpHandler } from 'msw';
import type { MockApi as ModuleMockApi, MswOptions } from '../lib/msw.js';

export type * from '../lib/msw.js';
export type MockApi = Omit<ModuleMockApi, 'handlers'> & { readonly handlers: HttpHandler[] };
export declare function createMswHandlers(options: MswOptions): Promise<MockApi>;
