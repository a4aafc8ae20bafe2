// `translations: true` read back: the API answers the field the loader adds (`translations`, json,
// listed last) with each entry's links to its locale variants. Copied into every file as a json
// field, those links would answer the same but stop following the files: a variant added or
// renamed keeps the old map (found from outside: `translations: {fr: first.fr}` in each pulled
// file). So when every entry's value is the map the loader makes from the pulled files' names
// (`hello.md`, `hello.de.md`; elmapi3's `<uuid>.yaml`, `<uuid>.fr.yaml`), the collection is written
// with `translations: true` and the files without the field. Values that differ (variants in other
// folders of the source, an `id:` other than the file name, or a json field of that name) are
// written as they are, which answers the same; said when they look like links. In the `elmapi`
// dialect the field answers a JSON-encoded string and is pulled as text (docs/pull.md).
import type { JsonValue } from '../../core/model/model.js';
import { linkTranslations, TRANSLATIONS_FIELD } from '../content/translations.js';
import { isObject } from './answers.js';
import type { PulledCollection, PulledProject } from './model.js';

function linked(c: PulledCollection, locales: readonly string[], warn: (message: string) => void): boolean {
  const last = c.fields.at(-1);
  if (last?.name !== TRANSLATIONS_FIELD || last.type !== 'json' || last.multiple || last.required) return false;
  const records = c.entries.map((e) => ({ ...e, file: `${c.slug}/${e.stem ?? e.id}.md`, values: {} }));
  const made = linkTranslations(records, locales);
  const given = c.entries.map((e) => e.values[TRANSLATIONS_FIELD] ?? null);
  if (given.every((v, i) => JSON.stringify(v) === JSON.stringify(made[i]?.values[TRANSLATIONS_FIELD] ?? null))) return true;
  const links = (v: JsonValue) =>
    isObject(v) && Object.entries(v).every(([locale, id]) => locales.includes(locale) && typeof id === 'string');
  if (given.some(links))
    warn(
      `collection '${c.slug}': the field 'translations' looks like the one translations: true adds, but its values are not the links the pulled files' names give (variants in other folders, or named otherwise than their files?): written as a json field with its values as they are; they will not follow a file added or renamed`,
    );
  return false;
}

/** The project with `translations: true` where the API's links are the loader's. */
export function recogniseTranslations(p: PulledProject, warn: (message: string) => void): PulledProject {
  if (p.dialect === 'elmapi') return p;
  const collections = p.collections.map((c) =>
    linked(c, p.locales, warn)
      ? {
          ...c,
          fields: c.fields.slice(0, -1),
          entries: c.entries.map((e) => ({
            ...e,
            values: Object.fromEntries(Object.entries(e.values).filter(([k]) => k !== TRANSLATIONS_FIELD)),
          })),
          translations: true,
        }
      : c,
  );
  return { ...p, collections };
}
