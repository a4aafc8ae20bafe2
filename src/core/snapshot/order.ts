// Ordering shared by the loader (default order of a collection) and the query engine (`sort=`).
// Pure functions, no Node imports.
import { ownValue, type EntryRecord, type FieldDef, type FieldValue, type SortKey } from '../model/model.js';

/** Absent, null, "" and [] are "empty": they sort last in either direction and match `null`. */
export function isEmpty(value: FieldValue | undefined): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Compares strings by Unicode code point (JS `<` compares UTF-16 code units). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  // A long common start is skipped a chunk at a time by the engine's own comparison: two 200 KB
  // texts differing at their end were compared one character at a time here (found from outside).
  let i = 0;
  while (n - i > 256 && a.slice(i, i + 256) === b.slice(i, i + 256)) i += 256;
  for (; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // A surrogate (0xD800–0xDFFF) encodes a code point above 0xFFFF, so it outranks 0xE000–0xFFFF.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}

/**
 * Compares two non-empty scalar values of the same field. `textA`/`textB`: their JSON text, when
 * the caller made it once (a sort made it anew at every comparison: 10 s for 400 large values).
 */
export function compareScalars(a: FieldValue, b: FieldValue, textA?: string, textB?: string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  // json values or mixed types: compare their JSON text so the order stays total and deterministic.
  return compareCodePoints(textA ?? JSON.stringify(a), textB ?? JSON.stringify(b));
}

/** The JSON text of each json value (an object or a list) of `values`, made once for a sort. */
export function jsonTexts(values: readonly (FieldValue | undefined)[]): (string | undefined)[] {
  return values.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : undefined));
}

/** The value a sort key reads: a multiple field sorts by its first value. */
export function sortValue(entry: EntryRecord, field: string): FieldValue | undefined {
  let v: FieldValue | undefined;
  switch (field) {
    case 'id':
      return entry.id;
    case 'locale':
      return entry.locale;
    case 'created_at':
      return entry.created_at;
    case 'updated_at':
      return entry.updated_at;
    case 'published_at':
      return entry.published_at;
    default:
      v = ownValue(entry.values, field);
  }
  return Array.isArray(v) ? v[0] : v;
}

/** Whether every id is a (non-negative) integer, in which case ids compare as numbers. */
export function idsAreIntegers(entries: readonly { id: string }[]): boolean {
  return entries.length > 0 && entries.every((e) => /^\d{1,15}$/.test(e.id));
}

export function compareIds(a: string, b: string, numeric: boolean): number {
  return numeric ? Number(a) - Number(b) : compareCodePoints(a, b);
}

/**
 * A comparator for `keys` with empty values last (in both directions) and `id` ascending as the
 * final tie-break, so every order is total and deterministic.
 */
export function entryComparator(keys: readonly SortKey[], numericIds: boolean): (a: EntryRecord, b: EntryRecord) => number {
  return (a, b) => {
    for (const key of keys) {
      if (key.field === 'id') {
        const c = compareIds(a.id, b.id, numericIds);
        if (c !== 0) return key.desc ? -c : c;
        continue;
      }
      const va = sortValue(a, key.field);
      const vb = sortValue(b, key.field);
      const ea = isEmpty(va);
      const eb = isEmpty(vb);
      if (ea || eb) {
        if (ea && eb) continue;
        return ea ? 1 : -1;
      }
      const c = compareScalars(va as FieldValue, vb as FieldValue);
      if (c !== 0) return key.desc ? -c : c;
    }
    return compareIds(a.id, b.id, numericIds);
  };
}

/** Returns a new array of `entries` in the order of `keys` (stable, id tie-break). */
export function sortEntries(entries: readonly EntryRecord[], keys: readonly SortKey[]): EntryRecord[] {
  return [...entries].sort(entryComparator(keys, idsAreIntegers(entries)));
}

/** Fields that a sort key or filter may name besides the schema's own. */
export const SYSTEM_FIELDS = ['id', 'locale', 'created_at', 'updated_at', 'published_at'] as const;

export function isSortable(field: string, fields: readonly FieldDef[]): boolean {
  return (SYSTEM_FIELDS as readonly string[]).includes(field) || fields.some((f) => f.name === field && !f.hidden);
}
