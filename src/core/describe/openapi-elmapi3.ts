// The OpenAPI description of a project in the `elmapi3` dialect (today's ElmapiCMS v3/4.0,
// src/core/http/elmapi3/): the v3 routes under /api with the `project-id` header, entries
// `{uuid, locale, published_at, fields: {…}}` per collection (fields absent when empty, `[]` when
// none is left), Laravel's paginate envelope, assets, and the `{"message": …}` errors. Several
// elmapi3 projects share the paths (the header tells them apart): mergeElmapi3Paths joins them.
// No Node imports.
import { V3_FIELD_TYPES } from '../dialects/elmapi3.js';
import type { CollectionRecord, FieldDef, ProjectRecord } from '../model/model.js';
import { pascalCase, singular } from '../model/names.js';
import { getEntryId, listEntriesId, OPERATION_IDS } from './openapi-names.js';
import { entrySchemaName, markdownText, mediaFileOperation, nullable, pathParam, ref, type Json, type Obj } from './openapi-parts.js';

const JSON_TYPE = 'application/json';
/** Carbon::toIso8601String in UTC (entries' published_at, created_at, updated_at). */
const ISO: Obj = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\+00:00$',
  description: 'YYYY-MM-DDTHH:MM:SS+00:00 (UTC)',
};
/** Carbon's toJSON (collections' and assets' timestamps). */
const CARBON: Obj = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z$',
  description: 'YYYY-MM-DDTHH:MM:SS.ffffffZ (UTC)',
};
const DATE: Obj = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2}|T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z)$',
  description: 'YYYY-MM-DD HH:MM:SS; with state=draft YYYY-MM-DDTHH:MM:SS.000000Z',
};
const NUMBER: Obj = {
  anyOf: [{ type: 'number' }, { type: 'string', pattern: '^-?\\d+\\.\\d{6}$' }],
  description: 'a number; with state=draft a string with 6 decimals ("25.000000")',
};
const EMPTY: Obj = { type: 'array', maxItems: 0, description: 'what PHP writes for an empty object' };

/** Schema names of an elmapi3 project's collection: the entry, its fields object, its paginated page, its bare list. */
const names = (projectId: string, slug: string) => ({
  entry: entrySchemaName(projectId, slug),
  fields: `${entrySchemaName(projectId, slug)}.fields`,
  page: `${entrySchemaName(projectId, slug)}.page`,
  list: entrySchemaName(projectId, slug, 'list'),
});

function value(f: FieldDef, projectId: string): Obj {
  switch (f.type) {
    case 'number':
      return NUMBER;
    case 'boolean':
      return { type: 'boolean' };
    case 'enumeration':
      return { type: 'array', items: { type: 'string', enum: [...(f.values ?? [])] }, description: 'always a list, also for one value' };
    case 'json':
      return { anyOf: [{ type: 'object' }, { type: 'array' }], description: 'the stored JSON; a scalar comes as [scalar]' };
    case 'date':
    case 'datetime':
      return f.range ? { type: 'object', required: ['start', 'end'], properties: { start: nullable(DATE), end: nullable(DATE) } } : DATE;
    case 'media':
      return { type: 'array', items: ref('Elmapi3Asset'), description: 'always a list of assets' };
    case 'relation': {
      const target = f.collection ? ref(entrySchemaName(projectId, f.collection)) : { type: 'object' };
      return f.multiple ? { type: 'array', items: target } : nullable(target);
    }
    case 'group': {
      const children = (f.fields ?? []).filter((c) => !c.hidden);
      const instance: Obj = {
        anyOf: [
          { type: 'object', properties: Object.fromEntries(children.map((c): [string, Json] => [c.name, fieldValue(c, projectId)])) },
          EMPTY,
        ],
        description: 'one instance: its children with a value ([] when none has one)',
      };
      return f.repeatable ? { type: 'array', items: instance } : instance;
    }
    case 'markdown':
    case 'richtext':
      return { type: 'string', contentMediaType: 'text/html' };
    default:
      return { type: 'string' };
  }
}

