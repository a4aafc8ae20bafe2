// A snapshot that keeps one copy of each entry: its served JSON text. Field values that the text
// shows as they are stored (JSON.stringify of the value) are dropped from the records and read back
// from the text when the query engine first builds a column of them (src/core/query/table.ts). At
// 100,000 entries of ~1 KiB this halves what a server holds: the records carried the body and
// every other field a second time, as one JS object and string each. Offsets of every entry share
// one typed array per collection, and the timestamps text is made when asked for.
// What `cqa serve` holds without --watch (the incremental loader under --watch keeps its records
// anyway, and its serialisation cache needs them whole). No Node imports.
import {
  ownValue,
  type CollectionRecord,
  type ContentModel,
  type EntryRecord,
  type FieldValue,
  type ProjectRecord,
} from '../model/model.js';
import type { Dialect } from '../dialects/types.js';
import type { CollectionSnapshot, EntrySnapshot, ProjectSnapshot } from '../model/types.js';

/** What the entries of one collection share: the offsets of all, where each field's value starts. */
interface CollectionText {
  readonly d: Dialect;
  /** Entry i's offsets are offsets[i * width … (i + 1) * width). */
  readonly offsets: Uint32Array;
  readonly width: number;
  /** Visible field name → its index in the offsets and the length of its `,"name":` prefix. */
  readonly at: ReadonlyMap<string, { readonly k: number; readonly prefix: number }>;
  /** The entries' texts as UTF-8, when they are not strings of their own. */
  readonly bytes?: CollectionBytes;
}

interface CollectionBytes {
  readonly chunks: readonly Uint8Array[];
  /** Entry i's text is chunks[where[3i]].subarray(where[3i + 1], where[3i + 2]). */
  readonly where: Uint32Array;
}

const decoder = new TextDecoder();

class CompactEntry implements EntrySnapshot {
  constructor(
    readonly record: EntryRecord,
    readonly rank: number,
    /** undefined: the text is in the collection's bytes (sent by the load process). */
    private readonly own: string | undefined,
    private readonly text: CollectionText,
    readonly withTimestamps: EntrySnapshot['withTimestamps'],
  ) {}

  /** Decoded when asked for (a page of a list, a document made once): no string kept per entry. */
  get json(): string {
    return this.own ?? decoder.decode(this.utf8() as Uint8Array);
  }

  utf8(): Uint8Array | undefined {
    if (this.own !== undefined) return undefined;
    const { chunks, where } = this.text.bytes as CollectionBytes;
    const i = this.rank * 3;
    return (chunks[where[i] as number] as Uint8Array).subarray(where[i + 1], where[i + 2]);
  }

  get offsets(): Uint32Array {
    const w = this.text.width;
    return this.text.offsets.subarray(this.rank * w, (this.rank + 1) * w);
  }

  get timestamps(): string {
    return this.text.d.entryTimestamps(this.record);
  }

  /** Only the snapshot's hash needs the entries' ones; it is computed before compacting. */
  get hash(): string {
    return '';
  }

  valueInText(name: string): FieldValue | undefined {
    const at = this.text.at.get(name);
    if (!at) return undefined;
    const w = this.text.width;
    const o = this.text.offsets;
    const start = (o[this.rank * w + at.k] as number) + at.prefix;
    return JSON.parse(this.json.slice(start, o[this.rank * w + at.k + 1])) as FieldValue;
  }
}

/** One string object per distinct short value kept in records (ids of relations, media paths). */
function interner(): <T extends FieldValue | undefined>(v: T) => T {
  const seen = new Map<string, string>();
  return <T extends FieldValue | undefined>(v: T): T => {
    if (typeof v !== 'string' || v.length > 64) return v;
    const s = seen.get(v);
    if (s !== undefined) return s as T;
    seen.set(v, v);
    return v;
  };
}

