// The `elmapi3` dialect (today's ElmapiCMS v3/4.0, shared/elmapi3-dialect.md) read back into a
// content model. Every request carries the `project-id` header (fetch.ts). The schema comes from
// `/api/collections/{slug}` (a flat field list, group children after their group), the entries
// from every `paginate` page of `/api/{slug}?timestamps` (drafts with `state=draft`; a singleton's
// list route answers one entry, so it is read once per locale), translation groups from
// `/api/{slug}/{uuid}?translation_locale=…`, the assets from every page of `/api/files`, each
// downloaded from its `original_url` (else `url`). Entries are written with their uuids; the
// members of a translation group share a file name (`<uuid>.yaml`, `<uuid>.fr.yaml`), as the
// loader groups them.
import type { FieldDef, FieldType, JsonValue } from '../../core/model/model.js';
import { richtextReady } from '../content/richtext.js';
import { mediaUuid } from '../content/uuid.js';
import { expectShape, isObject, listedSlug, mediaPathOf, readJson } from './answers.js';
import { overLimit } from './limits.js';
import { V3_FIELD_TYPES } from '../../core/dialects/elmapi3.js';
import { PullError, type PulledCollection, type PulledEntry, type PulledMedia, type PulledProject } from './model.js';
import { isPublic, readDocument, type ReadOptions } from './read-options.js';
import { entryRichtext } from './richtext.js';

type Raw = Record<string, JsonValue>;
/** `/api/files` pages hold at most 100 assets. */
const MAX_FILES_PAGE = 100;

/** `2026-03-01T09:00:00+00:00` → `2026-03-01T09:00:00Z`. */
function isoFrom(v: JsonValue | undefined): string | null {
  return typeof v === 'string' ? v.replace(/\+00:00$/, 'Z') : null;
}

/** Every item of a Laravel-paginated list, page by page until meta.last_page. */
async function pages(o: ReadOptions, path: string, query: string, what: string, perPage: number): Promise<Raw[]> {
  const items: Raw[] = [];
  let last = '';
  for (let page = 1; ; page++) {
    if (page > o.limits.maxPages) throw overLimit(o.limits, 'maxPages', what);
    const p = `${path}?${query ? `${query}&` : ''}paginate=${perPage}&page=${page}`;
    const url = o.fetcher.url(p).href;
    const body = await readDocument(o, p, what, 'check --project (the project uuid) and --collections');
    expectShape(
      isObject(body) && Array.isArray(body.data) && isObject(body.meta),
      url,
      'Laravel’s {"data": […], "links": {…}, "meta": {…}} (the elmapi3 dialect: is this ElmapiCMS v3?)',
      true,
    );
    const data = (body.data as JsonValue[]).filter(isObject) as Raw[];
    const lastPage = (body.meta as Raw).last_page;
    expectShape(Number.isSafeInteger(lastPage) && (lastPage as number) >= 1, url, '"meta.last_page", a positive integer');
    const same = JSON.stringify(data);
    if (data.length > 0 && same === last)
      throw new PullError(`${url}: the page repeats the one before (page ignored?); cannot read ${what} to its end`);
    last = same;
    if (items.length + data.length > o.limits.maxEntries) throw overLimit(o.limits, 'maxEntries', what);
    for (const item of data) items.push(item); // a loop: a page of 100,000s is more arguments than the stack holds
    if (page >= (lastPage as number) || data.length === 0) return items;
  }
}

