// What the explorer knows about the projects it may show, learnt from the API alone: the OpenAPI
// document (both dialects) and, for a `cqa` project, its own answer (names, counts, field types,
// enumeration values, relation targets). Which operators a field takes comes from the engine's
// own table (src/core/query/operators.ts), so the form offers exactly what the API accepts.
import type { FieldType } from '../../../model/model.js';
import { validOps, type Op } from '../../../query/operators.js';
import { kindOf } from '../../../query/values.js';

export interface Field {
  readonly name: string;
  readonly type: FieldType;
  readonly multiple: boolean;
  /** enumeration (and the `locale` system field): the values it may hold. */
  readonly values?: readonly string[];
  /** relation: the slug of the target collection. */
  readonly collection?: string;
  /** id, locale and the timestamps: in every collection, not in its schema. */
  readonly system?: boolean;
  /** A date or datetime whose value is `{ start, end }`. */
  readonly range?: boolean;
}

export interface Collection {
  readonly slug: string;
  name: string;
  count: number | null;
  fields: Field[];
  /** An elmapi3 singleton: one entry, which v3 answers without a count or a limit (it warns of both). */
  readonly singleton?: true;
}

export interface Project {
  readonly id: string;
  name: string;
  dialect: 'cqa' | 'elmapi' | 'elmapi3' | '';
  /** Readable without a token (public). */
  readonly open: boolean;
  /** A public project that is not the token's own: asked without the token. */
  anonymous: boolean;
  locales: string[];
  collections: Collection[];
  /** What the server said when the project's own answer failed. */
  problem?: string;
}

export const TIMESTAMPS = ['created_at', 'updated_at', 'published_at'] as const;

/**
 * The operators `field` takes, in the engine's order; in an elmapi3 project (`v3`), those that
 * select anything there (elmapi3-dialect.md §3.3: v3 accepts every operator on every field, and
 * e.g. `in` on a number or any operator on a date matches nothing).
 */
export function opsOf(field: Pick<Field, 'type' | 'multiple' | 'system' | 'range'>, v3 = false): readonly Op[] {
  if (!v3) return validOps({ kind: kindOf(field), multiple: field.multiple });
  // The entry's own columns (uuid, locale, the timestamps) are compared as SQL does, with every
  // operator v3 has (V3_OPERATORS of elmapi3/where.ts; one cqa adds would be read as a relation filter).
  if (field.system) return V3_SYSTEM_OPS;
  return V3_OPS[field.type] ?? ['eq', 'not', 'like', 'in', 'not_in', 'lt', 'lte', 'gt', 'gte', 'not_null'];
}

const V3_SYSTEM_OPS: readonly Op[] = [
  'eq',
  'lt',
  'lte',
  'gt',
  'gte',
  'not',
  'like',
  'in',
  'not_in',
  'null',
  'not_null',
  'between',
  'not_between',
];

/** What selects anything in v3, by field type (any other type is text-like, compared as text). */
const V3_OPS: Partial<Record<FieldType, readonly Op[]>> = {
  number: ['eq', 'lt', 'lte', 'gt', 'gte', 'between', 'not_between', 'not_null'],
  boolean: ['eq', 'not_null'],
  enumeration: ['eq', 'not', 'in', 'not_in', 'not_null'],
  date: ['not_null'],
  datetime: ['not_null'],
  json: ['eq', 'in', 'not_null'],
  relation: ['null', 'not_null'],
  media: [],
  group: [],
};

/** The fields a where-clause or a sort may name: id (an elmapi3 entry's uuid), locale, the visible fields, the timestamps. */
export function filterable(project: Project, collection: Collection): Field[] {
  const own = new Set(collection.fields.map((f) => f.name));
  const system: Field[] = [
    { name: project.dialect === 'elmapi3' ? 'uuid' : 'id', type: 'text', multiple: false, system: true },
    { name: 'locale', type: 'enumeration', multiple: false, values: project.locales, system: true },
  ];
  return [
    ...system.filter((f) => !own.has(f.name)),
    ...collection.fields,
    ...TIMESTAMPS.filter((t) => !own.has(t)).map((t): Field => ({ name: t, type: 'datetime', multiple: false, system: true })),
  ];
}

/** `type (multiple)` as the page shows a field. */
export function describeField(f: Field): string {
  return f.type + (f.multiple ? ', multiple' : '') + (f.collection ? ` → ${f.collection}` : '');
}

// ---------------------------------------------------------------------------------------------
// The OpenAPI document

type Json = { readonly [k: string]: unknown };
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isObj(v) ? v : {});