/** A field's value as `fields.<name>` shows it: a list for `multiple` scalars. */
function fieldValue(f: FieldDef, projectId: string): Obj {
  const one = value(f, projectId);
  const listed = f.multiple && !['enumeration', 'media', 'relation', 'group'].includes(f.type);
  return listed ? { type: 'array', items: one } : one;
}

function fieldsSchema(project: ProjectRecord, col: CollectionRecord): Obj {
  const visible = col.fields.filter((f) => !f.hidden);
  return {
    type: 'object',
    title: `${col.name} fields`,
    description:
      'A field with no value is absent, so only the required ones always have one (exclude= may still drop them); password and hidden fields never appear.',
    required: visible.filter((f) => f.required && f.type !== 'relation').map((f) => f.name),
    properties: Object.fromEntries(visible.map((f): [string, Json] => [f.name, fieldValue(f, project.id)])),
  };
}

function entrySchema(project: ProjectRecord, col: CollectionRecord): Obj {
  const n = names(project.id, col.slug);
  const stamp = { ...ISO, description: `${ISO.description as string}; only with ?timestamps (any value)` };
  return {
    type: 'object',
    title: col.name,
    description: 'An entry as ElmapiCMS v3 shows it. fields is [] when no field has a value (also for a relation cycle, shown as a stub).',
    required: ['uuid', 'locale', 'published_at', 'fields'],
    properties: {
      uuid: { type: 'string', format: 'uuid' },
      locale: nullable({ type: 'string', enum: [...project.locales] }),
      published_at: nullable(ISO),
      fields: { anyOf: [ref(n.fields), EMPTY] },
      created_at: stamp,
      updated_at: stamp,
    },
  };
}

function pageSchema(item: Obj, description: string): Obj {
  return {
    type: 'object',
    description,
    required: ['data', 'links', 'meta'],
    properties: { data: { type: 'array', items: item }, links: ref('Elmapi3PageLinks'), meta: ref('Elmapi3PageMeta') },
  };
}

