// The `cqa` dialect (SPEC §4) read back into a content model: the project document lists the
// collections with their fields, lists page with limit/offset until meta.total, entries embed
// their media and relations (turned back into ids), richtext comes back as HTML (turned back into
// Markdown).
import { FIELD_TYPES, type FieldDef, type FieldType, type JsonValue } from '../../core/model/model.js';
import { expectShape, isObject, listedSlug } from './answers.js';
import { inferSort } from './infer-sort.js';
import { overLimit, statedSize } from './limits.js';
import type { PulledCollection, PulledEntry, PulledMedia, PulledProject } from './model.js';
import { PullError } from './model.js';
import { isPublic, readDocument, type ReadOptions } from './read-options.js';
import { entryRichtext } from './richtext.js';
import { richtextReady } from '../content/richtext.js';

/**
 * Every item of a list, a page of o.pageSize at a time, until meta.total. A server's answers are
 * not trusted to end the loop: a missing total is refused, and a short, empty or repeated page ends it.
 */
async function listAll(o: ReadOptions, path: string, query: string, what: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let last = '';
  for (let offset = 0, pages = 0; ; ) {
    if (++pages > o.limits.maxPages) throw overLimit(o.limits, 'maxPages', what);
    const page = `${path}?${query ? `${query}&` : ''}limit=${o.pageSize}&offset=${offset}`;
    const body = await readDocument(o, page, what, 'check --project and --collections');
    const url = o.fetcher.url(page).href;
    expectShape(isObject(body) && Array.isArray(body.data) && isObject(body.meta), url, '{"data": […], "meta": {…}}');
    const total = (body.meta as Record<string, unknown>).total;
    expectShape(Number.isSafeInteger(total) && (total as number) >= 0, url, '"meta.total", the number of items, a non-negative integer');
    const data = body.data as unknown[];
    const same = JSON.stringify(data);
    if (data.length > 0 && same === last)
      throw new PullError(`${url}: the page repeats the one before (offset ignored?); cannot read ${what} to its end`);
    last = same;
    if (items.length + data.length > o.limits.maxEntries) throw overLimit(o.limits, 'maxEntries', what);
    for (const item of data) items.push(item); // a loop: a page of 100,000s is more arguments than the stack holds
    offset += data.length;
    if (data.length < o.pageSize || offset >= (total as number)) return items;
  }
}

export async function readCqa(o: ReadOptions): Promise<PulledProject> {
  await richtextReady(true); // htmlToMarkdown() renders its Markdown again (marked imported: it may not be requirable)
  const { fetcher, project } = o;
  const base = `/api/${encodeURIComponent(project)}`;
  const doc = await readDocument(
    o,
    base,
    `project '${project}'`,
    'check the base URL (the part before /api) and --project (a token of another project gets a 404 too)',
  );
  expectShape(
    isObject(doc) && isObject(doc.data) && Array.isArray(doc.data.collections),
    fetcher.url(base).href,
    '{"data": {…, "collections": […]}}; for the elmapi dialect pass --dialect elmapi',
    true,
  );
  const data = doc.data as Record<string, unknown>;
  if (data.id !== project)
    throw new PullError(
      `${fetcher.url(base).href}: the answer is for project ${JSON.stringify(data.id)}, not '${project}': check the base URL and --project`,
    );
  const listed = (data.collections as unknown[]).filter(isObject);
  const slugs = listed.map((c) => String(c.slug));
  for (const wanted of o.collections ?? []) {
    if (!slugs.includes(wanted))
      throw new PullError(`--collections: project '${project}' has no collection '${wanted}'; it has ${slugs.join(', ') || 'none'}`, true);
  }
  const chosen = listed.filter((c) => !o.collections || o.collections.includes(String(c.slug)));
  const fieldsOf = new Map(chosen.map((c) => [String(c.slug), readFields(c.fields, String(c.slug))]));
  for (const [slug, fields] of fieldsOf) {
    for (const f of fields) {
      if (f.type === 'relation' && f.collection && !fieldsOf.has(f.collection)) {
        throw new PullError(`collection '${slug}' relates to '${f.collection}' (field '${f.name}'): add it to --collections`, true);
      }
    }
  }

  const collections: PulledCollection[] = [];
  for (const c of chosen) {
    const slug = listedSlug(c.slug);
    const fields = fieldsOf.get(slug) as FieldDef[];
    const path = `${base}/${encodeURIComponent(slug)}`;
    const published = await listAll(o, path, 'timestamps', `collection '${slug}'`);
    const drafts = o.drafts ? await listAll(o, path, 'timestamps&state=only_draft', `drafts of '${slug}'`) : [];
    const toEntry = (raw: unknown, draft: boolean) => entryFrom(raw, draft, fields, slug, o.warn);
    const entries = [...published.map((e) => toEntry(e, false)), ...drafts.map((e) => toEntry(e, true))];
    const html = new Map(published.map((raw, i) => [entries[i] as PulledEntry, raw as Record<string, JsonValue>]));
    // Sorting compares what the loader stores: ids for media and relations, HTML for richtext.
    const sort = inferSort(entries.slice(0, published.length), fields, (e) => {
      const values: Record<string, JsonValue> = { ...e.values };
      for (const f of fields)
        if (f.type === 'richtext' && Object.hasOwn(html.get(e) ?? {}, f.name))
          values[f.name] = (html.get(e) as Record<string, JsonValue>)[f.name] as JsonValue;
      return values;
    });
    if (sort === '') o.warn(`collection '${slug}': no single sort key gives the order the API lists; add 'sort:' to its _collection.yaml`);
    const markdown = fields.find((f) => f.type === 'markdown' && !f.multiple) ?? fields.find((f) => f.type === 'richtext' && !f.multiple);
    collections.push({
      slug,
      name: String(c.name ?? slug),
      body_field: markdown?.name ?? 'body',
      sort: sort || undefined,
      fields,
      entries,
    });
  }

  const media: PulledMedia[] = (await listAll(o, `${base}/project-media`, '', 'the media list')).map((raw) => {
    expectShape(
      isObject(raw) && typeof raw.id === 'string' && typeof raw.full_url === 'string',
      fetcher.url(`${base}/project-media`).href,
      'media objects with id and full_url',
    );
    const m = raw as Record<string, unknown>;
    const size = statedSize(m.size, `media '${m.id as string}'`);
    return {
      path: m.id as string,
      caption: textOrNull(m.caption),
      alt: textOrNull(m.alt),
      url: fetcher.url(m.full_url as string).href,
      size,
    };
  });

  return {
    id: project,
    name: String(data.name ?? project),
    description: textOrNull(data.description),
    dialect: 'cqa',
    default_locale: String(data.default_locale ?? 'en'),
    locales: Array.isArray(data.locales) ? data.locales.map(String) : [String(data.default_locale ?? 'en')],
    public: await isPublic(o, base),
    collections,
    media,
  };
}

const textOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function readFields(raw: unknown, slug: string, depth = 0): FieldDef[] {
  if (!Array.isArray(raw))
    throw new PullError(
      `collection '${slug}': the project document lists no ${depth === 0 ? 'fields' : 'children of a group field (a cqa before groups were described)'}`,
    );
  return raw.filter(isObject).map((f) => {
    const type = String(f.type) as FieldType;
    if (!(FIELD_TYPES as readonly string[]).includes(type))
      throw new PullError(`collection '${slug}', field '${String(f.name)}': unknown type '${type}'`);
    return {
      name: String(f.name),
      type,
      required: f.required === true,
      multiple: f.multiple === true,
      hidden: false,
      ...(Array.isArray(f.values) ? { values: f.values.map(String) } : {}),
      ...(typeof f.collection === 'string' ? { collection: f.collection } : {}),
      ...(f.range === true ? { range: true } : {}),
      ...(f.repeatable === true ? { repeatable: true } : {}),
      // A group's children (one level: a group holds no group).
      ...(type === 'group' && depth === 0 ? { fields: readFields(f.fields, slug, 1) } : {}),
    };
  });
}

/** An embedded media object or related entry → its id (a deeper relation is an id already). */
function idOf(v: JsonValue): JsonValue {
  return isObject(v) && (typeof v.id === 'string' || typeof v.id === 'number') ? (v.id as JsonValue) : v;
}

function entryFrom(raw: unknown, draft: boolean, fields: readonly FieldDef[], slug: string, warn: (message: string) => void): PulledEntry {
  if (!isObject(raw) || typeof raw.id !== 'string') throw new PullError(`collection '${slug}': an entry without an id in the list`);
  const values: Record<string, JsonValue> = {};
  const richtext = entryRichtext(warn);
  for (const f of fields) {
    if (!Object.hasOwn(raw, f.name)) continue;
    let v = raw[f.name] as JsonValue;
    // Absent, null and (for lists) [] answer the same: the file leaves them out.
    if (v === null || (f.multiple && Array.isArray(v) && v.length === 0)) continue;
    if (f.type === 'media' || f.type === 'relation') v = Array.isArray(v) && f.multiple ? v.map(idOf) : idOf(v);
    else if (f.type === 'richtext' && typeof v === 'string') {
      const markdown = richtext(v, `collection '${slug}', entry '${raw.id}', field '${f.name}'`);
      if (markdown === undefined) continue;
      v = markdown;
    }
    values[f.name] = v;
  }
  const time = (k: string) => (typeof raw[k] === 'string' ? (raw[k] as string) : null);
  return {
    id: raw.id,
    locale: String(raw.locale),
    draft,
    created_at: time('created_at') ?? '',
    updated_at: time('updated_at') ?? '',
    published_at: time('published_at'),
    values,
  };
}