/** The name of the schema a `$ref` points to (`#/components/schemas/<name>`), if it is one. */
function refName(s: Json): string | undefined {
  const r = s.$ref;
  return typeof r === 'string' && r.startsWith('#/components/schemas/')
    ? r.slice('#/components/schemas/'.length).replace(/~1/g, '/').replace(/~0/g, '~')
    : undefined;
}

function deref(doc: Json, s: unknown): Json {
  let cur = obj(s);
  for (let n = 0; typeof cur.$ref === 'string' && n < 20; n++) {
    const path = cur.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    let at: unknown = doc;
    for (const k of path) at = obj(at)[k];
    cur = obj(at);
  }
  return cur;
}

const alternatives = (s: Json): unknown[] => (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : []);

/** A field as the OpenAPI document describes its values (both dialects' entry schemas). */
function fieldOf(doc: Json, name: string, schema: unknown, projectId: string): Field {
  let s = obj(schema);
  let multiple = false;
  const t0 = deref(doc, s);
  if (t0.type === 'array') {
    multiple = true;
    s = obj(t0.items);
  }
  // A relation is an embedded entry of the target (`<project>.<slug>` or its `.shallow` form).
  const ref = refName(s);
  if (ref?.startsWith(`${projectId}.`)) {
    const slug = ref.slice(projectId.length + 1).replace(/\.shallow$/, '');
    return { name, type: 'relation', multiple, collection: slug };
  }
  const d = deref(doc, s);
  const props = obj(d.properties);
  if ('file_name' in props && 'full_url' in props) return { name, type: 'media', multiple };
  const alt = alternatives(d)
    .map((a) => deref(doc, a))
    .find((a) => a.type !== 'null');
  if (alt) return { ...fieldOf(doc, name, alt, projectId), multiple: multiple || alt.type === 'array' };
  const type = Array.isArray(d.type) ? (d.type as unknown[]).find((x) => x !== 'null') : d.type;
  // The elmapi dialect's multiple enumeration: one string of values joined by commas.
  const joined = d['x-cqa-enum'];
  if (Array.isArray(joined))
    return { name, type: 'enumeration', multiple: true, values: joined.filter((v): v is string => typeof v === 'string') };
  if (Array.isArray(d.enum)) {
    const values = d.enum.filter((v): v is string => typeof v === 'string');
    if (values.length) return { name, type: 'enumeration', multiple, values };
  }
  if (type === 'integer' || type === 'number') return { name, type: 'number', multiple };
  if (type === 'boolean') return { name, type: 'boolean', multiple };
  if (d.contentMediaType === 'application/json' || type === 'object' || type === undefined) return { name, type: 'json', multiple };
  if (d.format === 'date') return { name, type: 'date', multiple };
  if (d.format === 'date-time') return { name, type: 'datetime', multiple };
  return { name, type: 'text', multiple };
}

/** An elmapi3 route (`/api/products` with a `project-id` header): no project in its path. */
function headerRouted(root: Json, pathItem: unknown): boolean {
  const params = obj(obj(pathItem).get).parameters;
  return (
    Array.isArray(params) &&
    params.some((x) => {
      const param = deref(root, x);
      return param.in === 'header' && param.name === 'project-id';
    })
  );
}

/** Whether a path item's GET needs no token (public). */
function openTo(pathItem: unknown): boolean {
  const sec = obj(obj(pathItem).get).security;
  return Array.isArray(sec) && (sec.length === 0 || sec.some((s) => Object.keys(obj(s)).length === 0));
}

/**
 * The projects and collections an OpenAPI document of this server describes. elmapi3 projects
 * share routes that name no project (the `project-id` header does): they are the values that
 * header takes at `/api`, their collections learnt from their own answers (fromV3Answers).
 */
