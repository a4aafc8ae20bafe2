// JSON text of every answer shape. One place builds these strings, so the static files of
// `cqa build` and the answers of `cqa serve` are byte-identical by construction. No Node imports.
import type { Dialect } from '../dialects/types.js';
import type { CollectionSnapshot, EntrySnapshot, MediaSnapshot, ProjectSnapshot } from '../model/types.js';
import type { FieldDef } from '../model/model.js';

/** `{"data":[…],"meta":{"total":…,"limit":…,"offset":…}}` from already-serialised items. */
export function listJson(items: readonly string[], total: number, limit: number | null, offset: number): string {
  return `{"data":[${items.join(',')}],"meta":{"total":${total},"limit":${limit === null ? 'null' : limit},"offset":${offset}}}`;
}

/**
 * A dialect's list as [head, separator, tail] around its items, from its list of two markers ('\0'
 * is never raw in JSON text); undefined when it is not such a plain frame.
 */
export function listFrame(d: Dialect, total: number, limit: number | null, offset: number): readonly [string, string, string] | undefined {
  const frame = d.list(['\0', '\0'], total, limit, offset).split('\0');
  return frame.length === 3 ? (frame as [string, string, string]) : undefined;
}

/** `{"data":…}` around one already-serialised item. */
export function itemJson(item: string): string {
  return `{"data":${item}}`;
}

export function countJson(count: number): string {
  return `{"count":${count}}`;
}

export interface EntryProjection {
  /** Include created_at, updated_at, published_at. */
  readonly timestamps?: boolean;
  /**
   * Indexes into the collection's visibleFields to keep, ascending; undefined keeps all.
   * (`id` and `locale` are always kept.)
   */
  readonly fields?: readonly number[];
}

/** An entry's response JSON, cut to the projection by slicing its precomputed text. */
export function entryJson(entry: EntrySnapshot, projection?: EntryProjection): string {
  if (!projection || (!projection.timestamps && !projection.fields)) return entry.json;
  const whole = projection.timestamps && entry.withTimestamps;
  if (whole) {
    // Timestamps already in place: only slice out the fields.
    if (!projection.fields) return whole.json;
    const o = whole.offsets;
    let text = whole.json.slice(0, o[0]);
    for (const i of projection.fields) text += whole.json.slice(o[i], o[i + 1]);
    return `${text}}`;
  }
  const { json, offsets } = entry;
  const end = offsets[offsets.length - 1] as number;
  let body: string;
  if (projection.fields) {
    body = json.slice(0, offsets[0]);
    for (const i of projection.fields) body += json.slice(offsets[i], offsets[i + 1]);
  } else {
    body = json.slice(0, end);
  }
  return projection.timestamps ? `${body}${entry.timestamps}}` : `${body}}`;
}

export function mediaListJson(media: readonly MediaSnapshot[]): string {
  return listJson(
    media.map((m) => m.json),
    media.length,
    null,
    0,
  );
}

/** A visible field as the project document describes it; a group with its visible children (a client, or `cqa pull`, rebuilds the schema from them). */
function fieldJson(f: FieldDef): Record<string, unknown> {
  return {
    name: f.name,
    type: f.type,
    multiple: f.multiple,
    required: f.required,
    ...(f.values ? { values: f.values } : {}),
    ...(f.collection ? { collection: f.collection } : {}),
    ...(f.range ? { range: true } : {}),
    ...(f.repeatable ? { repeatable: true } : {}),
    ...(f.fields ? { fields: f.fields.filter((c) => !c.hidden).map(fieldJson) } : {}),
  };
}

/** The project document: metadata and, per collection, its published count and visible fields. */
export function projectJson(project: ProjectSnapshot): string {
  const p = project.record;
  const collections = [...project.collections.values()].map((c) => ({
    slug: c.record.slug,
    name: c.record.name,
    count: c.publishedCount,
    fields: c.visibleFields.map(fieldJson),
  }));
  return JSON.stringify({
    data: {
      id: p.id,
      name: p.name,
      description: p.description,
      default_locale: p.default_locale,
      locales: p.locales,
      collections,
    },
  });
}

/**
 * `/api/<project>/<collection>.query` of a static tree (`….query/index.json`): what the static
 * client (src/core/client/) needs besides the list to answer queries like `cqa serve` — each published
 * entry's timestamps, in list order, and whether ids compare as numbers (decided over every
 * entry, drafts included, as the server decides it). A collection slug has no dot, so the path
 * never collides with a collection.
 */
export function collectionQueryJson(col: CollectionSnapshot): string {
  const rows: string[] = [];
  for (const e of col.entries) {
    const r = e.record;
    if (!r.draft) rows.push(JSON.stringify([r.id, r.created_at, r.updated_at, r.published_at]));
  }
  return `{"numeric_ids":${col.numericIds},"timestamps":[${rows.join(',')}]}`;
}