/** A field of `/api/collections/{slug}` (and its children) as the content schema has it. */
function fieldFrom(raw: Raw, children: readonly Raw[], slug: string, slugOf: (ref: JsonValue | undefined) => string | undefined): FieldDef {
  const name = String(raw.name);
  const type = String(raw.type);
  if (!V3_FIELD_TYPES.includes(type)) throw new PullError(`collection '${slug}', field '${name}': unknown type '${type}'`);
  const options = isObject(raw.options) ? (raw.options as Raw) : {};
  const relation = isObject(options.relation) ? (options.relation as Raw) : undefined;
  const validations = isObject(raw.validations) ? (raw.validations as Raw) : {};
  const required = isObject(validations.required) && (validations.required as Raw).status === true;
  const multiple = relation ? relation.type === 2 : options.multiple === true;
  const field: { -readonly [K in keyof FieldDef]: FieldDef[K] } = {
    name,
    type: type as FieldType,
    required,
    multiple,
    hidden: type === 'password' || options.hiddenInAPI === true,
  };
  if (Array.isArray(options.values)) field.values = options.values.map(String);
  if (type === 'relation') {
    const target = slugOf(relation?.collection);
    if (target === undefined)
      throw new PullError(
        `collection '${slug}', field '${name}': relates to collection ${JSON.stringify(relation?.collection ?? null)}, which is not pulled: add it to --collections`,
        true,
      );
    field.collection = target;
  }
  if (type === 'group') {
    field.fields = children.map((c) => fieldFrom(c, [], slug, slugOf));
    if (options.repeatable === true) field.repeatable = true;
  }
  if (type === 'date' && options.mode === 'range') field.range = true;
  // v3's richtext that answers its Markdown as written is a markdown field; a date with its time, a datetime.
  const editor = isObject(options.editor) ? (options.editor as Raw) : {};
  if (type === 'richtext' && editor.outputFormat === 'markdown') field.type = 'markdown';
  if (type === 'date' && options.includeTime === true) field.type = 'datetime';
  return field;
}