export function fromOpenApi(doc: unknown): Project[] {
  const root = obj(doc);
  const paths = obj(root.paths);
  const byId = new Map<string, Project>();
  if (headerRouted(root, paths['/api'])) {
    const params = obj(obj(paths['/api']).get).parameters;
    const header = (Array.isArray(params) ? params : []).map((x) => deref(root, x)).find((x) => x.name === 'project-id');
    const ids = obj(header?.schema).enum;
    const open = openTo(paths['/api']);
    for (const id of Array.isArray(ids) ? ids : [])
      if (typeof id === 'string') byId.set(id, { id, name: id, dialect: 'elmapi3', open, anonymous: false, locales: [], collections: [] });
  }
  for (const p of Object.keys(paths)) {
    const m = /^\/api\/([^/{}]+)$/.exec(p);
    if (!m || headerRouted(root, paths[p])) continue;
    const id = m[1] as string;
    byId.set(id, { id, name: id, dialect: '', open: openTo(paths[p]), anonymous: false, locales: [], collections: [] });
  }
  for (const p of Object.keys(paths)) {
    const m = /^\/api\/([^/{}]+)\/([^/{}]+)$/.exec(p);
    const project = m && byId.get(m[1] as string);
    if (!m || !project || m[2] === 'project-media') continue;
    const one = Object.keys(paths).find((q) => q.startsWith(`${p}/{`));
    const ok = one ? deref(root, obj(obj(obj(paths[one]).get).responses)['200']) : {};
    let schema = deref(root, obj(obj(ok.content)['application/json']).schema);
    const data = obj(schema.properties).data;
    if (data && !obj(schema.properties).id) schema = deref(root, data);
    const props = obj(schema.properties);
    if (!project.locales.length && props.locale) {
      const locale = fieldOf(root, 'locale', props.locale, project.id);
      project.locales = [...(locale.values ?? [])];
    }
    const fields = Object.keys(props)
      .filter((n) => n !== 'id' && n !== 'locale' && !(TIMESTAMPS as readonly string[]).includes(n))
      .map((n) => fieldOf(root, n, props[n], project.id));
    project.collections.push({
      slug: m[2] as string,
      name: typeof schema.title === 'string' ? schema.title : (m[2] as string),
      count: null,
      fields,
    });
  }
  return [...byId.values()];
}

/** A `cqa` project's own answer (`GET /api/<project>`): its collections as the server lists them. */
export function fromProjectAnswer(project: Project, data: Json): void {
  project.dialect = 'cqa';
  if (typeof data.name === 'string' && data.name) project.name = data.name;
  if (Array.isArray(data.locales)) project.locales = data.locales.filter((l): l is string => typeof l === 'string');
  const cols = Array.isArray(data.collections) ? data.collections.map(obj) : [];
  project.collections = cols.map((c) => ({
    slug: String(c.slug),
    name: typeof c.name === 'string' ? c.name : String(c.slug),
    count: typeof c.count === 'number' ? c.count : null,
    fields: (Array.isArray(c.fields) ? c.fields.map(obj) : []).map((f) => ({
      name: String(f.name),
      type: String(f.type) as FieldType,
      multiple: f.multiple === true,
      ...(Array.isArray(f.values) ? { values: f.values.filter((v): v is string => typeof v === 'string') } : {}),
      ...(typeof f.collection === 'string' ? { collection: f.collection } : {}),
      // A date range takes null/not_null only (kindOf): kept, or its form offered date operators (round two).
      ...(f.range === true ? { range: true } : {}),
    })),
  }));
}

/**
 * An elmapi3 project's own answers: `GET /api` (name, locales) and `GET /api/collections/<slug>`
 * of each collection (its flat field list: a group's children, hidden and password fields are
 * nothing a where-condition can name).
 */
export function fromV3Answers(project: Project, own: Json, collections: readonly Json[]): void {
  if (typeof own.name === 'string' && own.name) project.name = own.name;
  if (Array.isArray(own.locales)) project.locales = own.locales.filter((l): l is string => typeof l === 'string');
  project.collections = collections.map((c) => ({
    slug: String(c.slug),
    name: typeof c.name === 'string' ? c.name : String(c.slug),
    count: null,
    fields: (Array.isArray(c.fields) ? c.fields.map(obj) : [])
      .filter((f) => f.parent_field_id === null && f.type !== 'password' && obj(f.options).hiddenInAPI !== true)
      .map(v3Field),
    ...(c.is_singleton === true ? { singleton: true as const } : {}),
  }));
}

function v3Field(f: Json): Field {
  const options = obj(f.options);
  const relation = obj(options.relation);
  let type = String(f.type) as FieldType;
  // v3's richtext that answers Markdown, and its date that keeps the time (src/core/http/elmapi3/handler.ts).
  if (type === 'richtext' && obj(options.editor).outputFormat === 'markdown') type = 'markdown';
  if (type === 'date' && options.includeTime === true) type = 'datetime';
  return {
    name: String(f.name),
    type,
    multiple: type === 'relation' ? relation.type === 2 : options.multiple === true,
    ...(Array.isArray(options.values) ? { values: options.values.filter((v): v is string => typeof v === 'string') } : {}),
    ...(type === 'relation' && typeof relation.collection === 'string' ? { collection: relation.collection } : {}),
  };
}

/** A field of an answer that may stand for an entry when a relation lists it: title, name, … */
export function labelField(c: Collection | undefined): string | undefined {
  if (!c) return undefined;
  const texts = c.fields.filter((f) => !f.multiple && (f.type === 'text' || f.type === 'slug' || f.type === 'email'));
  return (texts.find((f) => /^(title|name|label|headline|file_name)$/i.test(f.name)) ?? texts[0])?.name;
}
