// A required field the API answers empty for a pulled entry: a relation whose target is a draft
// (relations show published targets only, even to a drafts token), a richtext value that could not
// be written as Markdown, a password or hidden field (never served). Written as the API describes
// it, `required: true` would make `cqa check` refuse the pulled tree (found from outside: a pull
// said "✓ pulled" and the tree it wrote failed). So the field is written without it, with a comment
// in _collection.yaml, and a warning names each file and field and what to do: give the value, then
// put `required: true` back. Every entry pulled counts: a field every one of them fills keeps it.
import { type FieldDef, groupItems, type JsonValue } from '../../core/model/model.js';
import { isEmpty } from '../../core/snapshot/order.js';
import type { PulledCollection, PulledEntry, PulledProject } from './model.js';

/** Per field, the files named one by one; the others are counted. */
const NAMED_FILES = 20;

/** What the loader calls empty (entries.ts): nothing, null, '', [], or text of blanks only. */
const blank = (v: JsonValue | undefined) => isEmpty(v) || (typeof v === 'string' && v.trim() === '');

/** Why the API shows no value for a field of this type, said after "not pulled: ". */
function why(f: FieldDef): string {
  if (f.type === 'relation')
    return "the API shows a related entry only once it is published, and this entry's is not (a draft, most likely)";
  if (f.type === 'richtext') return 'its HTML could not be written as Markdown (said above)';
  return "the API's answer has no value for it";
}

/**
 * The project with `required` taken off each field (or group child) that a pulled entry leaves
 * empty; `fileOf` names an entry's file as `cqa check` does (relative to --out).
 */
export function relaxRequired(
  p: PulledProject,
  fileOf: (e: PulledEntry, c: PulledCollection) => string,
  warn: (message: string) => void,
): PulledProject {
  const collections = p.collections.map((c) => {
    const schema = `${p.id}/${c.slug}/_collection.yaml`;
    // The comment beside each top-level field in _collection.yaml.
    const notes = new Map<string, string[]>();
    const note = (shown: string, text: string) => {
      const top = shown.split('.')[0] as string;
      notes.set(top, [...(notes.get(top) ?? []), shown === top ? text : `${shown}: ${text}`]);
    };
    const say = (f: FieldDef, shown: string, missing: readonly PulledEntry[]) => {
      if (f.hidden) {
        const kind = f.type === 'password' ? 'password' : 'hidden';
        warn(
          `${schema}: ${shown}: written without 'required: true', which the API has: the API never serves a ${kind} field's values, so no pulled file has one, and cqa check would refuse every file. Put 'required: true' back once each file gives ${shown}`,
        );
        note(shown, `required in the API; a ${kind} field's values are never served`);
        return;
      }
      const all = c.entries.length;
      const n = missing.length;
      const count = n === all ? 'no pulled entry has' : `${n} of the ${all} pulled entries ${n === 1 ? 'has' : 'have'} no`;
      warn(
        `${schema}: ${shown}: written without 'required: true', which the API has: ${count} value for it (the files below), and cqa check refuses a required field left empty. Give each file its ${shown}, then put 'required: true' back`,
      );
      for (const e of missing.slice(0, NAMED_FILES)) warn(`${fileOf(e, c)}: ${shown}: not pulled: ${why(f)}`);
      if (n > NAMED_FILES) warn(`${p.id}/${c.slug}: ${shown}: ${n - NAMED_FILES} more files without it, for the same reason`);
      const names = missing.slice(0, 3).map((e) => e.stem ?? e.id);
      note(shown, `required in the API; no value pulled for ${n > 3 ? `${n} entries (${names.join(', ')}, …)` : names.join(', ')}`);
    };
    let changed = false;
    const fields = c.fields.map((f) => {
      let field = f;
      if (f.required) {
        const missing = c.entries.filter((e) => blank(e.values[f.name]));
        if (missing.length > 0) {
          say(f, f.name, missing);
          field = { ...field, required: false };
        }
      }
      if (f.type === 'group' && f.fields?.some((child) => child.required)) {
        const children = f.fields.map((child) => {
          if (!child.required) return child;
          const missing = c.entries.filter((e) => groupItems(e.values[f.name]).some((item) => blank(item[child.name])));
          if (missing.length === 0) return child;
          say(child, `${f.name}.${child.name}`, missing);
          return { ...child, required: false };
        });
        if (children.some((child, i) => child !== f.fields?.[i])) field = { ...field, fields: children };
      }
      if (field !== f) changed = true;
      return field;
    });
    return changed ? { ...c, fields, notes: new Map([...notes].map(([name, texts]) => [name, texts.join('; ')])) } : c;
  });
  return { ...p, collections };
}
