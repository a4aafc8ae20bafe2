// References between files, checked once a whole project is loaded: relation targets (the
// collection in _collection.yaml, and every entry id) and media ids.
import {
  groupItems,
  ownValue,
  type DialectName,
  type EntryRecord,
  type FieldDef,
  type FieldValue,
  type MediaRecord,
} from '../../core/model/model.js';
import { baseName } from './entries.js';
import type { BuiltCollection } from './collection.js';
import { listNames, type IssueList } from './issues.js';
import { formatBytes, groupDigits, LIMITS } from './limits.js';
import { lookalikeHint } from './lookalike.js';
import { closestName } from '../../core/suggest.js';
import { entryLine } from './parse.js';

export function resolveReferences(
  collections: readonly BuiltCollection[],
  media: readonly MediaRecord[],
  issues: IssueList,
  embedded = new Embedded(),
  dialect: DialectName = 'cqa',
): void {
  const bySlug = new Map(collections.map((c) => [c.record.slug, c]));
  const mediaIds = new Set(media.map((m) => m.id));
  const slugs = listNames(bySlug.keys(), bySlug.size) || '(none)';
  // A did-you-mean by edit distance for the first misses, among ids of collections of a size a
  // person keeps in mind: 10,000 broken links to a large collection stay cheap.
  let guesses = 200;
  const typo = (ref: string, ids: ReadonlySet<string>) => {
    if (guesses <= 0 || ids.size > 20_000) return '';
    guesses--;
    const near = closestName(ref, ids);
    return near ? `; did you mean '${near}'?` : '';
  };

  for (const c of collections) {
    // A group's relation children too (found from outside: they were never checked).
    const withChildren = c.record.fields.flatMap((f) => [
      { field: f, name: f.name, top: f.name },
      ...(f.type === 'group' ? (f.fields ?? []).map((child) => ({ field: child, name: `${f.name}.${child.name}`, top: f.name })) : []),
    ]);
    for (const { field, name, top } of withChildren) {
      if (field.type === 'relation' && field.collection !== undefined && !bySlug.has(field.collection)) {
        const near = closestName(field.collection, bySlug.keys());
        const list = near === undefined ? `collections: ${slugs}` : `did you mean '${near}'? (collections: ${slugs})`;
        issues.error(c.configFile, `relation to collection '${field.collection}', which does not exist; ${list}`, {
          line: c.config.fieldLines.get(top),
          field: name,
        });
      }
    }
  }

  // Ids whose every variant is a draft, per collection: a relation to one is served as nothing
  // (answers embed published entries only; in cqa and elmapi even to a drafts token), which the
  // author should hear of.
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

  /**
   * The ids `value` of `field` gives, checked: each names a media file or an entry, once; a draft
   * is said. `name`: the field as said (`credits.who` for a group's child); `line(index)`: where.
   */
  const checkRefs = (
    c: BuiltCollection,
    entry: EntryRecord,
    field: FieldDef,
    name: string,
    value: FieldValue,
    line: (index: number | undefined) => number | undefined,
    embeds: boolean,
  ) => {
    const ids = Array.isArray(value) ? value : [value];
    const listed = new Map<string, number>();
    ids.forEach((id, index) => {
      const ref = String(id);
      const at = () => ({ line: line(Array.isArray(value) ? index : undefined), field: name });
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
            `no media file '${ref}' under media/ (media ids are paths under the project's media/ folder)${lookalikeHint(ref, mediaIds) || inFolder(ref, mediaIds) || asPath(ref, mediaIds)}`,
            at(),
          );
        return;
      }
      const target = bySlug.get(field.collection as string) as BuiltCollection;
      if (!target.knownIds.has(ref)) {
        issues.error(
          entry.file,
          `no entry '${ref}' in collection '${field.collection}'${lookalikeHint(ref, target.knownIds) || asEntryPath(ref, target.knownIds) || typo(ref, target.knownIds)}`,
          at(),
        );
        return;
      }
      if (embeds) embedded.add(c, field, target, ref);
      // elmapi3 shows a draft's related drafts to the drafts scope: only a published entry's is lost.
      if (draftsOf(target).has(ref) && !(entry.draft && dialect === 'elmapi3')) {
        const served = field.multiple ? 'the list without it' : 'null';
        issues.warn(
          entry.file,
          entry.draft
            ? // A draft's too: a drafts token previews it with this relation empty, and cqa pull --drafts cannot recover it.
              `'${ref}' in collection '${field.collection}' is a draft, as this entry is: relations show published entries only, even to a drafts token, so a preview of this draft serves ${served} (and cqa pull writes none) until '${ref}' is published (build --drafts publishes both)`
            : `'${ref}' in collection '${field.collection}' is a draft: answers show published entries only, so this relation serves ${served} until it is published (remove its draft: true, or build with --drafts)`,
          at(),
        );
      }
    });
  };
  const isRef = (f: FieldDef) => f.type === 'media' || (f.type === 'relation' && f.collection !== undefined && bySlug.has(f.collection));

  for (const c of collections) {
    const refFields = c.record.fields.filter(isRef);
    // A group's relation and media children are ids in its answer (not embedded), checked alike.
    const groups = c.record.fields.filter((f) => f.type === 'group' && (f.fields ?? []).some(isRef));
    if (refFields.length === 0 && groups.length === 0) continue;
    for (const entry of c.record.entries) {
      const parsed = c.parsed.get(entry);
      for (const field of refFields) {
        const value = ownValue(entry.values, field.name);
        if (value === undefined || value === null) continue;
        checkRefs(c, entry, field, field.name, value, (index) => parsed && entryLine(parsed, field.name, index), true);
      }
      for (const group of groups) {
        const value = ownValue(entry.values, group.name);
        groupItems(value).forEach((item, i) => {
          const line = () => parsed && entryLine(parsed, group.name, Array.isArray(value) ? i : undefined);
          for (const child of (group.fields ?? []).filter(isRef)) {
            const given = ownValue(item, child.name);
            if (given !== undefined && given !== null) checkRefs(c, entry, child, `${group.name}.${child.name}`, given, line, false);
          }
        });
      }
    }
  }
  embedded.check(collections, issues);
}