export async function readElmapi3(o: ReadOptions): Promise<PulledProject> {
  await richtextReady(true); // htmlToMarkdown() renders its Markdown again (marked imported: it may not be requirable)
  const { fetcher, project } = o;
  const doc = await readDocument(
    o,
    '/api',
    `project '${project}'`,
    'check the base URL (the part before /api) and --project (the project uuid, sent as the project-id header)',
  );
  expectShape(
    isObject(doc) && typeof doc.uuid === 'string' && Array.isArray(doc.locales),
    fetcher.url('/api').href,
    '{"uuid", "name", …, "default_locale", "locales"} (ElmapiCMS v3); for another API pass its --dialect',
    true,
  );
  if (doc.uuid !== project)
    throw new PullError(
      `${fetcher.url('/api').href}: the answer is for project ${JSON.stringify(doc.uuid)}, not '${project}': check --project`,
    );
  const locales = (doc.locales as JsonValue[]).map(String);
  const defaultLocale = typeof doc.default_locale === 'string' ? doc.default_locale : (locales[0] ?? 'en');

  const listed = await readDocument(o, '/api/collections', 'the collections', 'check --project');
  expectShape(Array.isArray(listed) && listed.every(isObject), fetcher.url('/api/collections').href, 'a JSON array of collections');
  const all = listed as Raw[];
  const slugs = all.map((c) => String(c.slug));
  for (const wanted of o.collections ?? []) {
    if (!slugs.includes(wanted))
      throw new PullError(`--collections: project '${project}' has no collection '${wanted}'; it has ${slugs.join(', ') || 'none'}`, true);
  }
  const chosen = all.filter((c) => !o.collections || o.collections.includes(String(c.slug)));
  const pulled = new Set(chosen.map((c) => String(c.slug)));
  // A relation names its target by slug (or, in ElmapiCMS, by the collection's id or uuid).
  const slugOf = (ref: JsonValue | undefined): string | undefined => {
    const c = all.find((x) => x.slug === ref || x.uuid === ref || (ref !== undefined && ref !== null && x.id === ref));
    return c && pulled.has(String(c.slug)) ? String(c.slug) : undefined;
  };

  // The assets first: media fields name them.
  const files = await pages(o, '/api/files', '', 'the assets (/api/files)', Math.min(o.pageSize, MAX_FILES_PAGE));
  const media = files.map((a) => assetFrom(a, project, o));
  const pathOf = new Map(files.map((a, i) => [String(a.uuid), (media[i] as PulledMedia).path]));

  const collections: PulledCollection[] = [];
  for (const c of chosen) {
    const slug = listedSlug(c.slug);
    const path = `/api/${encodeURIComponent(slug)}`;
    const detail = await readDocument(o, `/api/collections/${encodeURIComponent(slug)}`, `collection '${slug}'`, 'check --collections');
    expectShape(
      isObject(detail) && Array.isArray(detail.fields),
      fetcher.url(`/api/collections/${slug}`).href,
      'a collection with its "fields"',
    );
    const flat = ((detail as Raw).fields as JsonValue[]).filter(isObject) as Raw[];
    const fields = flat
      .filter((f) => f.parent_field_id === null || f.parent_field_id === undefined)
      .map((f) =>
        fieldFrom(
          f,
          flat.filter((x) => x.parent_field_id === f.id),
          slug,
          slugOf,
        ),
      );
    const singleton = c.is_singleton === true;
    const read = async (state: string): Promise<Raw[]> => {
      const q = `timestamps${state}`;
      if (!singleton) return pages(o, path, q, `collection '${slug}'${state ? ' (drafts)' : ''}`, o.pageSize);
      // A singleton's list route answers one entry: one request per locale.
      const found: Raw[] = [];
      for (const l of locales) {
        const p = `${path}?${q}&locale=${encodeURIComponent(l)}`;
        const answer = await o.fetcher.document(p);
        if (answer.status === 404) continue;
        const one = readJson(answer, {
          what: `singleton '${slug}' in '${l}'`,
          url: o.fetcher.url(p).href,
          project,
          notFoundHint: 'check --collections',
          drafts: o.drafts,
        });
        if (isObject(one)) found.push(one as Raw);
      }
      return found;
    };
    const published = await read('');
    const drafts = o.drafts ? await read('&state=draft') : [];
    const entries = [
      ...published.map((e) => entryFrom(e, false, fields, slug, pathOf, o.warn)),
      ...drafts.map((e) => entryFrom(e, true, fields, slug, pathOf, o.warn)),
    ];
    const stems = locales.length > 1 ? await translationStems(o, path, entries, defaultLocale) : new Map<string, string>();
    const body = fields.find((f) => f.name === 'body' && (f.type === 'richtext' || f.type === 'markdown') && !f.multiple);
    collections.push({
      slug,
      name: String(c.name ?? slug),
      body_field: body ? body.name : 'body',
      sort: undefined,
      fields: timedFields(
        fields,
        entries.map((e) => e.values),
      ),
      entries: entries.map((e) => (stems.has(e.id) ? { ...e, stem: stems.get(e.id) as string } : e)),
      ...(singleton ? { singleton: true } : {}),
    });
  }

  return {
    id: project,
    name: String(doc.name ?? project),
    description: typeof doc.description === 'string' ? doc.description : null,
    dialect: 'elmapi3',
    default_locale: defaultLocale,
    locales: [defaultLocale, ...locales.filter((l) => l !== defaultLocale)],
    public: await isPublic(o, '/api'),
    collections,
    media,
  };
}

/**
 * The translation groups of a collection, as file names: each entry asks for its translation in
 * every other locale (an entry already placed in a group asks nothing). The members of a group
 * are named after the uuid of its default-locale member (else its first), with `.<locale>` for the others.
 */
