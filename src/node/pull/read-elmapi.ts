// The `elmapi` dialect (shared/elmapi-dialect.md) read back into a content model. Its project
// answer names no collections and no fields, so the collections come from --collections and each
// field's type from its values: embedded media objects are media fields (written back as media
// references), embedded entries are relations (written back as ids, the target collection found by
// matching the embedded entry), numbers, booleans and text stay what they are. json fields and
// several enumeration values come as text there, and are kept as that same text, which answers the
// same bytes.
import { derivedMediaNumber } from '../../core/dialects/media-number.js';
import type { FieldDef, FieldType, JsonValue } from '../../core/model/model.js';
import { expectShape, isObject, mediaPathOf } from './answers.js';
import { inferSort } from './infer-sort.js';
import { overLimit, statedSize } from './limits.js';
import { PullError, type PulledCollection, type PulledEntry, type PulledMedia, type PulledProject } from './model.js';
import { isPublic, readDocument, type ReadOptions } from './read-options.js';

type Raw = Record<string, JsonValue>;
const TIMESTAMPS = ['created_at', 'updated_at', 'published_at'];
/** The name of the field written as the Markdown body, when a collection has it as text. */
const BODY_FIELD = 'body';

/** `2022-03-04 07:30:00` → `2022-03-04T07:30:00Z` (the dialect's times are UTC). */
export function isoFromElmapi(time: string): string {
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(time) ? `${time.replace(' ', 'T')}Z` : time;
}

const isMedia = (v: unknown): boolean => isObject(v) && typeof v.file_name === 'string' && typeof v.full_url === 'string';
const isEntry = (v: unknown): boolean => isObject(v) && Object.hasOwn(v, 'id') && Object.hasOwn(v, 'locale') && !isMedia(v);

/** Every item of a bare-array list, a page at a time, until a page comes back short or empty (or repeats the one before). */
async function listAll(o: ReadOptions, path: string, query: string, what: string): Promise<Raw[]> {
  const items: Raw[] = [];
  let last = '';
  for (let offset = 0, pages = 0; ; offset += o.pageSize) {
    if (++pages > o.limits.maxPages) throw overLimit(o.limits, 'maxPages', what);
    const page = `${path}?${query ? `${query}&` : ''}limit=${o.pageSize}&offset=${offset}`;
    const url = o.fetcher.url(page).href;
    const body = await readDocument(o, page, what, 'check --collections (the names as in the API URLs) and --project');
    expectShape(
      Array.isArray(body) && body.every(isObject),
      url,
      'a JSON array of entries (the elmapi dialect); for a cqa API leave out --dialect',
      true,
    );
    const same = JSON.stringify(body);
    if (body.length > 0 && same === last)
      throw new PullError(`${url}: the page repeats the one before (offset ignored?); cannot read ${what} to its end`);
    last = same;
    if (items.length + body.length > o.limits.maxEntries) throw overLimit(o.limits, 'maxEntries', what);
    for (const item of body as Raw[]) items.push(item); // a loop: a page of 100,000s is more arguments than the stack holds
    if (body.length === 0 || body.length < o.pageSize) return items;
  }
}