/**
 * What the documents embed of related entries, over every project of a load. Each entry's answer
 * holds the entries its relations list, and so does its collection's list (`dist/` writes both),
 * so 200 small entries that each listed four entries of 1 MB made 4.7 MB of content into 1.6 GB of
 * `dist/` and a server of 4 GB (found from outside). Counted in UTF-8 bytes from the values, twice;
 * refused past LIMITS.embeddedBytes and LIMITS.embedFactor times the values themselves.
 */
export class Embedded {
  private readonly sizes = new Map<EntryRecord, number>();
  private readonly byId = new Map<BuiltCollection, Map<string, EntryRecord>>();
  /** Bytes embedded, per collection and relation field (of the project being resolved). */
  private perField = new Map<BuiltCollection, Map<FieldDef, { bytes: number; count: number }>>();
  private total = 0;
  /** The collections of the projects resolved so far: their own size is summed only past the floor. */
  private readonly seen: BuiltCollection[] = [];

  add(from: BuiltCollection, field: FieldDef, target: BuiltCollection, ref: string): void {
    let ids = this.byId.get(target);
    if (!ids) {
      ids = new Map();
      // elmapi3 relations may name an entry by its file name as well as by its uuid; an id wins
      // over another entry's file name (`k0.md` with `id: t0` is not the entry `k0`).
      for (const e of target.record.entries) ids.set(baseName(e.file), e);
      for (const e of target.record.entries) ids.set(e.id, e);
      this.byId.set(target, ids);
    }
    const e = ids.get(ref);
    if (!e) return;
    const bytes = 2 * this.sizeOf(e);
    let fields = this.perField.get(from);
    if (!fields) this.perField.set(from, (fields = new Map()));
    const counted = fields.get(field) ?? { bytes: 0, count: 0 };
    counted.bytes += bytes;
    counted.count++;
    fields.set(field, counted);
    this.total += bytes;
  }

