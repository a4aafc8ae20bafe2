// A queryable view of a collection (or of a project's media): filterable fields with typed
// accessors, plus lazily built, cached columns and indexes. Built once per CollectionSnapshot /
// ProjectSnapshot (WeakMap), so a new snapshot (e.g. after --watch) gets fresh caches and the old
// ones are garbage-collected with it. No Node imports.
import { ownValue, type FieldDef, type FieldType, type FieldValue } from '../model/model.js';
import { compareCodePoints, compareIds, compareScalars, isEmpty, jsonTexts } from '../snapshot/order.js';
import type { CollectionSnapshot, EntrySnapshot, MediaSnapshot, ProjectSnapshot } from '../model/types.js';
import { foldText } from './collation.js';
import { ResultCache } from './results.js';
import { isNumericKind, kindOf, storedNumber, storedText, type Kind } from './values.js';

export interface FieldInfo {
  readonly name: string;
  readonly type: FieldType;
  readonly kind: Kind;
  readonly multiple: boolean;
  /** relation: the target collection's slug. */
  readonly relation?: string;
  /** enumeration: the allowed values. */
  readonly values?: readonly string[];
  /** The entry's id field (exact text for eq/in; numeric comparisons when ids are integers). */
  readonly isId: boolean;
  /** The raw stored value at position i (undefined when absent). */
  get(i: number): FieldValue | undefined;
}

/** Sort rank of an empty value: last in both directions. */
export const EMPTY_RANK = 0x7fffffff;

export type HashIndex = Map<string | number, Int32Array>;

export interface TextCodes {
  /** Position → code of its value. */
  readonly codes: Int32Array;
  /** Value → code; empty values have code `of.size`. */
  readonly of: ReadonlyMap<string | number, number>;
}

export interface TextSize {
  /** Non-empty values (each element of a multiple field counts). */
  readonly values: number;
  /** Their UTF-16 code units. */
  readonly chars: number;
}

export interface SortedIndex {
  /** Positions of non-empty values, ordered by value (ties by position). */
  readonly perm: Int32Array;
  /** The values, in the same order. */
  readonly vals: Float64Array;
}

export class Table {
  private readonly numCols = new Map<string, Float64Array>();
  private readonly numMultiCols = new Map<string, (readonly number[])[]>();
  private readonly textCols = new Map<string, (string | undefined)[]>();
  private readonly textMultiCols = new Map<string, (readonly string[])[]>();
  private readonly emptyCols = new Map<string, Uint8Array>();
  private readonly lowerCols = new Map<string, (string | undefined)[] | (readonly string[])[]>();
  private readonly foldedCols = new Map<string, (string | undefined)[]>();
  private readonly foldedMultiCols = new Map<string, (readonly string[])[]>();
  private readonly hashes = new Map<string, HashIndex>();
  private readonly codeCols = new Map<string, TextCodes>();
  private readonly sortedIdx = new Map<string, SortedIndex>();
  private readonly ranks = new Map<string, Int32Array>();
  private readonly orders = new Map<string, Int32Array>();
  private resultCache: ResultCache | undefined;
  private idRankCache: Int32Array | undefined;
  private draftCache: Uint8Array | undefined;

  constructor(
    /** Number of items. */
    readonly n: number,
    /** Filterable fields by name (hidden fields are not here). */
    readonly fields: ReadonlyMap<string, FieldInfo>,
    /** Item ids by position. */
    readonly ids: readonly string[],
    /** Whether ids compare as numbers. */
    readonly numericIds: boolean,
    /** Draft flag by position (media: none). */
    private readonly isDraft: ((i: number) => boolean) | null,
    /** What the items are called in messages ('entry', 'media item'). */
    readonly noun: string,
    /** For a view: the position in the base table of each of its items; null for a base table. */
    readonly source: Int32Array | null = null,
    /**
     * Text comparisons ignore case and accents (the `elmapi` dialect): text fields other than the
     * id compare, index and sort by this folded form. null: by the exact text.
     */
    readonly fold: ((s: string) => string) | null = null,
  ) {}

  /** Whether `f` compares by its folded text. */
  folds(f: FieldInfo): boolean {
    return this.fold !== null && f.kind === 'text' && !f.isId;
  }

  /** A query value as compared with `f`'s column. */
  key(f: FieldInfo, value: string): string {
    return this.folds(f) ? (this.fold as (s: string) => string)(value) : value;
  }