/** The schemas every elmapi3 project shares (once per document). */
export function elmapi3SharedSchemas(): Obj {
  const url = nullable({ type: 'string', format: 'uri' });
  const field: Obj = {
    type: 'object',
    required: ['id', 'uuid', 'type', 'label', 'name', 'description', 'placeholder', 'options', 'validations', 'order', 'parent_field_id'],
    properties: {
      id: { type: 'integer' },
      uuid: { type: 'string' },
      type: {
        type: 'string',
        enum: [...V3_FIELD_TYPES],
      },
      label: { type: 'string' },
      name: { type: 'string' },
      description: nullable({ type: 'string' }),
      placeholder: nullable({ type: 'string' }),
      options: { anyOf: [{ type: 'object' }, EMPTY] },
      validations: nullable({ type: 'object' }),
      order: { type: 'integer' },
      parent_field_id: nullable({ type: 'integer' }),
    },
  };
  const collection = (withFields: boolean): Obj => ({
    type: 'object',
    required: ['uuid', 'name', 'slug', 'is_singleton', 'created_at', 'updated_at', ...(withFields ? ['fields'] : [])],
    properties: {
      uuid: { type: 'string' },
      name: { type: 'string' },
      slug: { type: 'string' },
      is_singleton: { type: 'boolean' },
      created_at: CARBON,
      updated_at: CARBON,
      fields: {
        type: 'array',
        items: ref('Elmapi3Field'),
        description: withFields ? 'flat: each field, then its group children' : 'only with ?with=fields',
      },
    },
  });
  const nullInt = nullable({ type: 'integer' });
  const nullText = nullable({ type: 'string' });
  return {
    Elmapi3Project: {
      type: 'object',
      required: ['uuid', 'name', 'description', 'preview_url', 'default_locale', 'locales'],
      properties: {
        uuid: { type: 'string', format: 'uuid' },
        name: { type: 'string' },
        description: nullText,
        preview_url: nullText,
        default_locale: nullText,
        locales: { type: 'array', items: { type: 'string' } },
        collections: {
          type: 'array',
          items: ref('Elmapi3Collection'),
          description: 'only with ?with=collections (and ?with=fields: with their fields)',
        },
      },
    },
    Elmapi3Field: field,
    Elmapi3Collection: collection(false),
    Elmapi3CollectionWithFields: collection(true),
    Elmapi3CollectionList: { type: 'array', items: ref('Elmapi3Collection') },
    Elmapi3Asset: {
      type: 'object',
      required: ['uuid', 'filename', 'mime_type', 'size', 'url', 'original_url', 'thumbnail_url', 'pending_image_processing', 'metadata'],
      properties: {
        uuid: { type: 'string' },
        filename: { type: 'string' },
        mime_type: { type: 'string' },
        size: { type: 'string', pattern: '^[\\d,]+( bytes|\\.\\d\\d (KB|MB|GB))$', description: '"100 bytes", "35.12 KB", "1.50 MB"' },
        url: { type: 'string', format: 'uri' },
        original_url: url,
        thumbnail_url: url,
        pending_image_processing: { type: 'boolean' },
        metadata: nullable({
          type: 'object',
          properties: {
            width: nullInt,
            height: nullInt,
            duration: nullable({ type: 'number' }),
            bitrate: nullInt,
            framerate: nullable({ type: 'number' }),
            channels: nullInt,
            alt_text: nullText,
            title: nullText,
            caption: nullText,
            description: nullText,
            author: nullText,
            copyright: nullText,
            metadata: nullable({ type: 'object' }),
            created_at: CARBON,
            updated_at: CARBON,
          },
        }),
      },
    },
    Elmapi3AssetPage: pageSchema(ref('Elmapi3Asset'), 'A page of assets (always paginated: 25 by default, paginate=N up to 100)'),
    Elmapi3PageLinks: {
      type: 'object',
      required: ['first', 'last', 'prev', 'next'],
      properties: { first: { type: 'string', format: 'uri' }, last: { type: 'string', format: 'uri' }, prev: url, next: url },
    },
    Elmapi3PageMeta: {
      type: 'object',
      required: ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total'],
      properties: {
        current_page: { type: 'integer', minimum: 1 },
        from: nullInt,
        last_page: { type: 'integer', minimum: 1 },
        links: {
          type: 'array',
          items: {
            type: 'object',
            required: ['url', 'label', 'active'],
            properties: { url, label: { type: 'string' }, page: nullInt, active: { type: 'boolean' } },
          },
        },
        path: { type: 'string', format: 'uri' },
        per_page: { type: 'integer', minimum: 1 },
        to: nullInt,
        total: { type: 'integer', minimum: 0 },
      },
    },
    Elmapi3Count: {
      type: 'object',
      description: 'A list asked with ?count (any value): the number of matches, limit/offset/paginate ignored',
      required: ['count'],
      properties: { count: { type: 'integer', minimum: 0 } },
    },
    Elmapi3Version: {
      type: 'object',
      required: [
        'uuid',
        'version_number',
        'label',
        'description',
        'locale',
        'translation_group_id',
        'published_at',
        'created_at',
        'updated_at',
        'is_current_published',
        'created_by',
      ],
      properties: {
        uuid: { type: 'string' },
        version_number: { type: 'integer', minimum: 1 },
        label: nullText,
        description: nullText,
        locale: nullText,
        translation_group_id: nullable({ type: 'string' }),
        published_at: nullable(ISO),
        created_at: nullable(ISO),
        updated_at: nullable(ISO),
        is_current_published: { type: 'boolean' },
        created_by: nullable({ type: 'object' }),
        snapshot: { type: 'object', description: 'only on /versions/{version}' },
      },
    },
    Elmapi3VersionList: { type: 'array', items: ref('Elmapi3Version') },
    Elmapi3Message: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    Elmapi3AssetError: { type: 'object', required: ['error'], properties: { error: { const: 'Asset not found' } } },
    Elmapi3Validation: {
      type: 'object',
      description: "Laravel's validation answer (strict: true, cqa serve --strict): the first problem, and every problem by parameter",
      required: ['message', 'errors'],
      properties: {
        message: { type: 'string' },
        errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
  };
}

/** The schemas of one elmapi3 project: per collection the entry, its fields, its list and its page. */
export function elmapi3Schemas(project: ProjectRecord): Obj {
  const out: Obj = {};
  for (const c of project.collections) {
    const n = names(project.id, c.slug);
    out[n.entry] = entrySchema(project, c);
    out[n.fields] = fieldsSchema(project, c);
    if (!c.singleton) {
      out[n.list] = { type: 'array', description: 'A list answer: a bare array', items: ref(n.entry) };
      out[n.page] = pageSchema(ref(n.entry), 'A list asked with ?paginate=N (&page=M): Laravel’s envelope; links carry the query');
    }
  }
  return out;
}

const message = (description: string): Obj => ({ description, content: { [JSON_TYPE]: { schema: ref('Elmapi3Message') } } });

/** The dialect's error responses (components/responses). */
export function elmapi3Responses(): Obj {
  return {
    Elmapi3HeaderMissing: message('Project header missing. (the project-id header)'),
    Elmapi3Unauthorized: message('Unauthenticated. (no token for a project that is not public, a token of another project, a uak_ key)'),
    Elmapi3Forbidden: message(
      "Forbidden. (a token without read; state=draft without the drafts scope) or API token doesn't have the right abilities! (files and versions without a token)",
    ),
    Elmapi3NotFound: message(
      'Project not found., Collection not found., Content not found., Version not found., Translation not found for locale …, This entry has no translations linked.',
    ),
    Elmapi3AssetNotFound: { description: 'An unknown asset', content: { [JSON_TYPE]: { schema: ref('Elmapi3AssetError') } } },
    Elmapi3Unprocessable: {
      description:
        'An array where ElmapiCMS reads one string (sort[]=, with[]=, state[]=; ElmapiCMS itself crashes with a 500), a query over the cost budget, and with strict: true (or cqa serve --strict) what ElmapiCMS silently accepts, by parameter',
      content: { [JSON_TYPE]: { schema: ref('Elmapi3Validation') } },
    },
  };
}

const headerParam = (project: ProjectRecord): Obj => ({
  name: 'project-id',
  in: 'header',
  required: true,
  description: 'the project uuid (ElmapiCMS v3 names the project in this header, not in the path)',
  schema: { type: 'string', enum: [project.id] },
});

const query = (name: string, description: string, schema: Obj = { type: 'string' }, extra: Obj = {}): Obj => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
  ...extra,
});
const flag = (name: string, description: string): Obj =>
  query(
    name,
    `${description}; on whenever present, whatever its value (timestamps=false too)`,
    { type: 'string' },
    { allowEmptyValue: true },
  );