  /** After a project's references: an error at its relation field that embeds the most, when the load is past the limit. */
  check(collections: readonly BuiltCollection[], issues: IssueList): void {
    this.seen.push(...collections);
    const perField = this.perField;
    this.perField = new Map();
    if (this.total <= LIMITS.embeddedBytes) return;
    let own = 0;
    for (const c of this.seen) for (const e of c.record.entries) own += this.sizeOf(e);
    if (this.total <= own * LIMITS.embedFactor) return;
    let worst: { c: BuiltCollection; field: FieldDef; bytes: number; count: number } | undefined;
    for (const [c, fields] of perField) for (const [field, n] of fields) if (!worst || n.bytes > worst.bytes) worst = { c, field, ...n };
    if (!worst) return;
    const { c, field, bytes, count } = worst;
    issues.error(
      c.configFile,
      `relation '${field.name}' makes answers too large: each entry's answer and its collection's list hold the entries it lists, and its ${groupDigits(count)} listed entries of collection '${field.collection}' add ${formatBytes(bytes)} to those of '${c.record.slug}' (all relations: ${formatBytes(this.total)}, ${Math.round(this.total / Math.max(own, 1))} times the content of ${formatBytes(own)}; the limit is ${LIMITS.embedFactor} times, or ${formatBytes(LIMITS.embeddedBytes)}). Relate to smaller entries (keep large text out of the entries that are related to), or list fewer`,
      { line: c.config.fieldLines.get(field.name), field: field.name },
    );
  }

  /** About the UTF-8 bytes of an entry's values as a document embeds them (JSON adds a little). */
  private sizeOf(e: EntryRecord): number {
    let n = this.sizes.get(e);
    if (n === undefined) {
      n = valueBytes(e.values as FieldValue);
      this.sizes.set(e, n);
    }
    return n;
  }
}

function valueBytes(value: FieldValue | undefined): number {
  if (typeof value === 'string') return Buffer.byteLength(value) + 2;
  if (value === null || value === undefined) return 4;
  if (typeof value !== 'object') return 8;
  let n = 2;
  if (Array.isArray(value)) for (const v of value) n += valueBytes(v) + 1;
  else for (const k in value) n += k.length + 4 + valueBytes((value as Record<string, FieldValue>)[k]);
  return n;
}

/** Media ids by their file name (the part after the last '/'), made once per set of ids. */
const byName = new WeakMap<ReadonlySet<string>, Map<string, string[]>>();

/**
 * `; did you mean 'img/a b.png'?` for a media id written as a path or URL to the file — `./img/…`,
 * `/img/…`, `media/img/…`, `/media/<project>/img/…`, `img\\…`, `img/a%20b.png`, `img//…`, a full
 * URL — when the path under media/ alone names a file (found from outside: no hint).
 */
function asPath(ref: string, mediaIds: ReadonlySet<string>): string {
  let path = ref.replace(/\\/g, '/').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  if (/%[0-9A-Fa-f]{2}/.test(path)) {
    try {
      path = decodeURIComponent(path);
    } catch {
      // Not a valid escape: compared as written.
    }
  }
  const segments = path.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  // The whole path, and what follows each `media` segment (and the project's id after it).
  const candidates = [segments.join('/')];
  segments.forEach((s, i) => {
    if (s === 'media') candidates.push(segments.slice(i + 1).join('/'), segments.slice(i + 2).join('/'));
  });
  const found = candidates.find((c) => c !== ref && mediaIds.has(c));
  return found === undefined ? '' : `; did you mean '${found}'? (the path under media/ alone, as it is on disk)`;
}

/**
 * `; did you mean 'ann'?` for an entry named by its file (`ann.yaml`, `authors/ann.md`,
 * `./authors/ann`) rather than by its id (found from outside: no hint).
 */
function asEntryPath(ref: string, ids: ReadonlySet<string>): string {
  const name = ref.replace(/\\/g, '/').split('/').at(-1) as string;
  const id = name.replace(/\.(?:md|markdown|ya?ml|json)$/i, '');
  return id !== ref && ids.has(id) ? `; did you mean '${id}'? (an entry's id: its file name without folder and extension, or its id:)` : '';
}

/** `; did you mean 'img/w.svg'?` for `w.svg` when the file is in a folder of media/ (found from outside). */
function inFolder(ref: string, mediaIds: ReadonlySet<string>): string {
  if (ref.includes('/')) return '';
  let names = byName.get(mediaIds);
  if (names === undefined) {
    names = new Map();
    for (const id of mediaIds) {
      const name = id.slice(id.lastIndexOf('/') + 1);
      if (name === id) continue;
      const same = names.get(name);
      if (same) same.push(id);
      else names.set(name, [id]);
    }
    byName.set(mediaIds, names);
  }
  const found = names.get(ref) ?? [];
  return found.length === 0
    ? ''
    : `; did you mean ${found
        .slice(0, 3)
        .map((id) => `'${id}'`)
        .join(' or ')}?`;
}