export async function readElmapi(o: ReadOptions): Promise<PulledProject> {
  const { fetcher, project } = o;
  const base = `/api/${encodeURIComponent(project)}`;
  const doc = await readDocument(
    o,
    base,
    `project '${project}'`,
    'check the base URL (the part before /api) and --project (the 32-character uuid)',
  );
  expectShape(
    isObject(doc) && typeof doc.uuid === 'string',
    fetcher.url(base).href,
    '{"uuid", "name", "description"}; for a cqa API leave out --dialect',
    true,
  );
  if (doc.uuid !== project)
    throw new PullError(
      `${fetcher.url(base).href}: the answer is for project ${JSON.stringify(doc.uuid)}, not '${project}': check the base URL and --project`,
    );
  if (!o.collections || o.collections.length === 0)
    throw new PullError('the elmapi dialect lists no collections: name them with --collections a,b', true);

  const mediaPath = `${base}/project-media`;
  const mediaList = await readDocument(o, mediaPath, 'the media list', 'check --project');
  expectShape(Array.isArray(mediaList) && mediaList.every(isMedia), fetcher.url(mediaPath).href, 'a JSON array of media objects');
  if ((mediaList as Raw[]).length > o.limits.maxEntries) throw overLimit(o.limits, 'maxEntries', 'the media list');
  const media = (mediaList as Raw[]).map((m) => mediaFrom(m, project, o));
  const mediaByNumber = new Map((mediaList as Raw[]).map((m, i) => [String(m.id), (media[i] as PulledMedia).path]));

  // All entries first: a relation's target is found by looking the embedded entry up in them.
  const lists = new Map<string, { published: Raw[]; drafts: Raw[] }>();
  for (const slug of o.collections) {
    const path = `${base}/${encodeURIComponent(slug)}`;
    const published = await listAll(o, path, 'timestamps', `collection '${slug}'`);
    const drafts = o.drafts ? await listAll(o, path, 'timestamps&state=only_draft', `drafts of '${slug}'`) : [];
    lists.set(slug, { published, drafts });
  }
  const targetOf = (embedded: Raw): string | undefined => {
    for (const [slug, { published, drafts }] of lists) {
      const found = [...published, ...drafts].find((e) => e.id === embedded.id && e.locale === embedded.locale);
      // Embedded entries hold their own relations as ids, listed ones as objects: compare the plain values only.
      const same = (k: string, v: JsonValue) =>
        typeof v === 'object' || typeof found?.[k] === 'object' || TIMESTAMPS.includes(k) || found?.[k] === v;
      if (found && Object.entries(embedded).every(([k, v]) => same(k, v))) return slug;
    }
    return undefined;
  };

  const collections: PulledCollection[] = [];
  const localeCount = new Map<string, number>();
  for (const [slug, { published, drafts }] of lists) {
    const all = [...published, ...drafts];
    const fields = inferFields(all, slug, targetOf);
    const entries = [
      ...published.map((e) => entryFrom(e, false, fields, mediaByNumber)),
      ...drafts.map((e) => entryFrom(e, true, fields, mediaByNumber)),
    ];
    for (const e of entries) localeCount.set(e.locale, (localeCount.get(e.locale) ?? 0) + 1);
    const sort = inferSort(entries.slice(0, published.length), fields, (e) => e.values as Record<string, JsonValue>);
    if (sort === '') o.warn(`collection '${slug}': no single sort key gives the order the API lists; add 'sort:' to its _collection.yaml`);
    const body = fields.find((f) => f.name === BODY_FIELD && f.type === 'markdown');
    collections.push({ slug, name: slug, body_field: body ? BODY_FIELD : 'body', sort: sort || undefined, fields, entries });
  }

  // The answers name no locales: the most used one is the default, the others follow by name.
  const locales = [...localeCount].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([l]) => l);
  const defaultLocale = locales[0] ?? 'en';
  return {
    id: project,
    name: String(doc.name ?? project),
    description: typeof doc.description === 'string' ? doc.description : null,
    dialect: 'elmapi',
    default_locale: defaultLocale,
    locales: [defaultLocale, ...locales.slice(1).sort()],
    public: await isPublic(o, base),
    collections,
    media,
  };
}

/** The media item's path under media/: from full_url when it ends in /<project>/<path> with the file name, else the file name. */
function mediaFrom(m: Raw, project: string, o: ReadOptions): PulledMedia {
  const url = o.fetcher.url(m.full_url as string);
  const fileName = m.file_name as string;
  const path = mediaPathOf(url, project, fileName, 'media', 'full_url');
  const number = typeof m.id === 'number' ? m.id : Number(m.id);
  return {
    path,
    caption: typeof m.caption === 'string' ? m.caption : null,
    alt: null,
    ...(Number.isSafeInteger(number) && number !== derivedMediaNumber(path) ? { number } : {}),
    url: url.href,
    size: statedSize(m.size, `media ${JSON.stringify(fileName)}`),
  };
}

/** Field order: the order keys come in across entries (each entry lists its fields in schema order). */
function fieldOrder(entries: readonly Raw[]): string[] {
  const order: string[] = [];
  for (const e of entries) {
    let at = 0;
    for (const key of Object.keys(e)) {
      if (key === 'id' || key === 'locale' || TIMESTAMPS.includes(key)) continue;
      const i = order.indexOf(key);
      if (i < 0) order.splice(at++, 0, key);
      else at = i + 1;
    }
  }
  return order;
}

