// References between files, checked once a whole project is loaded: relation targets (the
// collection in _collection.yaml, and every entry id) and media ids.
import { ownValue, type EntryRecord, type MediaRecord } from '../../core/model/model.js';
import { baseName } from './entries.js';
import type { BuiltCollection } from './collection.js';
import { listNames, type IssueList } from './issues.js';
import { lookalikeHint } from './lookalike.js';
import { entryLine } from './parse.js';

export function resolveReferences(collections: readonly BuiltCollection[], media: readonly MediaRecord[], issues: IssueList): void {
  const bySlug = new Map(collections.map((c) => [c.record.slug, c]));
  const mediaIds = new Set(media.map((m) => m.id));
  const slugs = listNames(bySlug.keys(), bySlug.size) || '(none)';

  for (const c of collections) {
    for (const field of c.record.fields) {
      if (field.type === 'relation' && field.collection !== undefined && !bySlug.has(field.collection)) {
        issues.error(c.configFile, `relation to collection '${field.collection}', which does not exist; collections: ${slugs}`, {
          line: c.config.fieldLines.get(field.name),
          field: field.name,
        });
      }
    }
  }

  // Ids whose every variant is a draft, per collection: a published entry's relation to one is
  // served as nothing (answers embed published entries only), which the author should hear of.
  const draftIds = new Map<BuiltCollection, Set<string>>();
  const draftsOf = (target: BuiltCollection) => {
    let ids = draftIds.get(target);
    if (!ids) {
      // elmapi3 relations may name an entry by its file name as well as by its uuid.
      const names = (e: EntryRecord) => [e.id, baseName(e.file)];
      const published = new Set(target.record.entries.filter((e) => !e.draft).flatMap(names));
      ids = new Set(
        target.record.entries
          .filter((e) => e.draft)
          .flatMap(names)
          .filter((id) => !published.has(id)),
      );
      draftIds.set(target, ids);
    }
    return ids;
  };

  for (const c of collections) {
    const refFields = c.record.fields.filter(
      (f) => f.type === 'media' || (f.type === 'relation' && f.collection !== undefined && bySlug.has(f.collection)),
    );
    if (refFields.length === 0) continue;
    for (const entry of c.record.entries) {
      const parsed = c.parsed.get(entry);
      for (const field of refFields) {
        const value = ownValue(entry.values, field.name);
        if (value === undefined || value === null) continue;
        const ids = Array.isArray(value) ? value : [value];
        const listed = new Map<string, number>();
        ids.forEach((id, index) => {
          const ref = String(id);
          const at = () => ({ line: parsed && entryLine(parsed, field.name, Array.isArray(value) ? index : undefined), field: field.name });
          // Each listed entry is embedded where it is served: 1,000 times the same 4 MB entry made
          // a document no string could hold (found from outside).
          const times = (listed.get(ref) ?? 0) + 1;
          listed.set(ref, times);
          if (field.type === 'relation' && times > 1) {
            if (times === 2)
              issues.error(entry.file, `lists '${ref}' more than once: a relation lists each entry once; remove the repeats`, at());
            return;
          }
          if (field.type === 'media') {
            if (!mediaIds.has(ref))
              issues.error(
                entry.file,
                `no media file '${ref}' under media/ (media ids are paths under the project's media/ folder)${lookalikeHint(ref, mediaIds)}`,
                at(),
              );
          } else {
            const target = bySlug.get(field.collection as string) as BuiltCollection;
            if (!target.knownIds.has(ref))
              issues.error(entry.file, `no entry '${ref}' in collection '${field.collection}'${lookalikeHint(ref, target.knownIds)}`, at());
            else if (!entry.draft && draftsOf(target).has(ref))
              issues.warn(
                entry.file,
                `'${ref}' in collection '${field.collection}' is a draft: answers show published entries only, so this relation serves ${field.multiple ? 'the list without it' : 'null'} until it is published (remove its draft: true, or build with --drafts)`,
                at(),
              );
          }
        });
      }
    }
  }
}