const Q = {
  state: query('state', 'draft: drafts only (their live values; needs a token with the drafts scope here); anything else: published'),
  locale: query('locale', 'only entries in this locale'),
  exclude: query('exclude', 'a,b: leave these fields out, in groups and embedded entries too'),
  timestamps: flag('timestamps', 'adds created_at and updated_at'),
  where: query(
    'where',
    'where[f]=v, where[f][op]=v (eq lt lte gt gte not like in not_in null not_null between not_between), where[rel][g]=v, where[0][f]…, where[or][0][f]…; never an error: see X-Cqa-Warning',
    { type: 'object', additionalProperties: true },
    { style: 'deepObject', explode: true },
  ),
  sort: query('sort', 'f[:asc|:desc][,…]; a custom field sorts only with paginate'),
  limit: query('limit', 'at most this many (with offset: skip that many first)', { type: 'integer' }),
  offset: query('offset', 'only with limit', { type: 'integer' }),
  paginate: query('paginate', 'N per page: the answer is Laravel’s {data, links, meta}', { type: 'integer' }),
  page: query('page', 'with paginate: the page, from 1', { type: 'integer' }),
  count: flag('count', '{"count": n}'),
  first: flag('first', 'the first match alone (404 Content not found. without one)'),
  translation_locale: query('translation_locale', 'the entry of the same translation group in this locale'),
  with: query('with', 'collections, fields, or collections,fields'),
  search: query('search', 'part of the file name or MIME type'),
  type: query('type', 'image, video, audio or document', { type: 'string', enum: ['image', 'video', 'audio', 'document'] }),
};

