// The where-operators and which of them each field type takes: the one table the engine
// (plan.ts), the OpenAPI document (describe/openapi-where.ts) and the explorer page's form
// (http/explorer/browser/) all read. Kept apart from plan.ts so the browser bundle carries the
// table and nothing of the engine. No Node imports.
import type { Kind } from './values.js';

export const OPERATORS = [
  'eq',
  'not',
  'like',
  'in',
  'not_in',
  'lt',
  'lte',
  'gt',
  'gte',
  'between',
  'not_between',
  'null',
  'not_null',
] as const;
export type Op = (typeof OPERATORS)[number];

/** The operators whose value is a list (`in=a,b`, `between=1,9`). */
export const LIST_OPS: ReadonlySet<Op> = new Set(['in', 'not_in', 'between', 'not_between']);

const TEXT_OPS: readonly Op[] = OPERATORS;
const TEXT_MULTI_OPS: readonly Op[] = ['eq', 'not', 'like', 'in', 'not_in', 'null', 'not_null'];
const NUM_OPS: readonly Op[] = OPERATORS.filter((o) => o !== 'like');
const SET_OPS: readonly Op[] = ['eq', 'not', 'in', 'not_in', 'null', 'not_null'];
const JSON_OPS: readonly Op[] = ['null', 'not_null'];

/** The operators a field takes (the OpenAPI document types `where` from the same table). */
export function validOps(f: { readonly kind: Kind; readonly multiple: boolean }): readonly Op[] {
  switch (f.kind) {
    case 'json':
      return JSON_OPS;
    case 'bool':
    case 'ref':
      return SET_OPS;
    case 'text':
      return f.multiple ? TEXT_MULTI_OPS : TEXT_OPS;
    default:
      return f.multiple ? SET_OPS : NUM_OPS;
  }
}