function inferFields(entries: readonly Raw[], slug: string, targetOf: (e: Raw) => string | undefined): FieldDef[] {
  return fieldOrder(entries).map((name) => {
    const values = entries.filter((e) => Object.hasOwn(e, name)).map((e) => e[name] as JsonValue);
    const multiple = values.some(Array.isArray);
    const scalars = values.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v) => v !== null);
    const field = (type: FieldType, extra: Partial<FieldDef> = {}): FieldDef => ({
      name,
      type,
      required: false,
      multiple,
      hidden: false,
      ...extra,
    });
    if (scalars.length > 0 && scalars.every(isMedia)) return field('media');
    if (scalars.length > 0 && scalars.every(isEntry)) {
      const targets = new Set(scalars.map((v) => targetOf(v as Raw)));
      const target = [...targets][0];
      if (targets.size !== 1 || target === undefined) {
        throw new PullError(
          `collection '${slug}', field '${name}': its related entries are in no collection pulled (or in several): add the related collection to --collections`,
          true,
        );
      }
      return field('relation', { collection: target });
    }
    if (scalars.length > 0 && scalars.every(isObject)) return objectField(name, scalars as Raw[], multiple);
    if (scalars.some((v) => typeof v === 'object'))
      throw new PullError(
        `collection '${slug}', field '${name}': values of mixed kinds (objects and others); cannot tell the field's type`,
      );
    const type = scalars.length === 0 ? 'text' : scalarType(scalars);
    if (!type)
      throw new PullError(
        `collection '${slug}', field '${name}': values of mixed types (${[...new Set(scalars.map((v) => typeof v))].join(', ')}); cannot tell the field's type`,
      );
    return field(type === 'text' && name === BODY_FIELD && !multiple ? 'markdown' : type);
  });
}

/** The type every value has: number, boolean or text; undefined for none or several. */
function scalarType(values: readonly unknown[]): 'number' | 'boolean' | 'text' | undefined {
  if (values.length === 0) return undefined;
  for (const [type, js] of [
    ['number', 'number'],
    ['boolean', 'boolean'],
    ['text', 'string'],
  ] as const)
    if (values.every((v) => typeof v === js)) return type;
  return undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/**
 * Plain objects in every entry that has the field: a date or datetime range (`{start, end}`, dates
 * or date-times) or a group — repeatable when they come in lists — whose children are typed by
 * their values as the fields are (a child of mixed kinds is json, which keeps any value).
 */
function objectField(name: string, objects: readonly Raw[], multiple: boolean): FieldDef {
  const base = { name, required: false, hidden: false };
  const bounds = objects.flatMap((o) => [o.start, o.end]).filter((v) => v !== null && v !== undefined);
  const isRange = objects.every((o) => Object.keys(o).every((k) => k === 'start' || k === 'end')) && bounds.length > 0;
  const dates = bounds.every((v) => typeof v === 'string' && DATE.test(v));
  if (!multiple && isRange && (dates || bounds.every((v) => typeof v === 'string' && (DATE.test(v) || DATETIME.test(v)))))
    return { ...base, type: dates ? 'date' : 'datetime', multiple: false, range: true };
  const names = new Set<string>();
  for (const o of objects) for (const k of Object.keys(o)) names.add(k);
  // Objects with no key at all say nothing of a group: json keeps them as they are.
  if (names.size === 0) return { ...base, type: 'json', multiple };
  const fields = [...names].map((child): FieldDef => {
    const type = scalarType(objects.map((o) => o[child]).filter((v) => v !== null && v !== undefined)) ?? 'json';
    return { name: child, type, required: false, multiple: false, hidden: false };
  });
  return { ...base, type: 'group', multiple: false, fields, ...(multiple ? { repeatable: true } : {}) };
}

function entryFrom(raw: Raw, draft: boolean, fields: readonly FieldDef[], mediaByNumber: ReadonlyMap<string, string>): PulledEntry {
  const values: Record<string, JsonValue> = {};
  const ref = (f: FieldDef, v: JsonValue): JsonValue => {
    if (!isObject(v) || (f.type !== 'media' && f.type !== 'relation')) return v;
    if (f.type === 'media') return mediaByNumber.get(String(v.id)) ?? (v.file_name as string);
    return v.id as JsonValue; // integer ids stay numbers, as in the sample's files
  };
  for (const f of fields) {
    if (!Object.hasOwn(raw, f.name)) continue;
    const v = raw[f.name] as JsonValue;
    values[f.name] = Array.isArray(v) ? v.map((x) => ref(f, x)) : ref(f, v);
  }
  const time = (k: string) => (typeof raw[k] === 'string' ? isoFromElmapi(raw[k] as string) : null);
  return {
    id: String(raw.id),
    locale: typeof raw.locale === 'string' ? raw.locale : '',
    draft,
    created_at: time('created_at') ?? '',
    updated_at: time('updated_at') ?? '',
    published_at: time('published_at'),
    values,
  };
}
