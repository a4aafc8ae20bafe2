// The default order of a collection is not in any answer, but the list in that order is: the
// pull looks for the one sort key (a field or timestamp, ascending or descending, ties by id as the
// loader breaks them) that puts the entries in the order the API listed them.
import type { EntryRecord, FieldDef, JsonValue, SortKey } from '../../core/model/model.js';
import { entryComparator, idsAreIntegers } from '../../core/snapshot/order.js';
import type { PulledEntry } from './model.js';

/** `sort:` for _collection.yaml: undefined when id ascending (the default) fits, '' when no single key does. */
export function inferSort(
  listed: readonly PulledEntry[],
  fields: readonly FieldDef[],
  sortValues: (e: PulledEntry) => Record<string, JsonValue>,
): string | undefined | '' {
  const records: EntryRecord[] = listed.map((e) => ({ ...e, draft: false, values: sortValues(e), file: '' }));
  const numeric = idsAreIntegers(records);
  const fits = (keys: SortKey[]) => {
    const cmp = entryComparator(keys, numeric);
    for (let i = 1; i < records.length; i++) if (cmp(records[i - 1] as EntryRecord, records[i] as EntryRecord) > 0) return false;
    return true;
  };
  if (fits([])) return undefined;
  // Numbers and dates first: a collection is more often ordered by position or date than by a text
  // that happens to be in the same order.
  const visible = fields.filter((f) => !f.hidden && !f.multiple);
  const ordinal = visible.filter((f) => ['number', 'date', 'datetime', 'time'].includes(f.type)).map((f) => f.name);
  const others = visible.filter((f) => !ordinal.includes(f.name)).map((f) => f.name);
  const names = [...ordinal, 'published_at', 'created_at', 'updated_at', ...others, 'locale', 'id'];
  for (const field of names) {
    for (const desc of [false, true]) {
      if (fits([{ field, desc }])) return `${field}:${desc ? 'desc' : 'asc'}`;
    }
  }
  return '';
}