async function translationStems(
  o: ReadOptions,
  path: string,
  entries: readonly PulledEntry[],
  defaultLocale: string,
): Promise<Map<string, string>> {
  const groupOf = new Map<string, string[]>();
  const locales = [...new Set(entries.map((e) => e.locale))];
  for (const e of entries) {
    if (groupOf.has(e.id) || e.locale === '') continue;
    const members = [e.id];
    for (const l of locales) {
      if (l === e.locale || l === '') continue;
      const q = `translation_locale=${encodeURIComponent(l)}${e.draft ? '&state=draft' : ''}`;
      const answer = await o.fetcher.document(`${path}/${encodeURIComponent(e.id)}?${q}`);
      // 404: "This entry has no translations linked." (then no other locale has one either) or none in this locale.
      if (answer.status === 404) {
        if (answer.text.includes('no translations linked')) break;
        continue;
      }
      const t = readJson(answer, {
        what: `the '${l}' translation of ${e.id}`,
        url: o.fetcher.url(`${path}/${e.id}?${q}`).href,
        project: o.project,
        notFoundHint: 'check --project',
        drafts: o.drafts,
      });
      if (isObject(t) && typeof t.uuid === 'string' && !members.includes(t.uuid)) members.push(t.uuid);
    }
    if (members.length < 2) continue;
    for (const id of members) groupOf.set(id, members);
  }
  const stems = new Map<string, string>();
  const byId = new Map(entries.map((e) => [e.id, e]));
  for (const [id, members] of groupOf) {
    const key = members.find((m) => byId.get(m)?.locale === defaultLocale) ?? (members[0] as string);
    const e = byId.get(id);
    stems.set(id, id === key || !e ? key : `${key}.${e.locale}`);
  }
  return stems;
}

/** An asset: its path under media/ from its url (`…/<project>/<path>` ending in the file name), else the file name. */
function assetFrom(a: Raw, project: string, o: ReadOptions): PulledMedia {
  const fileName = String(a.filename);
  const url = o.fetcher.url(String(a.url));
  const path = mediaPathOf(url, project, fileName, 'asset', 'url');
  const meta = isObject(a.metadata) ? (a.metadata as Raw) : {};
  const alt = typeof meta.alt_text === 'string' && meta.alt_text !== fileName.replace(/\.[^.]*$/, '') ? meta.alt_text : null;
  const range = formattedSize(a.size, fileName);
  return {
    path,
    caption: typeof meta.caption === 'string' ? meta.caption : null,
    alt,
    ...(typeof a.uuid === 'string' && a.uuid !== mediaUuid(project, path) ? { uuid: a.uuid } : {}),
    url: o.fetcher.url(String(typeof a.original_url === 'string' ? a.original_url : a.url)).href,
    size: range[1],
    sizeRange: range,
  };
}

/** ElmapiCMS states sizes formatted (`"100 bytes"`, `"35.12 KB"`): the range of byte counts that print so. */
export function formattedSize(value: JsonValue | undefined, what: string): [number, number] {
  const m = typeof value === 'string' ? /^([\d,]+(?:\.\d\d)?) (bytes|KB|MB|GB)$/.exec(value) : null;
  if (!m)
    throw new PullError(
      `asset ${JSON.stringify(what)}: the API states its size as ${JSON.stringify(value) ?? 'nothing'}, not as ElmapiCMS formats it ("35.12 KB"); cannot check the download`,
    );
  const n = Number((m[1] as string).replace(/,/g, ''));
  if (m[2] === 'bytes') return [n, n];
  const unit = 1024 ** (['KB', 'MB', 'GB'].indexOf(m[2] as string) + 1);
  return [Math.max(0, Math.ceil((n - 0.005) * unit)), Math.floor((n + 0.005) * unit)];
}

/** A date as the content file writes it: `YYYY-MM-DD` at midnight, else ISO (both answer the same). */
function dateFrom(v: JsonValue): JsonValue {
  if (typeof v !== 'string') return v;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(v);
  if (!m) return v;
  return m[2] === '00:00:00' ? (m[1] as string) : `${m[1]}T${m[2]}Z`;
}

/** A value as dateFrom() writes it (or a list, range or group of them) with a time in it. */
function holdsTime(v: JsonValue): boolean {
  if (typeof v === 'string') return /^\d{4}-\d{2}-\d{2}T/.test(v);
  if (Array.isArray(v)) return v.some(holdsTime);
  return isObject(v) && Object.values(v as Raw).some(holdsTime);
}

/**
 * The schema endpoint reports a date-time field as `date` (v3 has no other type; cqa serve shows
 * its `datetime` so), but a cqa `date` holds no time: a date field any of whose pulled values
 * holds one is written as `datetime`, which v3 renders the same, so the answers stay the same.
 */
