// `translations: true` in _collection.yaml: entries that are locale variants of one another
// (`hello.md`, `hello.de.md`: the same file name but for a locale suffix, in the same folder) name
// each other in the field `translations`, `{ "de": "hello.de" }`. Drafts are never listed (a
// reader without the drafts scope must not learn their ids); an entry without a published
// variant has null, so `where[translations][not_null]` lists the entries that have one.
import type { EntryRecord, FieldDef } from '../../core/model/model.js';
import { valueRecord } from '../../core/model/value-record.js';

export const TRANSLATIONS_FIELD = 'translations';

export const translationsField: FieldDef = { name: TRANSLATIONS_FIELD, type: 'json', required: false, multiple: false, hidden: false };

/** `posts/2024/hello.de.md` of locale de → `posts/2024/hello`: what its variants share. */
function variantKey(entry: EntryRecord): string {
  const dot = entry.file.lastIndexOf('.');
  const stem = dot > entry.file.lastIndexOf('/') ? entry.file.slice(0, dot) : entry.file;
  return stem.endsWith(`.${entry.locale}`) ? stem.slice(0, -entry.locale.length - 1) : stem;
}

/**
 * The entries with `translations` set: new records, the ones given are left as they are (cached).
 * Of two variants in one locale the first by id is listed; `twin` hears of each other one.
 */
export function linkTranslations(
  entries: readonly EntryRecord[],
  locales: readonly string[],
  twin?: (entry: EntryRecord, listed: EntryRecord) => void,
): EntryRecord[] {
  const groups = new Map<string, EntryRecord[]>();
  for (const e of entries) {
    if (e.draft) continue;
    const key = variantKey(e);
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  if (twin)
    for (const group of groups.values()) {
      const first = new Map<string, EntryRecord>();
      for (const e of [...group].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
        const listed = first.get(e.locale);
        if (listed) twin(e, listed);
        else first.set(e.locale, e);
      }
    }
  const order = (locale: string) => (locales.indexOf(locale) + locales.length + 1) % (locales.length + 1);
  return entries.map((e) => {
    const siblings = e.draft ? [] : (groups.get(variantKey(e)) ?? []).filter((s) => s !== e && s.locale !== e.locale);
    const map: Record<string, string> = {};
    // In the project's locale order; of two variants in one locale, the first by id.
    for (const s of [...siblings].sort((a, b) => order(a.locale) - order(b.locale) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
      if (!Object.hasOwn(map, s.locale)) map[s.locale] = s.id;
    }
    const values = Object.assign(valueRecord<EntryRecord['values'][string]>(), e.values, {
      [TRANSLATIONS_FIELD]: Object.keys(map).length > 0 ? map : null,
    });
    return { ...e, values };
  });
}
