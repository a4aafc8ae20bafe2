// The schema of a field's value in an answer of the cqa and elmapi dialects (elmapi3 nests its
// own: openapi-elmapi3.ts). Apart from openapi.ts so that openapi-elmapi.ts can use it without an
// import cycle. No Node imports.
import type { FieldDef } from '../model/model.js';
import { entrySchemaName, markdownText, nullable, type Obj, ref } from './openapi-parts.js';

/**
 * A group's value (a mapping of its children, or a list of them) or a date range's (`{start,
 * end}`), as every dialect but elmapi3 answers it; undefined for any other field.
 */
export function groupOrRangeSchema(field: FieldDef, projectId: string, shallow: boolean): Obj | undefined {
  if (field.range) {
    const day: Obj = { type: 'string', format: field.type === 'date' ? 'date' : 'date-time' };
    return { type: 'object', required: ['start', 'end'], properties: { start: nullable(day), end: nullable(day) } };
  }
  if (field.type !== 'group') return undefined;
  // A child holds what its file gave (absent when not given); its relations and media stay ids.
  const children = (field.fields ?? []).filter((c) => !c.hidden);
  const child = (c: FieldDef): Obj => {
    const one = c.type === 'relation' || c.type === 'media' ? { type: 'string' } : scalarSchema(c, projectId, shallow);
    const value = c.multiple ? { type: 'array', items: one } : one;
    // Given as null in the file, it is served as null; so is a relation to a draft.
    return c.required && !(c.type === 'relation' && !c.multiple) ? value : nullable(value);
  };
  const one: Obj = {
    type: 'object',
    properties: Object.fromEntries(children.map((c) => [c.name, child(c)])),
    additionalProperties: false,
    ...(children.some((c) => c.required) ? { required: children.filter((c) => c.required).map((c) => c.name) } : {}),
  };
  return field.repeatable ? { type: 'array', items: one } : one;
}

/** The schema of one value of a field (not yet `multiple` or nullable). */
function scalarSchema(field: FieldDef, projectId: string, shallow: boolean): Obj {
  switch (field.type) {
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
    case 'datetime':
    case 'group':
      return groupOrRangeSchema(field, projectId, shallow) ?? { type: 'string', format: field.type === 'date' ? 'date' : 'date-time' };
    case 'time':
      return { type: 'string', pattern: '^\\d{2}:\\d{2}(:\\d{2})?$' };
    case 'email':
      return { type: 'string', format: 'email' };
    case 'color':
      return { type: 'string', description: 'A CSS colour, e.g. #ff8800' };
    case 'markdown':
      return { type: 'string', contentMediaType: 'text/markdown' };
    case 'richtext':
      return { type: 'string', contentMediaType: 'text/html', description: 'HTML rendered from Markdown at build time' };
    case 'enumeration':
      return { type: 'string', enum: [...(field.values ?? [])] };
    case 'media':
      return ref('Media');
    case 'relation':
      if (shallow) return { type: 'string', description: `id of an entry of '${markdownText(field.collection ?? '')}'` };
      return field.collection ? ref(entrySchemaName(projectId, field.collection, 'shallow')) : { type: 'object' };
    case 'json':
      return {};
    default:
      return { type: 'string' };
  }
}

/**
 * A field as it appears in an answer: a list for `multiple` (never null), else nullable unless
 * required — but a single relation always may be null: its target may be a draft.
 */
export function fieldSchema(field: FieldDef, projectId: string, shallow = false): Obj {
  const one = scalarSchema(field, projectId, shallow);
  if (field.multiple) return { type: 'array', items: one };
  if (field.type === 'json' || (field.required && field.type !== 'relation')) return one;
  return nullable(one);
}
