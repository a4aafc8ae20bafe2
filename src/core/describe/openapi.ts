// OpenAPI 3.1 description of a snapshot: every operation of the API per project, an entry schema
// per collection derived from its visible fields, Media and Problem schemas. Built from plain
// objects in a fixed order, so the same content always gives the same text. No Node imports.
import type { CollectionRecord, ContentModel, ProjectRecord } from '../model/model.js';
import { elmapiPaths, elmapiResponses, elmapiSchemas } from './openapi-elmapi.js';
import { elmapi3Paths, elmapi3Responses, elmapi3Schemas, elmapi3SharedSchemas, mergeElmapi3Paths } from './openapi-elmapi3.js';
import {
  ENTRY_PARAMS,
  entrySchemaName,
  LIST_PARAMS,
  listAnswer,
  markdownText,
  MEDIA_LIST_PARAMS,
  mediaFileOperation,
  nullable,
  ok,
  param,
  pathParam,
  ref,
  relationTargets,
  security,
  type Json,
  type Obj,
  type SchemaVariant,
} from './openapi-parts.js';
import { getEntryId, listEntriesId, OPERATION_IDS, uniqueOperationIds } from './openapi-names.js';
import { fieldSchema } from './openapi-fields.js';
import { whereSchema, whereSchemaName } from './openapi-where.js';
import { OPERATORS } from '../query/operators.js';

const MEDIA_SEGMENT = 'project-media';
const PROBLEM = 'application/problem+json';

// ---------------------------------------------------------------------------------------------
// Schemas

/**
 * The entry schema of a collection. `shallow`: as embedded in another entry's relation field,
 * where the embedded entry's own relations stay ids.
 */
export function entrySchema(project: ProjectRecord, col: CollectionRecord, shallow = false): Obj {
  const visible = col.fields.filter((f) => !f.hidden);
  const stamp = (s: Obj): Obj => ({ ...s, description: 'only with ?timestamps' });
  // fromEntries defines own properties, so even a field named '__proto__' stays a plain key.
  const properties: Obj = Object.fromEntries([
    ['id', { type: 'string' }],
    ['locale', { type: 'string', enum: [...project.locales] }],
    ...visible.map((f): [string, Json] => [f.name, fieldSchema(f, project.id, shallow)]),
    ...(shallow
      ? []
      : ([
          ['created_at', stamp({ type: 'string', format: 'date-time' })],
          ['updated_at', stamp({ type: 'string', format: 'date-time' })],
          ['published_at', stamp(nullable({ type: 'string', format: 'date-time' }))],
        ] as [string, Json][])),
  ]);
  // Every visible field is in every answer (null or [] when empty), so all are required: a client
  // generated from this gets `title: string; price: number | null`, not everything optional.
  // `fields=`/`exclude=` narrow a top-level entry to fewer keys: that is said here and on those
  // parameters (docs/openapi.md: pick the kept keys) rather than weakening every client's types.
  return {
    type: 'object',
    title: shallow ? `${col.name} (embedded)` : col.name,
    description: shallow
      ? 'An entry embedded by a relation field: every visible field, its own relations as ids.'
      : 'Every visible field is present (null or [] when empty); fields= or exclude= narrow the answer to the fields they keep (id and locale always stay). created_at, updated_at and published_at only with ?timestamps.',
    required: ['id', 'locale', ...visible.map((f) => f.name)],
    properties,
  };
}

function mediaSchema(): Obj {
  return {
    type: 'object',
    required: ['id', 'file_name', 'full_url', 'mime_type', 'size', 'width', 'height', 'caption', 'alt'],
    properties: {
      id: { type: 'string', description: "the file's path under media/, '/'-separated" },
      file_name: { type: 'string' },
      full_url: { type: 'string', format: 'uri-reference' },
      mime_type: { type: 'string' },
      size: { type: 'integer', minimum: 0 },
      width: nullable({ type: 'integer', minimum: 0 }),
      height: nullable({ type: 'integer', minimum: 0 }),
      caption: nullable({ type: 'string' }),
      alt: nullable({ type: 'string' }),
    },
  };
}

function problemSchema(): Obj {
  return {
    type: 'object',
    description: 'RFC 9457 problem details',
    required: ['type', 'title', 'status', 'code', 'detail'],
    properties: {
      type: { type: 'string', format: 'uri-reference', default: 'about:blank' },
      title: { type: 'string' },
      status: { type: 'integer' },
      code: { type: 'string', description: 'stable machine-readable word, e.g. unknown_field' },
      detail: { type: 'string', description: 'what is wrong and what to change' },
      param: { type: 'string', description: 'the query parameter at fault, e.g. where[prise]' },
    },
  };
}

