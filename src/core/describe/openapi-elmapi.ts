// The OpenAPI description of a project in the `elmapi` dialect (src/core/dialects/elmapi.ts):
// bare arrays and objects, integer ids, `YYYY-MM-DD HH:MM:SS` timestamps, fields absent when
// empty, `{"error": …}` bodies with 404/422 and `{"message":"Unauthenticated."}`. No Node imports.
import type { CollectionRecord, FieldDef, ProjectRecord } from '../model/model.js';
import { groupOrRangeSchema } from './openapi-fields.js';
import { getEntryId, listEntriesId, OPERATION_IDS } from './openapi-names.js';
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
} from './openapi-parts.js';

const JSON_TYPE = 'application/json';
const MEDIA_SEGMENT = 'project-media';
const TIME: Obj = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$', description: 'YYYY-MM-DD HH:MM:SS (UTC)' };
const ID: Obj = {
  anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }],
  description: 'an integer; a non-integer id in the content stays a string',
};

function scalar(field: FieldDef, projectId: string, shallow: boolean): Obj {
  switch (field.type) {
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'enumeration':
      // A multiple one is one string, so its values cannot be an `enum`: `x-cqa-enum` lists them
      // for tools that want them (the explorer offers them in its form).
      return field.multiple
        ? {
            type: 'string',
            description: `values of ${markdownText((field.values ?? []).join(', '))}, joined by commas`,
            'x-cqa-enum': [...(field.values ?? [])],
          }
        : { type: 'string', enum: [...(field.values ?? [])] };
    case 'json':
      return { type: 'string', contentMediaType: 'application/json', description: 'the JSON text of the value' };
    case 'date':
    case 'datetime':
    case 'group':
      return groupOrRangeSchema(field, projectId, shallow) ?? { type: 'string' };
    case 'media':
      return ref('ElmapiMedia');
    case 'relation':
      if (shallow || !field.collection) return ID;
      return ref(entrySchemaName(projectId, field.collection, 'shallow'));
    default:
      return { type: 'string' };
  }
}

function entrySchema(project: ProjectRecord, col: CollectionRecord, shallow: boolean): Obj {
  const visible = col.fields.filter((f) => !f.hidden);
  const stamp = (s: Obj): Obj => ({ ...s, description: `${s.description as string}; only with ?timestamps` });
  const properties: Obj = Object.fromEntries([
    ['id', ID],
    ['locale', nullable({ type: 'string', enum: [...project.locales] })],
    ['created_at', stamp(TIME)],
    ['updated_at', stamp(TIME)],
    ['published_at', stamp(TIME)],
    ...visible.map((f): [string, Json] => {
      const one = scalar(f, project.id, shallow);
      return [f.name, f.multiple && f.type !== 'enumeration' ? { type: 'array', items: one } : one];
    }),
  ]);
  // A field with no value is absent, so only those that always have one are required: the
  // schema's required fields (checked on every entry, drafts too), but not relations, whose
  // targets may all be drafts. `fields=`/`exclude=` may drop even those (docs/openapi.md).
  const always = visible.filter((f) => f.required && f.type !== 'relation').map((f) => f.name);
  return {
    type: 'object',
    title: shallow ? `${col.name} (embedded)` : col.name,
    description: shallow
      ? 'An entry embedded by a relation field; its own relations are ids.'
      : 'A field with no value is absent; hidden fields are never there; fields= or exclude= narrow the answer to the fields they keep.',
    required: ['id', 'locale', ...always],
    properties,
  };
}

/** The schemas of one elmapi project, plus the dialect's media and error schemas. */
export function elmapiSchemas(project: ProjectRecord): Obj {
  const out: Obj = {
    ElmapiMedia: {
      type: 'object',
      required: ['id', 'file_name', 'full_url', 'caption', 'size'],
      properties: {
        id: { type: 'integer', minimum: 1 },
        file_name: { type: 'string' },
        full_url: { type: 'string', format: 'uri-reference' },
        thumb: {
          type: 'string',
          format: 'uri-reference',
          description: 'images only: a copy 600 px high (/thumbs/…) for images over 600 px high, else full_url',
        },
        caption: nullable({ type: 'string' }),
        size: { type: 'integer', minimum: 0 },
        width: { ...nullable({ type: 'integer', minimum: 0 }), description: 'images only' },
        height: { ...nullable({ type: 'integer', minimum: 0 }), description: 'images only' },
      },
    },
    ElmapiError: {
      type: 'object',
      required: ['error'],
      properties: {
        error: { type: 'string', description: "the original API's message, e.g. Not found!, or our detail" },
        code: { type: 'string', description: 'with our stricter checks only: a stable machine-readable word' },
      },
    },
    ElmapiUnauthenticated: { type: 'object', required: ['message'], properties: { message: { const: 'Unauthenticated.' } } },
    ElmapiMediaList: { type: 'array', description: 'A list answer: a bare array', items: ref('ElmapiMedia') },
    ElmapiCount: { type: 'integer', minimum: 0, description: 'A list asked with ?count: the number of matches, bare' },
    ElmapiProject: {
      type: 'object',
      required: ['uuid', 'name', 'description'],
      properties: { uuid: { type: 'string' }, name: { type: 'string' }, description: nullable({ type: 'string' }) },
    },
  };
  const embedded = relationTargets(project);
  for (const c of project.collections) {
    out[entrySchemaName(project.id, c.slug)] = entrySchema(project, c, false);
    if (embedded.has(c.slug)) out[entrySchemaName(project.id, c.slug, 'shallow')] = entrySchema(project, c, true);
    out[entrySchemaName(project.id, c.slug, 'list')] = {
      type: 'array',
      description: 'A list answer: a bare array',
      items: ref(entrySchemaName(project.id, c.slug)),
    };
  }
  return out;
}