function compactCollection(col: CollectionSnapshot, d: Dialect, intern: ReturnType<typeof interner>): CollectionSnapshot {
  const visible = col.visibleFields;
  const width = visible.length + 1;
  const n = col.entries.length;
  const at = new Map<string, { k: number; prefix: number }>();
  // A field's value can be read back only where its part is `prefix + JSON` (both dialects).
  visible.forEach((f, k) => {
    const prefix = d.fieldPart(f.name, '');
    if (d.fieldPart(f.name, '0') === `${prefix}0`) at.set(f.name, { k, prefix: prefix.length });
  });
  const text: CollectionText = { d, offsets: new Uint32Array(n * width), width, at };
  const entries = col.entries.map((e, i) => {
    const r = e.record;
    for (let k = 0; k < width; k++) text.offsets[i * width + k] = e.offsets[k] as number;
    const kept: [string, FieldValue | undefined][] = [];
    for (const name of Object.keys(r.values)) {
      const v = ownValue(r.values, name);
      const place = at.get(name);
      // Kept unless the text shows exactly this value (an absent one stays: the text may say null).
      const inText =
        place !== undefined &&
        v !== undefined &&
        JSON.stringify(v) === e.json.slice((e.offsets[place.k] as number) + place.prefix, e.offsets[place.k + 1]);
      if (!inText) kept.push([name, internValue(v, intern)]);
    }
    // Absent fields are named with undefined, so that they are not looked for in the text.
    for (const f of visible) if (!Object.hasOwn(r.values, f.name)) kept.push([f.name, undefined]);
    const record: EntryRecord = {
      id: r.id,
      locale: intern(r.locale) as string,
      draft: r.draft,
      created_at: r.created_at,
      updated_at: r.updated_at,
      published_at: r.published_at,
      // Own properties (a field may be called `toString`); an absent field is one with undefined.
      values: Object.fromEntries(kept) as Record<string, FieldValue>,
      file: r.file,
    };
    return new CompactEntry(record, e.rank, e.json, text, e.withTimestamps);
  });
  const record: CollectionRecord = { ...col.record, entries: entries.map((e) => e.record) };
  return { ...col, record, entries, byId: new Map(entries.map((e) => [e.record.id, e])) };
}

/**
 * The same projects with compact entries, and the model they now stand for (the records as kept):
 * the caller drops its own, so the full records can be collected.
 */
export function compactProjects(projects: ReadonlyMap<string, ProjectSnapshot>): {
  model: ContentModel;
  projects: Map<string, ProjectSnapshot>;
} {
  const intern = interner();
  const out = new Map<string, ProjectSnapshot>();
  for (const [id, p] of projects) {
    const collections = new Map([...p.collections].map(([slug, c]) => [slug, compactCollection(c, p.dialect, intern)]));
    const record: ProjectRecord = { ...p.record, collections: [...collections.values()].map((c) => c.record) };
    out.set(id, { ...p, record, collections });
  }
  return { model: { projects: [...out.values()].map((p) => p.record) }, projects: out };
}

/**
 * A compact snapshot as plain data: the slim records, and per collection its entries' texts as
 * UTF-8 in a few large buffers. The load process builds the snapshot and sends this
 * (src/node/load-process.ts), so the server never holds the full records (which, with the texts
 * made from them, would set its memory's high-water mark at twice what it keeps).
 */
export interface CompactParts {
  readonly hash: string;
  readonly baseUrl: string;
  /** The kept records (values their texts do not show). */
  readonly model: ContentModel;
  /** Per project, per collection, in model order. */
  readonly texts: readonly (readonly CollectionTexts[])[];
}

export interface CollectionTexts extends CollectionBytes {
  readonly offsets: Uint32Array;
  /** Dialects with timestampsFirst only (see EntrySnapshot.withTimestamps). */
  readonly withTimestamps?: readonly EntrySnapshot['withTimestamps'][];
}

/**
 * Texts are written into buffers of this many bytes (an entry longer than that gets its own):
 * large enough that the allocator maps each one separately and gives it back when it is freed.
 */
const CHUNK_BYTES = 32 * 2 ** 20;

function collectionTexts(col: CollectionSnapshot): CollectionTexts {
  const n = col.entries.length;
  const width = col.visibleFields.length + 1;
  const where = new Uint32Array(n * 3);
  const offsets = new Uint32Array(n * width);
  const chunks: Uint8Array[] = [];
  const encoder = new TextEncoder();
  let chunk = new Uint8Array(0);
  let used = 0;
  col.entries.forEach((e, i) => {
    let r = encoder.encodeInto(e.json, chunk.subarray(used));
    if (r.read < e.json.length) {
      if (used > 0) chunks.push(chunk.slice(0, used));
      chunk = new Uint8Array(Math.max(CHUNK_BYTES, e.json.length * 3));
      used = 0;
      r = encoder.encodeInto(e.json, chunk);
    }
    where.set([chunks.length, used, used + r.written], i * 3);
    used += r.written;
    for (let k = 0; k < width; k++) offsets[i * width + k] = e.offsets[k] as number;
  });
  if (used > 0) chunks.push(chunk.slice(0, used));
  const withTimestamps = col.entries.some((e) => e.withTimestamps) ? col.entries.map((e) => e.withTimestamps) : undefined;
  return withTimestamps ? { chunks, where, offsets, withTimestamps } : { chunks, where, offsets };
}

/**
 * A CompactParts without its entries' records and buffers (plain data), and how many chunks each
 * collection's texts had.
 */
