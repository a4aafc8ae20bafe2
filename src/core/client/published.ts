// The published documents of a static tree (`cqa build`) → the snapshot shapes the query engine
// reads: the project document gives the schema, a collection's list gives its entries (in default
// order) and `<slug>.query` their timestamps. Entry texts are rebuilt with the serialiser's
// rules and checked against the list they came from, so every answer is what `cqa serve` sends,
// byte for byte. No Node imports.
import { markValuesAsShown } from '../query/table.js';
import { ownValue, type CollectionRecord, type EntryRecord, type FieldDef, type FieldValue, type MediaRecord } from '../model/model.js';
import { listJson, mediaListJson } from '../snapshot/serialize.js';
import type { CollectionSnapshot, EntrySnapshot, MediaSnapshot, ProjectSnapshot } from '../model/types.js';
import { cqa } from '../dialects/cqa.js';

/** `GET /api/<project>` → `data`. */
export interface ProjectDocument {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly default_locale: string;
  readonly locales: readonly string[];
  readonly collections: readonly CollectionInfo[];
}

export interface CollectionInfo {
  readonly slug: string;
  readonly name: string;
  readonly count: number;
  readonly fields: readonly Omit<FieldDef, 'hidden'>[];
}

/** `/api/<project>/<collection>.query` (src/core/snapshot/serialize.ts: collectionQueryJson). */
export interface QueryIndex {
  readonly numeric_ids: boolean;
  /** [id, created_at, updated_at, published_at] per entry, in list order. */
  readonly timestamps: readonly (readonly [string, string, string, string | null])[];
}

/** A static document that is not what this version of `cqa build` writes. */
export class StaticTreeError extends Error {
  override readonly name = 'StaticTreeError';
}

type Obj = Readonly<Record<string, FieldValue>>;

/** What a relation or media value holds in the engine: ids (answers embed the objects). */
function storedValue(f: FieldDef, v: FieldValue): FieldValue {
  if (f.type !== 'relation' && f.type !== 'media') return v;
  const id = (o: FieldValue) => (o as Obj).id as string;
  if (v === null) return null;
  return Array.isArray(v) ? v.map(id) : id(v);
}

function entrySnapshot(obj: Obj, fields: readonly FieldDef[], ts: QueryIndex['timestamps'][number], rank: number): EntrySnapshot {
  // The same text as EntryWriter.entryText (src/core/snapshot/create.ts): id, locale, then every
  // visible field in schema order, each `,"name":value`.
  let json = `{"id":${JSON.stringify(obj.id)},"locale":${JSON.stringify(obj.locale)}`;
  const offsets: number[] = [];
  const values: [string, FieldValue][] = [];
  for (const f of fields) {
    const v = ownValue(obj, f.name) ?? null;
    offsets.push(json.length);
    json += `,${JSON.stringify(f.name)}:${JSON.stringify(v)}`;
    values.push([f.name, storedValue(f, v)]);
  }
  offsets.push(json.length);
  json += '}';
  const [id, created_at, updated_at, published_at] = ts;
  const record: EntryRecord = {
    id,
    locale: obj.locale as string,
    draft: false,
    created_at,
    updated_at,
    published_at,
    values: Object.fromEntries(values), // defines own properties: a field may be called `toString`
    file: '',
  };
  const timestamps = `,"created_at":${JSON.stringify(created_at)},"updated_at":${JSON.stringify(updated_at)},"published_at":${JSON.stringify(published_at)}`;
  return { record, rank, json, offsets, timestamps, hash: '' };
}

/** A collection from its list document (JSON text) and its query index. */
export function publishedCollection(info: CollectionInfo, listText: string, index: QueryIndex): CollectionSnapshot {
  const list = JSON.parse(listText) as { data: Obj[] };
  const fields: FieldDef[] = info.fields.map((f) => ({ ...f, hidden: false }));
  if (index.timestamps.length !== list.data.length) {
    throw new StaticTreeError(`${info.slug}.query does not match the list of '${info.slug}': rebuild the static tree with cqa build`);
  }
  const entries = list.data.map((obj, i) => {
    const ts = index.timestamps[i] as QueryIndex['timestamps'][number];
    if (ts[0] !== obj.id)
      throw new StaticTreeError(`${info.slug}.query lists '${ts[0]}' where the list has '${String(obj.id)}': rebuild the static tree`);
    return entrySnapshot(obj, fields, ts, i);
  });
  if (
    listJson(
      entries.map((e) => e.json),
      entries.length,
      null,
      0,
    ) !== listText
  ) {
    throw new StaticTreeError(`the list of '${info.slug}' is not a document of this version of cqa build: rebuild the static tree`);
  }
  const record: CollectionRecord = {
    slug: info.slug,
    name: info.name,
    body_field: '',
    sort: [],
    fields,
    entries: entries.map((e) => e.record),
  };
  return {
    record,
    fields: new Map(fields.map((f) => [f.name, f])),
    visibleFields: fields,
    entries,
    byId: new Map(entries.map((e) => [e.record.id, e])),
    publishedCount: entries.length,
    numericIds: index.numeric_ids,
  };
}

/** The media items from the `project-media` list document (JSON text). */
export function publishedMedia(listText: string): MediaSnapshot[] {
  const list = JSON.parse(listText) as { data: (Omit<MediaRecord, 'source'> & { full_url: string })[] };
  const media = list.data.map(({ full_url, ...rest }, i) => ({
    record: { ...rest, source: '' },
    full_url,
    json: JSON.stringify(list.data[i]),
  }));
  if (mediaListJson(media) !== listText) {
    throw new StaticTreeError('the project-media list is not a document of this version of cqa build: rebuild the static tree');
  }
  return media;
}

/** The project the engine queries: the collections and media loaded so far. */
export function publishedProject(
  doc: ProjectDocument,
  collections: readonly CollectionSnapshot[],
  media: readonly MediaSnapshot[],
): ProjectSnapshot {
  const project: ProjectSnapshot = {
    record: {
      id: doc.id,
      name: doc.name,
      description: doc.description,
      default_locale: doc.default_locale,
      locales: doc.locales,
      public: true,
      tokens: [],
      collections: collections.map((c) => c.record),
      media: media.map((m) => m.record),
    },
    // The static client reads the `cqa` dialect's documents (docs/client.md).
    dialect: cqa,
    collections: new Map(collections.map((c) => [c.record.slug, c])),
    media,
    mediaById: new Map(media.map((m) => [m.record.id, m])),
    mediaByKey: new Map(media.map((m) => [m.record.id, m])),
    tokens: new Map(),
  };
  markValuesAsShown(project);
  return project;
}