/** The dialect's error responses (components/responses). */
export function elmapiResponses(): Obj {
  const error = (description: string): Obj => ({ description, content: { [JSON_TYPE]: { schema: ref('ElmapiError') } } });
  return {
    ElmapiUnprocessable: error(
      'Bad query: Incorrect where/sort/offset statement, Field not found […], or one of our stricter checks (then with a code)',
    ),
    ElmapiUnauthorized: {
      description: 'Missing or invalid Bearer token',
      content: { [JSON_TYPE]: { schema: ref('ElmapiUnauthenticated') } },
      headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer realm="cqa"' } },
    },
    ElmapiForbidden: error('Drafts asked for without the drafts scope'),
    ElmapiNotFound: error(
      "Project not found!, Collection not found!, Not found!, File not found!, Record not found!, or API token does'nt have the right permissions!",
    ),
    ElmapiNotAcceptable: error('The Accept header does not admit application/json'),
  };
}

function operation(project: ProjectRecord, id: string, summary: string, params: Json[], okResponse: Obj, withQuery: boolean): Obj {
  const r = (name: string): Obj => ({ $ref: `#/components/responses/${name}` });
  return {
    get: {
      operationId: id,
      summary,
      tags: [project.id],
      security: security(project),
      ...(params.length > 0 ? { parameters: params } : {}),
      responses: {
        '200': okResponse,
        '304': r('NotModified'),
        '401': r('ElmapiUnauthorized'),
        ...(withQuery ? { '403': r('ElmapiForbidden') } : {}),
        '404': r('ElmapiNotFound'),
        '406': r('ElmapiNotAcceptable'),
        ...(withQuery ? { '422': r('ElmapiUnprocessable') } : {}),
      },
    },
  };
}

const SHAPES = 'a bare array; with ?first one bare item; with ?count a bare number';

/** The paths of one elmapi project. */
export function elmapiPaths(project: ProjectRecord): Obj {
  const base = `/api/${project.id}`;
  const media = `${base}/${MEDIA_SEGMENT}`;
  const out: Obj = {
    [base]: operation(project, OPERATION_IDS.project, `Project ${project.name}`, [], ok('The project', ref('ElmapiProject')), false),
  };
  const count = ref('ElmapiCount');
  for (const c of project.collections) {
    const entry = ref(entrySchemaName(project.id, c.slug));
    const list = ref(entrySchemaName(project.id, c.slug, 'list'));
    out[`${base}/${c.slug}`] = operation(
      project,
      listEntriesId(c.slug),
      `List ${c.name}`,
      LIST_PARAMS.map(param),
      ok(markdownText(c.name), listAnswer(list, entry, count, SHAPES)),
      true,
    );
    out[`${base}/${c.slug}/{content_id}`] = operation(
      project,
      getEntryId(c.slug),
      `One entry of ${c.name}`,
      [pathParam('content_id', 'the entry id'), ...ENTRY_PARAMS.map(param)],
      ok('The entry', entry),
      true,
    );
  }
  const mediaAnswer = listAnswer(ref('ElmapiMediaList'), ref('ElmapiMedia'), count, SHAPES);
  out[media] = operation(project, OPERATION_IDS.mediaList, 'List media', MEDIA_LIST_PARAMS.map(param), ok('Media', mediaAnswer), true);
  out[`${media}/{media_id}`] = operation(
    project,
    OPERATION_IDS.mediaItem,
    'One media item',
    [pathParam('media_id', 'the integer id')],
    ok('The media item', ref('ElmapiMedia')),
    false,
  );
  out[`${media}/name/{file_name}`] = operation(
    project,
    OPERATION_IDS.mediaByName,
    'One media item by file name',
    [pathParam('file_name', 'the file name')],
    ok('The media item', ref('ElmapiMedia')),
    false,
  );
  out[`/media/${project.id}/{media_path}`] = mediaFileOperation(
    project,
    pathParam('media_path', "the file's path under media/"),
    'ElmapiNotFound',
  );
  return out;
}
