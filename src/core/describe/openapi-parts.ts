// The pieces of an OpenAPI document that each dialect's description shares (openapi.ts for cqa,
// openapi-elmapi.ts): JSON types, references, the shared parameters, a 200 answer, security,
// the media file operation. No Node imports.
import type { ProjectRecord } from '../model/model.js';
import { OPERATION_IDS } from './openapi-names.js';

const JSON_TYPE = 'application/json';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type Obj = { [key: string]: Json };

export const ref = (name: string): Obj => ({ $ref: `#/components/schemas/${name}` });

export const nullable = (schema: Obj): Obj => ({ anyOf: [schema, { type: 'null' }] });

/**
 * Component names: `<project>.<collection>` is the entry; `.shallow` the entry as embedded by a
 * relation, `.list` and `.item` the answers that carry it. Ids and slugs never contain '.', so
 * these cannot collide.
 */
export type SchemaVariant = 'shallow' | 'list' | 'item';

export function entrySchemaName(projectId: string, slug: string, variant?: SchemaVariant): string {
  return `${projectId}.${slug}${variant ? `.${variant}` : ''}`;
}

/** The collections that a relation field of `project` points to: they need an embedded schema. */
export function relationTargets(project: ProjectRecord): Set<string> {
  const out = new Set<string>();
  for (const c of project.collections)
    for (const f of c.fields) if (f.type === 'relation' && !f.hidden && f.collection) out.add(f.collection);
  return out;
}

/**
 * Plain text from the content (a project's description, a collection's name) as the CommonMark
 * that OpenAPI says a `description` is, so that it renders as that same text: Swagger UI on
 * /reference renders raw HTML and links in it, on the page where people type their token.
 * Markup-starting punctuation gets a backslash (`<`, `>` and an entity-like `&` an HTML entity),
 * a line's own marks (`#`, `-`, `+`, `=`, `1.`, `1)`) only at its start, and a line loses its
 * indent, which would make it a code block that shows the backslashes.
 * `summary` and `title` are plain text in OpenAPI (and in Swagger UI): they stay as written.
 */
export function markdownText(text: string): string {
  return text
    .replace(/^[ \t]+/gm, '')
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/&(?=#|[A-Za-z0-9]+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/^([#=+-])/gm, '\\$1')
    .replace(/^(\d+)([.)])/gm, '$1\\$2');
}

export const param = (name: string): Obj => ({ $ref: `#/components/parameters/${name}` });

export const MEDIA_LIST_PARAMS = ['where', 'sort', 'limit', 'offset', 'first', 'count'];

/** The parameters of a list and of one entry: the engine's own lists (src/core/query/plan.ts). */
export { LIST_PARAMS, ITEM_PARAMS as ENTRY_PARAMS } from '../query/plan.js';

export function ok(description: string, schema: Obj): Obj {
  return {
    description,
    headers: { ETag: { required: true, schema: { type: 'string' }, description: 'strong validator for If-None-Match' } },
    content: { [JSON_TYPE]: { schema } },
  };
}

/** Public projects: the token is optional (anonymous reads see published content). */
export function security(project: ProjectRecord): Json[] {
  return project.public ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }];
}

export const pathParam = (name: string, description: string): Obj => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

/**
 * A list's 200: one path answers three shapes, and OpenAPI keys answers by status and media type,
 * never by query parameter. Each shape is a named schema, so a generated client gets a union of
 * three named types that `'count' in body` / `'meta' in body` narrow (docs/openapi.md).
 */
export function listAnswer(list: Obj, first: Obj, count: Obj, shapes: string): Obj {
  return { oneOf: [list, first, count], description: shapes };
}

/** `/media/<project>/…`: the file itself, in every dialect (only the 404 answer differs). */
export function mediaFileOperation(project: ProjectRecord, pathParameter: Json, notFound: string): Obj {
  return {
    get: {
      operationId: OPERATION_IDS.mediaFile,
      summary: 'The media file itself (Range requests, ETag); no token needed',
      tags: [project.id],
      security: [],
      parameters: [pathParameter],
      responses: {
        '200': {
          description: 'The file',
          content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
        },
        '206': { description: 'Part of the file (Range)' },
        '304': { $ref: '#/components/responses/NotModified' },
        '404': { $ref: `#/components/responses/${notFound}` },
      },
    },
  };
}