function listMetaSchema(): Obj {
  return {
    type: 'object',
    required: ['total', 'limit', 'offset'],
    properties: {
      total: { type: 'integer', minimum: 0, description: 'all matches before limit/offset' },
      limit: nullable({ type: 'integer', minimum: 0 }),
      offset: { type: 'integer', minimum: 0 },
    },
  };
}

function projectSchema(): Obj {
  const field: Obj = {
    type: 'object',
    required: ['name', 'type', 'multiple', 'required'],
    properties: {
      name: { type: 'string' },
      type: { type: 'string' },
      multiple: { type: 'boolean' },
      required: { type: 'boolean' },
      values: { type: 'array', items: { type: 'string' } },
      collection: { type: 'string' },
      range: { type: 'boolean', description: 'date/datetime: the value is {start, end}' },
      repeatable: { type: 'boolean', description: 'group: the value is a list of instances' },
      fields: { type: 'array', items: { type: 'object' }, description: 'group: its visible child fields, each described as a field is' },
    },
  };
  return {
    type: 'object',
    required: ['id', 'name', 'description', 'default_locale', 'locales', 'collections'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      description: nullable({ type: 'string' }),
      default_locale: { type: 'string' },
      locales: { type: 'array', items: { type: 'string' } },
      collections: {
        type: 'array',
        items: {
          type: 'object',
          required: ['slug', 'name', 'count', 'fields'],
          properties: {
            slug: { type: 'string' },
            name: { type: 'string' },
            count: { type: 'integer', minimum: 0, description: 'published entries' },
            fields: { type: 'array', items: field },
          },
        },
      },
    },
  };
}

const dataOf = (schema: Obj, description?: string): Obj => ({
  type: 'object',
  ...(description ? { description } : {}),
  required: ['data'],
  properties: { data: schema },
});
const listOf = (item: Obj): Obj => ({
  type: 'object',
  description: 'A list answer: the matches (after limit/offset) and the paging meta',
  required: ['data', 'meta'],
  properties: { data: { type: 'array', items: item }, meta: ref('ListMeta') },
});
const ITEM = 'One item: the answer for one id, and a list asked with ?first';

// Only what the document's operations use: a validator (test/http/openapi-clients.test.ts) flags
// unused components, and a generated client would carry them as dead types.
function schemas(model: Pick<ContentModel, 'projects'>): Obj {
  const out: Obj = { Problem: problemSchema() };
  if (model.projects.some((p) => p.dialect === undefined || p.dialect === 'cqa')) Object.assign(out, cqaSchemas());
  if (model.projects.some((p) => p.dialect === 'elmapi3')) Object.assign(out, elmapi3SharedSchemas());
  for (const p of model.projects) {
    if (p.dialect === 'elmapi') {
      Object.assign(out, elmapiSchemas(p));
      continue;
    }
    if (p.dialect === 'elmapi3') {
      Object.assign(out, elmapi3Schemas(p));
      continue;
    }
    const embedded = relationTargets(p);
    for (const c of p.collections) {
      const entry = ref(entrySchemaName(p.id, c.slug));
      out[entrySchemaName(p.id, c.slug)] = entrySchema(p, c);
      if (embedded.has(c.slug)) out[entrySchemaName(p.id, c.slug, 'shallow')] = entrySchema(p, c, true);
      out[entrySchemaName(p.id, c.slug, 'list')] = listOf(entry);
      out[entrySchemaName(p.id, c.slug, 'item')] = dataOf(entry, ITEM);
      out[whereSchemaName(p.id, c.slug)] = whereSchema(p, c);
    }
  }
  return out;
}

/** The schemas every cqa project shares. */
function cqaSchemas(): Obj {
  return {
    Media: mediaSchema(),
    ListMeta: listMetaSchema(),
    Count: {
      type: 'object',
      description: 'A list asked with ?count: the number of matches',
      required: ['count'],
      properties: { count: { type: 'integer', minimum: 0 } },
    },
    Project: projectSchema(),
    MediaList: listOf(ref('Media')),
    MediaItem: dataOf(ref('Media'), ITEM),
  };
}

// ---------------------------------------------------------------------------------------------
// Parameters and responses

const queryParam = (name: string, description: string, schema: Obj, extra: Obj = {}): Obj => ({
  name,
  in: 'query',
  description,
  required: false,
  schema,
  ...extra,
});
const flag = (name: string, description: string): Obj =>
  queryParam(name, `${description} (present or empty: on)`, { type: 'string' }, { allowEmptyValue: true });