  /** The single-valued text column as compared: folded when the field folds. */
  textKeys(name: string): (string | undefined)[] {
    const f = this.field(name);
    if (!this.folds(f)) return this.text(name);
    const fold = this.fold as (s: string) => string;
    return cached(this.foldedCols, name, () => this.text(name).map((s) => (s === undefined ? s : fold(s))));
  }

  /** The multiple text column as compared: folded when the field folds. */
  textMultiKeys(name: string): (readonly string[])[] {
    const f = this.field(name);
    if (!this.folds(f)) return this.textMulti(name);
    const fold = this.fold as (s: string) => string;
    return cached(this.foldedMultiCols, name, () => this.textMulti(name).map((l) => l.map(fold)));
  }

  private readonly views = new Map<string, Table>();

  /**
   * The items a query with `state` can see, as a table of their own with its own lazily built
   * columns and indexes: `published` (no state test at all in the hot path), `only_draft`, or
   * this table for `with_draft`. Positions of a view map back through `source`.
   */
  view(state: 'published' | 'with_draft' | 'only_draft'): Table {
    if (state === 'with_draft' || this.source !== null) return this;
    let v = this.views.get(state);
    if (!v) {
      const want = state === 'only_draft' ? 1 : 0;
      const d = this.draft();
      const pos: number[] = [];
      for (let i = 0; i < this.n; i++) if (d[i] === want) pos.push(i);
      if (pos.length === this.n) {
        v = this;
      } else {
        const source = Int32Array.from(pos);
        const fields = new Map<string, FieldInfo>();
        for (const [name, f] of this.fields) {
          const get = f.get;
          fields.set(name, { ...f, get: (i: number) => get(source[i] as number) });
        }
        const isDraft = this.isDraft;
        v = new Table(
          source.length,
          fields,
          pos.map((i) => this.ids[i] as string),
          this.numericIds,
          isDraft && ((i: number) => isDraft(source[i] as number)),
          this.noun,
          source,
          this.fold,
        );
      }
      this.views.set(state, v);
    }
    return v;
  }

  /** 1 for drafts; all zeros for media. */
  draft(): Uint8Array {
    if (!this.draftCache) {
      const d = new Uint8Array(this.n);
      if (this.isDraft) for (let i = 0; i < this.n; i++) d[i] = this.isDraft(i) ? 1 : 0;
      this.draftCache = d;
    }
    return this.draftCache;
  }

  field(name: string): FieldInfo {
    const f = this.fields.get(name);
    if (!f) throw new Error(`no field ${name}`);
    return f;
  }

  /** Single-valued numeric column (NaN = empty); for the id field: the ids as numbers. */
  num(name: string): Float64Array {
    return cached(this.numCols, name, () => {
      const f = this.field(name);
      const col = new Float64Array(this.n);
      if (f.isId) for (let i = 0; i < this.n; i++) col[i] = Number(this.ids[i]);
      else for (let i = 0; i < this.n; i++) col[i] = storedNumber(f.kind, f.get(i));
      return col;
    });
  }

  numMulti(name: string): (readonly number[])[] {
    const kind = this.field(name).kind;
    return cached(this.numMultiCols, name, () =>
      this.multiColumn(name, (v) => {
        const x = storedNumber(kind, v);
        return Number.isNaN(x) ? undefined : x;
      }),
    );
  }

  /** Single-valued text column (undefined = empty). */
  text(name: string): (string | undefined)[] {
    return cached(this.textCols, name, () => {
      const f = this.field(name);
      const col: (string | undefined)[] = new Array(this.n);
      for (let i = 0; i < this.n; i++) col[i] = storedText(f.get(i));
      return col;
    });
  }

  textMulti(name: string): (readonly string[])[] {
    return cached(this.textMultiCols, name, () => this.multiColumn(name, storedText));
  }

  /** Per position, the converted values of a multiple field (undefined results left out). */
  private multiColumn<T>(name: string, convert: (v: FieldValue) => T | undefined): T[][] {
    const f = this.field(name);
    const col: T[][] = new Array(this.n);
    for (let i = 0; i < this.n; i++) {
      const out: T[] = [];
      for (const v of asList(f.get(i))) {
        const x = convert(v);
        if (x !== undefined) out.push(x);
      }
      col[i] = out;
    }
    return col;
  }