function timedFields(fields: readonly FieldDef[], values: readonly Readonly<Record<string, JsonValue>>[]): FieldDef[] {
  return fields.map((f) => {
    const given = values.flatMap((v) => (Object.hasOwn(v, f.name) ? [v[f.name] as JsonValue] : []));
    if (f.type === 'date' && given.some(holdsTime)) return { ...f, type: 'datetime' };
    if (f.type !== 'group' || !f.fields) return f;
    const instances = given.flatMap((v) => (Array.isArray(v) ? v : [v])).filter(isObject) as Raw[];
    return { ...f, fields: timedFields(f.fields, instances) };
  });
}

interface EntryContext {
  readonly pathOf: ReadonlyMap<string, string>;
  readonly richtext: ReturnType<typeof entryRichtext>;
}

function valueFrom(f: FieldDef, v: JsonValue, where: string, ctx: EntryContext): JsonValue | undefined {
  const { pathOf } = ctx;
  const list = (x: JsonValue) => (Array.isArray(x) ? x : [x]);
  switch (f.type) {
    case 'number': {
      const n = (x: JsonValue) => (typeof x === 'string' && /^-?\d+(\.\d+)?$/.test(x) ? Number(x) : x); // drafts: "25.000000"
      return Array.isArray(v) ? v.map(n) : n(v);
    }
    case 'enumeration':
      return f.multiple ? list(v) : (list(v)[0] ?? null);
    case 'media': {
      const paths = list(v)
        .map((a) => (isObject(a) ? (pathOf.get(String(a.uuid)) ?? null) : null))
        .filter((p): p is string => p !== null);
      return f.multiple ? paths : paths[0];
    }
    case 'relation': {
      const ids = list(v)
        .map((e) => (isObject(e) ? (e.uuid as JsonValue) : null))
        .filter((x) => x !== null);
      return f.multiple ? ids : ids[0];
    }
    case 'date':
    case 'datetime':
      if (f.range && isObject(v))
        return {
          ...(v.start !== null ? { start: dateFrom(v.start as JsonValue) } : {}),
          ...(v.end !== null ? { end: dateFrom(v.end as JsonValue) } : {}),
        };
      return Array.isArray(v) ? v.map(dateFrom) : dateFrom(v);
    case 'group': {
      const instance = (x: JsonValue): JsonValue => {
        const out: Raw = {};
        if (!isObject(x)) return out;
        for (const c of f.fields ?? []) {
          if (!Object.hasOwn(x, c.name)) continue;
          const cv = valueFrom(c, (x as Raw)[c.name] as JsonValue, `${where}.${c.name}`, ctx);
          if (cv !== undefined) out[c.name] = cv;
        }
        return out;
      };
      return f.repeatable ? list(v).map(instance) : instance(v);
    }
    case 'richtext': {
      return typeof v === 'string' ? ctx.richtext(v, where) : v;
    }
    default:
      return v;
  }
}

function entryFrom(
  raw: Raw,
  draft: boolean,
  fields: readonly FieldDef[],
  slug: string,
  pathOf: ReadonlyMap<string, string>,
  warn: (message: string) => void,
): PulledEntry {
  if (typeof raw.uuid !== 'string') throw new PullError(`collection '${slug}': an entry without a uuid in the list`);
  const values: Record<string, JsonValue> = {};
  const given = isObject(raw.fields) ? (raw.fields as Raw) : {};
  const ctx = { pathOf, richtext: entryRichtext(warn) };
  for (const f of fields) {
    if (!Object.hasOwn(given, f.name)) continue;
    const v = valueFrom(f, given[f.name] as JsonValue, `collection '${slug}', entry '${raw.uuid}', field '${f.name}'`, ctx);
    if (v !== undefined && v !== null) values[f.name] = v;
  }
  return {
    id: raw.uuid,
    locale: typeof raw.locale === 'string' ? raw.locale : '',
    draft,
    created_at: isoFrom(raw.created_at) ?? '',
    updated_at: isoFrom(raw.updated_at) ?? '',
    published_at: isoFrom(raw.published_at),
    values,
  };
}