export interface PartsOutline extends Omit<CompactParts, 'texts'> {
  readonly texts: readonly (readonly { readonly chunks: number; readonly withTimestamps?: CollectionTexts['withTimestamps'] }[])[];
}

/**
 * `parts` in three pieces to send apart (src/node/content/frames.ts): the outline (plain data, its
 * collections without entries), every entry's record in model order, and the buffers in a fixed
 * order (per collection: where, offsets, chunks) — those go as raw bytes, each read into a buffer of
 * its size, and the records in batches that the receiver can make its own as they come.
 */
export function splitParts(parts: CompactParts): { outline: PartsOutline; records: EntryRecord[]; buffers: Uint8Array[] } {
  const bytes = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const buffers = parts.texts.flat().flatMap((t) => [bytes(t.where), bytes(t.offsets), ...t.chunks]);
  const records = parts.model.projects.flatMap((p) => p.collections.flatMap((c) => c.entries));
  const projects = parts.model.projects.map((p) => ({ ...p, collections: p.collections.map((c) => ({ ...c, entries: [] })) }));
  const texts = parts.texts.map((p) =>
    p.map((t) => (t.withTimestamps ? { chunks: t.chunks.length, withTimestamps: t.withTimestamps } : { chunks: t.chunks.length })),
  );
  return { outline: { ...parts, model: { projects }, texts }, records, buffers };
}

/** The inverse of splitParts(); each buffer must start at a multiple of 4 bytes (a fresh one does). */
export function joinParts(outline: PartsOutline, records: readonly EntryRecord[], buffers: readonly Uint8Array[]): CompactParts {
  let next = 0;
  let entry = 0;
  const take = () => buffers[next++] as Uint8Array;
  const words = (b: Uint8Array) => new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  const texts = outline.texts.map((p) =>
    p.map(({ chunks, withTimestamps }): CollectionTexts => {
      const where = words(take());
      const offsets = words(take());
      const t = { where, offsets, chunks: Array.from({ length: chunks }, take) };
      return withTimestamps ? { ...t, withTimestamps } : t;
    }),
  );
  // Each collection's entries are the next where.length / 3 records.
  const projects = outline.model.projects.map((p, i) => ({
    ...p,
    collections: p.collections.map((c, k) => ({ ...c, entries: records.slice(entry, (entry += texts[i]![k]!.where.length / 3)) })),
  }));
  return { ...outline, model: { projects }, texts };
}

/**
 * Records that arrive from another process as this process's own: each short string (locale,
 * relation ids, media paths) one object per distinct value again — a copy per entry arrives (~9
 * MiB at 100,000 entries) — and each record one object literal, all its properties in the object
 * itself (a deserialised one keeps half of them in a second array: 6 MiB more).
 */
export function recordMaker(): (r: EntryRecord) => EntryRecord {
  const intern = interner();
  return (r) => ({
    id: r.id,
    locale: intern(r.locale),
    draft: r.draft,
    created_at: r.created_at,
    updated_at: r.updated_at,
    published_at: r.published_at,
    values: Object.fromEntries(Object.keys(r.values).map((name) => [name, internValue(ownValue(r.values, name), intern)])) as Record<
      string,
      FieldValue
    >,
    file: r.file,
  });
}

function internValue(v: FieldValue | undefined, intern: ReturnType<typeof interner>): FieldValue | undefined {
  return Array.isArray(v) ? v.map((x) => intern(x)) : intern(v);
}

/** A compact snapshot's data (see CompactParts); `snapshot` must have been made with `compact: true`. */
export function compactParts(snapshot: {
  readonly hash: string;
  readonly baseUrl: string;
  readonly projects: ReadonlyMap<string, ProjectSnapshot>;
}): CompactParts {
  const projects = [...snapshot.projects.values()];
  return {
    hash: snapshot.hash,
    baseUrl: snapshot.baseUrl,
    model: { projects: projects.map((p) => p.record) },
    texts: projects.map((p) => [...p.collections.values()].map(collectionTexts)),
  };
}

/** The entries of one collection back from its kept records and texts. */
export function entriesFromParts(
  col: CollectionRecord,
  visibleFields: readonly { readonly name: string }[],
  t: CollectionTexts,
  d: Dialect,
): EntrySnapshot[] {
  const at = new Map<string, { k: number; prefix: number }>();
  visibleFields.forEach((f, k) => {
    const prefix = d.fieldPart(f.name, '');
    if (d.fieldPart(f.name, '0') === `${prefix}0`) at.set(f.name, { k, prefix: prefix.length });
  });
  const text: CollectionText = { d, offsets: t.offsets, width: visibleFields.length + 1, at, bytes: t };
  return col.entries.map((r, i) => new CompactEntry(r, i, undefined, text, t.withTimestamps?.[i]));
}