  /** The text column lower-cased (for `like`), single or multiple; folded when the field folds. */
  lower(name: string): (string | undefined)[] | (readonly string[])[] {
    if (this.folds(this.field(name))) return this.field(name).multiple ? this.textMultiKeys(name) : this.textKeys(name);
    return cached(this.lowerCols, name, () =>
      this.field(name).multiple
        ? this.textMulti(name).map((l) => l.map((s) => s.toLowerCase()))
        : this.text(name).map((s) => s?.toLowerCase()),
    );
  }

  private readonly sizes = new Map<string, TextSize>();

  /** How much text a `like` reads in the column (`lower`), for the query's cost budget (cost.ts). */
  textSize(name: string): TextSize {
    return cached(this.sizes, name, () => {
      let values = 0;
      let chars = 0;
      for (const v of this.lower(name)) {
        if (v === undefined) continue;
        if (typeof v === 'string') {
          values++;
          chars += v.length;
        } else {
          values += v.length;
          for (const s of v) chars += s.length;
        }
      }
      return { values, chars };
    });
  }

  /** 1 where the value is empty (absent, null, "", []). */
  empty(name: string): Uint8Array {
    return cached(this.emptyCols, name, () => {
      const f = this.field(name);
      const col = new Uint8Array(this.n);
      for (let i = 0; i < this.n; i++) col[i] = isEmpty(f.get(i)) ? 1 : 0;
      return col;
    });
  }

  /** Value → ascending positions, for eq/in on text, ref and multiple fields. */
  hash(name: string): HashIndex {
    let idx = this.hashes.get(name);
    if (!idx) {
      const f = this.field(name);
      const lists = new Map<string | number, number[]>();
      const add = (key: string | number, i: number) => {
        const l = lists.get(key);
        if (!l) lists.set(key, [i]);
        else if (l[l.length - 1] !== i) l.push(i);
      };
      if (f.multiple && isNumericKind(f.kind)) {
        const col = this.numMulti(name);
        for (let i = 0; i < this.n; i++) for (const v of col[i] as number[]) add(v, i);
      } else if (f.multiple) {
        const col = this.textMultiKeys(name);
        for (let i = 0; i < this.n; i++) for (const v of col[i] as string[]) add(v, i);
      } else if (isNumericKind(f.kind)) {
        const col = this.num(name);
        for (let i = 0; i < this.n; i++) if (!Number.isNaN(col[i] as number)) add(col[i] as number, i);
      } else {
        const col = this.textKeys(name);
        for (let i = 0; i < this.n; i++) {
          const v = col[i];
          if (v !== undefined) add(v, i);
        }
      }
      idx = new Map();
      for (const [k, l] of lists) idx.set(k, Int32Array.from(l));
      this.hashes.set(name, idx);
    }
    return idx;
  }

  /**
   * A single-valued text column as numbers: the position of each value among the hash index's
   * keys (`of`), empty values `of.size`. Equality tests compare these instead of reading each
   * entry's string from wherever it lies in the heap.
   */
  codes(name: string): TextCodes {
    let c = this.codeCols.get(name);
    if (!c) {
      const hash = this.hash(name);
      const of = new Map<string | number, number>();
      const codes = new Int32Array(this.n).fill(hash.size);
      for (const [k, list] of hash) {
        const code = of.size;
        of.set(k, code);
        for (let j = 0; j < list.length; j++) codes[list[j] as number] = code;
      }
      c = { codes, of };
      this.codeCols.set(name, c);
    }
    return c;
  }

  /** Non-empty values of a single numeric column in value order, for range lookups. */
  sorted(name: string): SortedIndex {
    let idx = this.sortedIdx.get(name);
    if (!idx) {
      const col = this.num(name);
      const pos: number[] = [];
      for (let i = 0; i < this.n; i++) if (!Number.isNaN(col[i] as number)) pos.push(i);
      const perm = Int32Array.from(pos);
      perm.sort((a, b) => (col[a] as number) - (col[b] as number) || a - b);
      const vals = new Float64Array(perm.length);
      for (let k = 0; k < perm.length; k++) vals[k] = col[perm[k] as number] as number;
      idx = { perm, vals };
      this.sortedIdx.set(name, idx);
    }
    return idx;
  }

  /** Position → rank of the id (ascending; numerically when ids are integers). */
  idRank(): Int32Array {
    if (!this.idRankCache) {
      const perm = Array.from({ length: this.n }, (_, i) => i);
      const ids = this.ids;
      perm.sort(
        (a, b) => compareIds(ids[a] as string, ids[b] as string, this.numericIds) || compareCodePoints(ids[a] as string, ids[b] as string),
      );
      const rank = new Int32Array(this.n);
      perm.forEach((p, r) => {
        rank[p] = r;
      });
      this.idRankCache = rank;
    }
    return this.idRankCache;
  }