function parameters(): Obj {
  const csv = { type: 'string', pattern: '^[^,]+(,[^,]+)*$' };
  const nonNegative = { type: 'integer', minimum: 0 };
  return {
    where: queryParam(
      'where',
      `Filters, PHP bracket syntax: where[f]=v, where[f][op]=v with op one of ${OPERATORS.join(', ')}; where[][f]=v (groups, all must hold); where[or][f]=v / where[or][][f]=v (alternatives). Filterable: every visible field, id, locale, created_at, updated_at, published_at.`,
      { type: 'object', additionalProperties: true },
      { style: 'deepObject', explode: true },
    ),
    whereRelation: queryParam(
      'whereRelation',
      'whereRelation[rel][f][op]=v: items whose relation field rel points to at least one entry matching the clause',
      { type: 'object', additionalProperties: true },
      { style: 'deepObject', explode: true },
    ),
    sort: queryParam('sort', 'f[:asc|:desc][,g[:asc|:desc]…]; empty values last, ties broken by id', csv),
    limit: queryParam('limit', 'at most this many items (no limit: all matches; capped by the server’s --max-limit)', nonNegative),
    offset: queryParam('offset', 'skip this many matches', nonNegative),
    first: flag(
      'first',
      'answer the first match alone instead of a list ({"data": entry} in the cqa dialect, the bare entry in elmapi), 404 when nothing matches',
    ),
    count: flag('count', 'answer the number of matches instead of a list ({"count": n} in the cqa dialect, a bare number in elmapi)'),
    state: queryParam('state', 'drafts need a token with the drafts scope', {
      type: 'string',
      enum: ['published', 'with_draft', 'only_draft'],
      default: 'published',
    }),
    locale: queryParam('locale', 'only entries in this locale (a project locale)', { type: 'string' }),
    timestamps: flag('timestamps', 'include created_at, updated_at and published_at'),
    fields: queryParam(
      'fields',
      'only these fields (id and locale are always kept): the answer then has fewer keys than its schema requires',
      csv,
    ),
    exclude: queryParam(
      'exclude',
      'all but these fields (id and locale are always kept): the answer then has fewer keys than its schema requires',
      csv,
    ),
  };
}

function problemResponse(description: string): Obj {
  return { description, content: { [PROBLEM]: { schema: ref('Problem') } } };
}

/** `cqa`: whether a project of the cqa dialect is described (the others are used by /openapi.json and /healthz). */
function responses(cqa: boolean): Obj {
  return {
    NotModified: { description: 'If-None-Match matched the ETag; no body' },
    ...(cqa ? { BadRequest: problemResponse('Bad query: unknown parameter, field or operator, wrong value type, …') } : {}),
    Unauthorized: {
      ...problemResponse('Missing, malformed or unknown Bearer token'),
      headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer realm="cqa"' } },
    },
    ...(cqa
      ? {
          Forbidden: problemResponse('Drafts asked for without the drafts scope'),
          NotFound: problemResponse('Unknown project, collection, entry or media item'),
        }
      : {}),
    NotAcceptable: problemResponse('The Accept header does not admit application/json'),
  };
}

function errorRefs(withQuery: boolean): Obj {
  const r = (name: string): Obj => ({ $ref: `#/components/responses/${name}` });
  return {
    '304': r('NotModified'),
    ...(withQuery ? { '400': r('BadRequest') } : {}),
    '401': r('Unauthorized'),
    ...(withQuery ? { '403': r('Forbidden') } : {}),
    '404': r('NotFound'),
    '406': r('NotAcceptable'),
  };
}

// ---------------------------------------------------------------------------------------------
// Paths

function operation(project: ProjectRecord, id: string, summary: string, params: Json[], okResponse: Obj, withQuery: boolean): Obj {
  return {
    get: {
      operationId: id,
      summary,
      tags: [project.id],
      security: security(project),
      ...(params.length > 0 ? { parameters: params } : {}),
      responses: { '200': okResponse, ...errorRefs(withQuery) },
    },
  };
}

const CQA_SHAPES = 'a list (with meta); with ?first one item ({"data": …}); with ?count {"count": n}';

/** `where` of one collection: the shared parameter's wording, the collection's own schema (openapi-where.ts). */
function collectionWhere(project: ProjectRecord, col: CollectionRecord): Obj {
  return { ...(parameters().where as Obj), schema: ref(whereSchemaName(project.id, col.slug)) };
}

function collectionPaths(project: ProjectRecord, col: CollectionRecord): Obj {
  const base = `/api/${project.id}/${col.slug}`;
  const name = (variant: SchemaVariant): Obj => ref(entrySchemaName(project.id, col.slug, variant));
  return {
    [base]: operation(
      project,
      listEntriesId(col.slug),
      `List ${col.name}`,
      LIST_PARAMS.map((n) => (n === 'where' ? collectionWhere(project, col) : param(n))),
      ok(markdownText(col.name), listAnswer(name('list'), name('item'), ref('Count'), CQA_SHAPES)),
      true,
    ),
    [`${base}/{content_id}`]: operation(
      project,
      getEntryId(col.slug),
      `One entry of ${col.name}`,
      [pathParam('content_id', 'the entry id'), ...ENTRY_PARAMS.map(param)],
      ok('The entry', name('item')),
      true,
    ),
  };
}