function ok(description: string, schema: Obj): Obj {
  return {
    description,
    headers: {
      'X-Cqa-Warning': {
        schema: { type: 'string' },
        description: 'what ElmapiCMS did silently with the request and how to ask instead; several joined by " | "',
      },
      'X-RateLimit-Limit': { schema: { type: 'integer' }, description: '300, as ElmapiCMS sends (nothing is counted)' },
    },
    content: { [JSON_TYPE]: { schema } },
  };
}

function operation(
  project: ProjectRecord,
  id: string,
  summary: string,
  params: Obj[],
  okResponse: Obj,
  errors: Record<string, string>,
  tokenNeeded = false,
): Obj {
  const r = (name: string): Obj => ({ $ref: `#/components/responses/${name}` });
  return {
    get: {
      operationId: id,
      summary,
      tags: [project.id],
      security: project.public && !tokenNeeded ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }],
      parameters: [headerParam(project), ...params],
      responses: {
        '200': okResponse,
        '400': r('Elmapi3HeaderMissing'),
        '401': r('Elmapi3Unauthorized'),
        '403': r('Elmapi3Forbidden'),
        ...Object.fromEntries(Object.entries(errors).map(([status, name]) => [status, r(name)])),
      },
    },
  };
}

const NOT_FOUND = { '404': 'Elmapi3NotFound' };
const QUERIED = { '404': 'Elmapi3NotFound', '422': 'Elmapi3Unprocessable' };

/** The paths of one elmapi3 project (mergeElmapi3Paths joins those of several). */
export function elmapi3Paths(project: ProjectRecord): Obj {
  const out: Obj = {
    '/api': operation(
      project,
      OPERATION_IDS.project,
      `Project ${project.name}`,
      [Q.with],
      ok('The project', ref('Elmapi3Project')),
      QUERIED,
    ),
    '/api/collections': operation(
      project,
      'listCollections',
      'The collections',
      [],
      ok('The collections, without their fields', ref('Elmapi3CollectionList')),
      NOT_FOUND,
    ),
    '/api/collections/{slug}': operation(
      project,
      'getCollection',
      'One collection with its fields',
      [pathParam('slug', 'the collection slug')],
      ok('The collection', ref('Elmapi3CollectionWithFields')),
      NOT_FOUND,
    ),
  };
  for (const c of project.collections) {
    const n = names(project.id, c.slug);
    const entry = ref(n.entry);
    const listed = c.singleton
      ? ok(`${markdownText(c.name)}: a singleton, so its one entry (in the default locale unless locale= is given)`, entry)
      : ok(markdownText(c.name), {
          oneOf: [ref(n.list), ref(n.page), ref('Elmapi3Count'), entry],
          description: 'a bare array; with ?paginate the page; with ?count {"count": n}; with ?first one bare entry',
        });
    const params = c.singleton
      ? [Q.state, Q.locale, Q.where, Q.exclude, Q.timestamps]
      : [Q.state, Q.locale, Q.where, Q.sort, Q.limit, Q.offset, Q.paginate, Q.page, Q.count, Q.first, Q.exclude, Q.timestamps];
    out[`/api/${c.slug}`] = operation(project, listEntriesId(c.slug), `List ${c.name}`, params, listed, QUERIED);
    const uuid = pathParam('uuid', 'the entry uuid');
    out[`/api/${c.slug}/{uuid}`] = operation(
      project,
      getEntryId(c.slug),
      `One entry of ${c.name}`,
      [uuid, Q.state, Q.locale, Q.translation_locale, Q.exclude, Q.timestamps],
      ok('The entry', entry),
      QUERIED,
    );
    const one = singular(pascalCase(c.slug));
    out[`/api/${c.slug}/{uuid}/versions`] = operation(
      project,
      `list${one}Versions`,
      `Versions of an entry of ${c.name}`,
      [uuid],
      ok('Its versions, newest first', ref('Elmapi3VersionList')),
      NOT_FOUND,
      true,
    );
    out[`/api/${c.slug}/{uuid}/versions/{version}`] = operation(
      project,
      `get${one}Version`,
      `One version of an entry of ${c.name}`,
      [uuid, { ...pathParam('version', 'the version number'), schema: { type: 'string', pattern: '^\\d+$' } }],
      ok('The version, with its snapshot', ref('Elmapi3Version')),
      NOT_FOUND,
      true,
    );
  }
  const asset = ok('The asset', ref('Elmapi3Asset'));
  out['/api/files'] = operation(
    project,
    'listFiles',
    'The assets, a page at a time',
    [Q.paginate, Q.page, Q.search, Q.type],
    ok('A page of assets', ref('Elmapi3AssetPage')),
    { '422': 'Elmapi3Unprocessable' },
    true,
  );
  out['/api/files/{identifier}'] = operation(
    project,
    'getFile',
    'One asset by uuid or number',
    [pathParam('identifier', 'the asset uuid or number')],
    asset,
    { '404': 'Elmapi3AssetNotFound' },
    true,
  );
  out['/api/files/name/{filename}'] = operation(
    project,
    'getFileByName',
    'One asset by file name',
    [pathParam('filename', 'the file name')],
    asset,
    { '404': 'Elmapi3AssetNotFound' },
    true,
  );
  out[`/media/${project.id}/{media_path}`] = mediaFileOperation(
    project,
    pathParam('media_path', "the file's path under media/ (an asset's url)"),
    'Elmapi3AssetNotFound',
  );
  return out;
}