  /**
   * Every position in the order of `cmp` (a sort given as `key`), cached for a few sorts: walking
   * it answers "first page of a large match set" without sorting the matches.
   */
  order(key: string, cmp: (a: number, b: number) => number): Int32Array {
    let perm = this.orders.get(key);
    if (!perm) {
      perm = new Int32Array(this.n);
      for (let i = 0; i < this.n; i++) perm[i] = i;
      perm.sort(cmp);
      if (this.orders.size >= 8) this.orders.delete(this.orders.keys().next().value as string);
      this.orders.set(key, perm);
    }
    return perm;
  }

  /** The order of `key` if it is cached. */
  cachedOrder(key: string): Int32Array | undefined {
    return this.orders.get(key);
  }

  /** Results kept for repeated filters (results.ts): room for about one more column. */
  results(): ResultCache {
    return (this.resultCache ??= new ResultCache(Math.max(1 << 20, 4 * this.n)));
  }

  /**
   * Position → dense rank of the field's sort value (a multiple field sorts by its first value),
   * equal values sharing a rank, EMPTY_RANK for empty values. Agrees with entryComparator.
   */
  rank(name: string): Int32Array {
    if (name === 'id') return this.idRank();
    let rank = this.ranks.get(name);
    if (!rank) {
      const f = this.field(name);
      const values: (FieldValue | undefined)[] = new Array(this.n);
      const pos: number[] = [];
      const fold = this.folds(f) ? this.fold : null;
      for (let i = 0; i < this.n; i++) {
        const raw = f.get(i);
        const v = Array.isArray(raw) ? raw[0] : raw;
        values[i] = fold && typeof v === 'string' ? fold(v) : v;
        if (!isEmpty(v)) pos.push(i);
      }
      const allNumbers = pos.every((i) => typeof values[i] === 'number');
      const cmp = allNumbers
        ? (a: number, b: number) => (values[a] as number) - (values[b] as number)
        : compareWithTexts(values, jsonTexts(values));
      pos.sort(cmp);
      rank = new Int32Array(this.n).fill(EMPTY_RANK);
      let r = 0;
      for (let k = 0; k < pos.length; k++) {
        if (k > 0 && cmp(pos[k - 1] as number, pos[k] as number) !== 0) r++;
        rank[pos[k] as number] = r;
      }
      this.ranks.set(name, rank);
    }
    return rank;
  }
}

/** Positions compared by their values, json values by the texts made once. */
function compareWithTexts(values: readonly (FieldValue | undefined)[], texts: readonly (string | undefined)[]) {
  return (a: number, b: number) => compareScalars(values[a] as FieldValue, values[b] as FieldValue, texts[a], texts[b]);
}

/** The memoised value of `map` for `name`, built on first use. */
function cached<T>(map: Map<string, T>, name: string, build: () => T): T {
  let value = map.get(name);
  if (value === undefined) {
    value = build();
    map.set(name, value);
  }
  return value;
}