function projectPaths(project: ProjectRecord): Obj {
  const base = `/api/${project.id}`;
  const media = `${base}/${MEDIA_SEGMENT}`;
  const mediaId = pathParam('media_id', "the media id: the file's path under media/, sub-folders as '/' (not encoded)");
  let out: Obj = {
    [base]: operation(project, OPERATION_IDS.project, `Project ${project.name}`, [], ok('The project', dataOf(ref('Project'))), false),
  };
  for (const c of project.collections) out = { ...out, ...collectionPaths(project, c) };
  const mediaAnswer = listAnswer(ref('MediaList'), ref('MediaItem'), ref('Count'), CQA_SHAPES);
  out[media] = operation(project, OPERATION_IDS.mediaList, 'List media', MEDIA_LIST_PARAMS.map(param), ok('Media', mediaAnswer), true);
  out[`${media}/{media_id}`] = operation(
    project,
    OPERATION_IDS.mediaItem,
    'One media item',
    [mediaId],
    ok('The media item', ref('MediaItem')),
    false,
  );
  out[`/media/${project.id}/{media_id}`] = mediaFileOperation(project, mediaId, 'NotFound');
  return out;
}

function servicePaths(): Obj {
  return {
    '/healthz': {
      get: {
        operationId: OPERATION_IDS.health,
        summary: 'Liveness and the snapshot hash',
        security: [],
        responses: {
          '200': ok('OK', {
            type: 'object',
            required: ['status', 'snapshot'],
            properties: {
              status: { const: 'ok' },
              snapshot: { type: 'string' },
              // Only under --watch while the content has errors (docs/http-api.md#healthz).
              stale: { const: true },
            },
          }),
          '304': { $ref: '#/components/responses/NotModified' },
          '406': { $ref: '#/components/responses/NotAcceptable' },
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: OPERATION_IDS.openapi,
        summary: "This document: the public projects, and with a token also the token's project",
        security: [{}, { bearerAuth: [] }],
        responses: {
          '200': ok('OpenAPI 3.1', { type: 'object' }),
          '304': { $ref: '#/components/responses/NotModified' },
          '401': { $ref: '#/components/responses/Unauthorized' },
          '406': { $ref: '#/components/responses/NotAcceptable' },
        },
      },
    },
  };
}

/** The description of `model.projects` only: pass just the projects the reader may know about. */
export function openapiDocument(model: Pick<ContentModel, 'projects'>, baseUrl: string): Obj {
  let paths: Obj = {};
  for (const p of model.projects)
    if (p.dialect !== 'elmapi3') paths = { ...paths, ...(p.dialect === 'elmapi' ? elmapiPaths(p) : projectPaths(p)) };
  // elmapi3 projects share the /api paths (the project-id header tells them apart).
  const v3Paths = new Set<string>();
  for (const p of model.projects) if (p.dialect === 'elmapi3') mergeElmapi3Paths(paths, elmapi3Paths(p), v3Paths);
  // Each dialect's error answers, only when a project speaks it (a cqa-only document is unchanged).
  const extra = {
    ...(model.projects.some((p) => p.dialect === 'elmapi') ? elmapiResponses() : {}),
    ...(model.projects.some((p) => p.dialect === 'elmapi3') ? elmapi3Responses() : {}),
  };
  paths = { ...paths, ...servicePaths() };
  uniqueOperationIds(paths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Content Query API',
      version: '1',
      description:
        'Read-only content API generated by cqa from a content tree. Lists take where-clauses, sort and paging (§4.3 of the spec).',
    },
    servers: [{ url: baseUrl || '/' }],
    tags: model.projects.map((p) => ({ name: p.id, description: markdownText(p.description ?? p.name) })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'a token listed in project.yaml' } },
      // The shared query parameters of cqa and elmapi projects (elmapi3 operations carry their own).
      ...(model.projects.some((p) => p.dialect !== 'elmapi3') ? { parameters: parameters() } : {}),
      responses: { ...responses(model.projects.some((p) => p.dialect === undefined || p.dialect === 'cqa')), ...extra },
      schemas: schemas(model),
    },
  };
}

export function openapiJson(model: Pick<ContentModel, 'projects'>, baseUrl: string): string {
  return JSON.stringify(openapiDocument(model, baseUrl));
}