type Operation = { get: Obj };

/**
 * Adds `more` (the paths of another elmapi3 project) to `paths`: a path both have answers either
 * project, told apart by the project-id header (its enum lists both; the 200 answers either
 * project's shape). A path another dialect already describes stays as it is (that project answers
 * it without the header).
 */
export function mergeElmapi3Paths(paths: Obj, more: Obj, v3Paths: Set<string>): void {
  for (const [path, item] of Object.entries(more)) {
    const had = paths[path] as Operation | undefined;
    if (!had) {
      paths[path] = item;
      v3Paths.add(path);
      continue;
    }
    if (!v3Paths.has(path)) continue;
    const a = had.get;
    const b = (item as Operation).get;
    const params = a.parameters as Obj[];
    const header = params[0] as { schema: { enum: string[] } };
    header.schema.enum.push(...(b.parameters as { schema: { enum: string[] } }[])[0]!.schema.enum);
    for (const p of (b.parameters as Obj[]).slice(1)) if (!params.some((q) => q.name === p.name && q.in === p.in)) params.push(p);
    (a.tags as string[]).push(...(b.tags as string[]));
    const okA = (a.responses as Obj)['200'] as { content: { [k: string]: { schema: Obj } } };
    const okB = (b.responses as Obj)['200'] as { content: { [k: string]: { schema: Obj } } };
    const sa = okA.content[JSON_TYPE]!.schema;
    const sb = okB.content[JSON_TYPE]!.schema;
    if (JSON.stringify(sa) !== JSON.stringify(sb))
      okA.content[JSON_TYPE]!.schema = {
        anyOf: [...((sa.anyOf as Obj[] | undefined) ?? [sa]), sb],
        description: 'the answer of the project the project-id header names',
      };
    // A public project's reads need no token: the merged path needs one if either does.
    if ((b.security as Json[]).length === 1) a.security = b.security as Json;
    a.responses = { ...(b.responses as Obj), ...(a.responses as Obj) };
  }
}