function asList(v: FieldValue | undefined): readonly FieldValue[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/**
 * The stored value of field `name` of an entry (undefined when absent): from its record, or, for an
 * entry of a compact snapshot whose record left it out, from its text.
 */
export function fieldValue(entry: EntrySnapshot, name: string): FieldValue | undefined {
  const values = entry.record.values;
  if (entry.valueInText && !Object.hasOwn(values, name)) return entry.valueInText(name);
  return ownValue(values, name);
}

const SYSTEM_TEXT = ['id', 'locale'] as const;
const TIMESTAMPS = ['created_at', 'updated_at', 'published_at'] as const;

const collectionTables = new WeakMap<CollectionSnapshot, Table>();

const valuesAsShown = new WeakSet<ProjectSnapshot>();

/**
 * Marks a project built from published documents (the static client, src/core/client/published.ts):
 * its relation and media values already hold only the ids an answer shows, and its relation
 * targets may not be loaded at all, so its tables read those values as they are.
 */
export function markValuesAsShown(project: ProjectSnapshot): void {
  valuesAsShown.add(project);
}

/**
 * Which ids of a relation or media field an answer shows (§2.5: the related *published* entries,
 * the media items that exist), or null for other fields. Filters and sorts read only these, so
 * they agree with the answer in every state, and no query can tell a draft's id from an id that
 * does not exist. (The serialiser in src/core/snapshot/create.ts drops the same ids.)
 */
function shownRefs(project: ProjectSnapshot, f: FieldDef): ((id: string) => boolean) | null {
  if (valuesAsShown.has(project)) return null;
  if (f.type === 'media') return (id) => project.mediaById.has(id);
  if (f.type !== 'relation' || f.collection === undefined) return null;
  const target = project.collections.get(f.collection);
  if (!target) return () => false;
  return (id) => target.byId.get(id)?.record.draft === false;
}

/** `value` with the ids that `shown` rejects left out (a single one becomes null). */
function keepShown(value: FieldValue | undefined, shown: (id: string) => boolean): FieldValue | undefined {
  if (value === undefined || value === null) return value;
  if (!Array.isArray(value)) return shown(String(value)) ? value : null;
  // Copy only when something is left out: usually every id is shown.
  for (const id of value) if (!shown(String(id))) return value.filter((x) => shown(String(x)));
  return value;
}

/** The table of a collection: system fields id, locale, timestamps, then every visible field. */
export function collectionTable(project: ProjectSnapshot, col: CollectionSnapshot): Table {
  let t = collectionTables.get(col);
  if (!t) {
    const entries = col.entries;
    const fields = new Map<string, FieldInfo>();
    for (const name of SYSTEM_TEXT) {
      fields.set(name, {
        name,
        type: 'text',
        kind: 'text',
        multiple: false,
        isId: name === 'id',
        get: name === 'id' ? (i) => entries[i]!.record.id : (i) => entries[i]!.record.locale,
      });
    }
    for (const f of col.visibleFields) {
      if (fields.has(f.name)) continue;
      const name = f.name;
      const shown = shownRefs(project, f);
      fields.set(name, {
        name,
        type: f.type,
        kind: kindOf(f),
        multiple: f.multiple,
        isId: false,
        ...(f.type === 'relation' && f.collection ? { relation: f.collection } : {}),
        ...(f.type === 'enumeration' && f.values ? { values: f.values } : {}),
        get: shown ? (i) => keepShown(fieldValue(entries[i]!, name), shown) : (i) => fieldValue(entries[i]!, name),
      });
    }
    for (const name of TIMESTAMPS) {
      if (fields.has(name)) continue;
      fields.set(name, {
        name,
        type: 'datetime',
        kind: 'date',
        multiple: false,
        isId: false,
        get: (i) => entries[i]!.record[name],
      });
    }
    t = new Table(
      entries.length,
      fields,
      entries.map((e) => e.record.id),
      col.numericIds,
      (i) => entries[i]!.record.draft,
      'entry',
      null,
      project.dialect.query.foldText ? foldText : null,
    );
    collectionTables.set(col, t);
  }
  return t;
}

/** Media attributes, as filterable fields and in response order (after `id`). */
export const MEDIA_ATTRIBUTES: readonly { name: string; type: FieldType }[] = [
  { name: 'file_name', type: 'text' },
  { name: 'full_url', type: 'text' },
  { name: 'mime_type', type: 'text' },
  { name: 'size', type: 'number' },
  { name: 'width', type: 'number' },
  { name: 'height', type: 'number' },
  { name: 'caption', type: 'text' },
  { name: 'alt', type: 'text' },
];

const mediaTables = new WeakMap<readonly MediaSnapshot[], Table>();

export function mediaTable(project: ProjectSnapshot): Table {
  const media = project.media;
  let t = mediaTables.get(media);
  if (!t) {
    const fields = new Map<string, FieldInfo>();
    // The id is what the API calls the item: the path (cqa), its number (elmapi: compared as a number).
    const ids = media.map((m) => project.dialect.mediaKeys(m.record)[0] as string);
    const numbered = project.dialect.query.mediaIdsAreNumbers;
    fields.set('id', { name: 'id', type: 'text', kind: 'text', multiple: false, isId: true, get: (i) => ids[i] });
    for (const a of MEDIA_ATTRIBUTES) {
      const name = a.name;
      const get =
        name === 'full_url'
          ? (i: number) => media[i]!.full_url
          : (i: number) => (media[i]!.record as unknown as Record<string, FieldValue>)[name];
      fields.set(name, { name, type: a.type, kind: kindOf(a), multiple: false, isId: false, get });
    }
    t = new Table(media.length, fields, ids, numbered, null, 'media item', null, project.dialect.query.foldText ? foldText : null);
    mediaTables.set(media, t);
  }
  return t;
}
