// The `where` parameter of a collection's list operation, typed per collection: its filterable
// fields (id, locale, every visible field, the timestamps) and, per field, the operators the query
// engine accepts for that type (the engine's own table, validOps) with values of the field's type.
// A generator (openapi-typescript, orval, …) then gives `where: { price?: number | { gte?: number
// … } }` instead of `{ [key: string]: unknown }`. Groups (`where[0][f]`) stay untyped: they are
// the same clauses in a list, and one object form is what generated types can say well.
import { LIST_OPS, validOps } from '../query/operators.js';
import { kindOf } from '../query/values.js';
import type { CollectionRecord, FieldDef, ProjectRecord } from '../model/model.js';
import { type Json, markdownText, type Obj } from './openapi-parts.js';

/** `<project>.<collection>.where`: ids and slugs never contain '.', so it cannot collide. */
export const whereSchemaName = (projectId: string, slug: string): string => `${projectId}.${slug}.where`;

const FLAGS = new Set(['null', 'not_null']);

/** One value of a field, as written in a query (dates and times as their text). */
function valueSchema(f: Pick<FieldDef, 'type' | 'values' | 'range'>): Obj {
  switch (kindOf(f)) {
    case 'num':
      return { type: 'number' };
    case 'bool':
      return { type: 'boolean' };
    default:
      return f.type === 'enumeration' && f.values ? { type: 'string', enum: [...f.values] } : { type: 'string' };
  }
}

/** A field's condition: a value (equality), or an object of operators. */
function conditionSchema(f: Pick<FieldDef, 'type' | 'values' | 'multiple' | 'range'>): Obj {
  const value = valueSchema(f);
  const ops: Obj = {};
  for (const op of validOps({ kind: kindOf(f), multiple: f.multiple })) {
    if (FLAGS.has(op)) ops[op] = { type: 'boolean' };
    else if (LIST_OPS.has(op))
      ops[op] = op.endsWith('between')
        ? { type: 'array', items: value, minItems: 2, maxItems: 2 }
        : { type: 'array', items: value, minItems: 1 };
    else ops[op] = value;
  }
  const byOperator: Obj = { type: 'object', properties: ops, additionalProperties: false };
  // json fields take only null / not_null: no equality value.
  return kindOf(f) === 'json' ? byOperator : { oneOf: [value, byOperator] };
}

const SYSTEM: Pick<FieldDef, 'name' | 'type' | 'multiple' | 'values'>[] = [
  { name: 'id', type: 'text', multiple: false },
  { name: 'locale', type: 'text', multiple: false },
];
const TIMESTAMPS = ['created_at', 'updated_at', 'published_at'];

/** The schema of `where` for `col`: one property per filterable field, plus `or` (alternatives). */
export function whereSchema(project: ProjectRecord, col: CollectionRecord): Obj {
  const self = { $ref: `#/components/schemas/${whereSchemaName(project.id, col.slug)}` };
  const properties: { [name: string]: Json } = {};
  for (const f of SYSTEM)
    properties[f.name] = conditionSchema(f.name === 'locale' ? { ...f, type: 'enumeration', values: project.locales } : f);
  for (const f of col.fields) if (!f.hidden && !(f.name in properties)) properties[f.name] = conditionSchema(f);
  for (const name of TIMESTAMPS) if (!(name in properties)) properties[name] = conditionSchema({ type: 'datetime', multiple: false });
  properties.or = { description: 'alternatives: an entry matches when one of them holds', type: 'array', items: self };
  return {
    type: 'object',
    description: `Conditions on ${markdownText(col.name)}: where[field]=value or where[field][operator]=value.`,
    properties,
    additionalProperties: false,
  };
}
