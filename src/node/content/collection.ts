// One collection folder → a CollectionRecord: its schema (declared or inferred), every entry,
// duplicate ids, and the default order.
import { ownValue, type CollectionRecord, type EntryRecord, type FieldDef, type SortKey } from '../../core/model/model.js';
import { sortEntries } from '../../core/snapshot/order.js';
import { buildEntry, baseName, type EntryContext } from './entries.js';
import type { CollectionLayout, FileInfo } from './files.js';
import type { CommitTimes } from './git-times.js';
import { idProblem } from '../../core/model/identifiers.js';
import { IssueList, isPlainObject } from './issues.js';
import { entryLine, type ParsedEntry } from './parse.js';
import type { ProjectConfig } from './project.js';
import { inferFields, readSort, type CollectionConfig } from './schema.js';
import { linkTranslations, TRANSLATIONS_FIELD, translationsField } from './translations.js';
import type { RenderMarkdown } from './values.js';
import { windowsNameProblem } from './windows-names.js';

export interface BuiltCollection {
  readonly record: CollectionRecord;
  /** Each kept entry's parse result, for line numbers when references are resolved. */
  readonly parsed: ReadonlyMap<EntryRecord, ParsedEntry>;
  /** Ids of every entry file, broken ones included (so references to them are not reported twice). */
  readonly knownIds: ReadonlySet<string>;
  readonly config: CollectionConfig;
  readonly configFile: string;
}

/**
 * What the incremental loader remembers between loads, so that a reload after one edit does only
 * the work that edit requires. Keyed by the parse results, which stay the same objects while their
 * files are unchanged (see FileCache) — and are shared by files of the same text (parse-memo.ts),
 * so a built entry also records the file it was built for.
 */
export interface CollectionMemo {
  /** Built entries by parse result, valid for the context signature `sig`; none for a loader that loads once. */
  readonly entries?: WeakMap<
    ParsedEntry,
    { sig: string; rel: string; created: number; updated: number; record: EntryRecord | undefined; issues: IssueList }
  >;
  /** Inferred fields of the last load, per collection path. */
  readonly inferred: Map<string, { parsed: readonly ParsedEntry[]; bodyField: string; fields: FieldDef[]; mixed: readonly Warning[] }>;
  /** The last default order, per collection path. */
  readonly sorted: Map<string, { unsorted: readonly EntryRecord[]; sort: string; sorted: EntryRecord[] }>;
  /**
   * The last signature per collection path: an equal one of the next load is this string, so that
   * each remembered entry's signature is compared by identity rather than by its text.
   */
  readonly sigs: Map<string, string>;
}

/** `entries`: whether built entries are remembered (a loader that loads once needs them never). */
export function createCollectionMemo(entries = true): CollectionMemo {
  return { ...(entries ? { entries: new WeakMap() } : {}), inferred: new Map(), sorted: new Map(), sigs: new Map() };
}

const sameItems = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export interface CollectionInput {
  readonly projectFolder: string;
  readonly layout: CollectionLayout;
  readonly config: CollectionConfig;
  readonly entries: readonly { file: FileInfo; parsed: ParsedEntry }[];
}

export function buildCollection(
  input: CollectionInput,
  project: ProjectConfig,
  options: {
    drafts: boolean;
    render: RenderMarkdown;
    issues: IssueList;
    memo: CollectionMemo;
    timesOf?: (file: FileInfo) => CommitTimes;
    /** Copy each entry's values out of its file's text (see EntryContext.detach); default true. */
    detach?: boolean;
    /** See EntryContext.localesUnread. */
    localesUnread?: boolean | undefined;
  },
): BuiltCollection | undefined {
  const { layout, config, entries } = input;
  const { issues, memo } = options;
  const key = `${input.projectFolder}/${layout.folder}`;
  const configFile = `${input.projectFolder}/${layout.folder}/_collection.yaml`;
  const slugIssue = idProblem('collection slug', layout.folder);
  if (slugIssue) {
    issues.error(`${input.projectFolder}/${layout.folder}/`, slugIssue);
    return undefined;
  }
  for (const { file, parsed } of entries) {
    for (const p of parsed.problems) issues.error(file.rel, p.message, { line: p.line, frame: p.frame });
    // A schema saved without its `_`: read as an entry, while the fields it would hide are published.
    if (
      !config.fields &&
      /^collection\.ya?ml$/i.test(file.rel.slice(file.rel.lastIndexOf('/') + 1)) &&
      isPlainObject(parsed.data?.fields)
    ) {
      issues.error(
        file.rel,
        `this looks like the collection's schema, but a schema is read only from ${configFile} (with a _ first), which does not exist: rename this file to ${configFile}`,
        { line: entryLine(parsed, 'fields'), field: 'fields' },
      );
    }
  }
  // Only elmapi3 answers a singleton's list route with its one entry: elsewhere the key does nothing.
  if (config.singleton && project.dialect !== 'elmapi3') {
    issues.warn(
      configFile,
      `has an effect only in a project of dialect elmapi3 (whose list route answers the one entry); in this ${project.dialect ?? 'cqa'} project the collection is listed like any other: remove the key, or set dialect: elmapi3 in project.yaml`,
      { line: config.singletonLine, field: 'singleton' },
    );
  }

  const hasMarkdown = entries.some((e) => e.parsed.body !== undefined);
  let fields: FieldDef[];
  if (config.fields) {
    fields = config.fields;
    // A Markdown body needs somewhere to go: an undeclared body field is markdown, listed last.
    if (hasMarkdown && !fields.some((f) => f.name === config.body_field)) {
      fields = [...fields, { name: config.body_field, type: 'markdown', required: false, multiple: false, hidden: false }];
    }
  } else {
    const parsedList = entries.map((e) => e.parsed);
    let last = memo.inferred.get(key);
    if (!last || last.bodyField !== config.body_field || !sameItems(last.parsed, parsedList)) {
      const samples = entries.flatMap((e) => (e.parsed.data ? [{ data: e.parsed.data, hasBody: e.parsed.body !== undefined }] : []));
      const inferred = inferFields(samples, config.body_field);
      last = { parsed: parsedList, bodyField: config.body_field, fields: inferred, mixed: mixedKinds(inferred, entries, configFile) };
      memo.inferred.set(key, last);
    }
    fields = last.fields;
    for (const w of last.mixed) issues.warn(w.file, w.message, w.at);
  }

  // Inferred from entries that write a computed field themselves: that entry is the mistake.
  if (!config.fields) {
    const computedNames = [config.render === 'html' ? `${config.body_field}_html` : '', config.translations ? TRANSLATIONS_FIELD : ''];
    fields = fields.filter((f) => !computedNames.includes(f.name));
  }
  const renderedField = config.render === 'html' ? renderedBodyField(config, fields, configFile, issues) : undefined;
  if (renderedField) fields = withRenderedField(fields, config.body_field, renderedField);
  // Fields filled from elsewhere than the entry's file: writing one there is a mistake.
  const computed = new Map<string, string>();
  if (renderedField) computed.set(renderedField, 'the body rendered as HTML (render: html');
  const linked =
    config.translations === true &&
    computedFieldFree(TRANSLATIONS_FIELD, 'translations: true', config.translationsLine, fields, configFile, issues);
  if (linked) {
    fields = [...fields, translationsField];
    computed.set(TRANSLATIONS_FIELD, "the list of this entry's locale variants (translations: true");
  }

  const ctx: EntryContext = {
    project,
    collection: {
      slug: layout.folder,
      bodyField: config.body_field,
      ...(renderedField ? { renderedField } : {}),
      computed,
      fields: new Map(fields.map((f) => [f.name, f])),
      declared: config.fields !== undefined,
      configFile,
    },
    drafts: options.drafts,
    render: options.render,
    issues,
    detach: options.detach ?? true,
    localesUnread: options.localesUnread === true,
  };

  const byId = new Map<string, EntryRecord>();
  const parsedOf = new Map<EntryRecord, ParsedEntry>();
  const knownIds = new Set<string>();
  // Everything buildEntry reads besides the file itself: when it is unchanged, so is the entry.
  const made = JSON.stringify([
    ctx.collection.slug,
    ctx.collection.bodyField,
    fields,
    ctx.collection.declared,
    configFile,
    project.id,
    project.locales,
    project.default_locale,
    ctx.drafts,
    ctx.localesUnread,
  ]);
  const lastSig = memo.sigs.get(key);
  const sig = lastSig === made ? lastSig : made;
  memo.sigs.set(key, sig);
  const build = (file: FileInfo, parsed: ParsedEntry): EntryRecord | undefined => {
    const times = options.timesOf?.(file) ?? { created: file.mtimeMs, updated: file.mtimeMs };
    if (!memo.entries) return buildEntry(ctx, file, parsed, times);
    const { created, updated } = times;
    let built = memo.entries.get(parsed);
    if (!built || built.sig !== sig || built.rel !== file.rel || built.created !== created || built.updated !== updated) {
      const local = new IssueList();
      built = { sig, rel: file.rel, created, updated, record: buildEntry({ ...ctx, issues: local }, file, parsed, times), issues: local };
      memo.entries.set(parsed, built);
    }
    for (const issue of built.issues.errors) issues.errors.push(issue);
    for (const issue of built.issues.warnings) issues.warnings.push(issue);
    return built.record;
  };
  for (const { file, parsed } of entries) {
    const record = build(file, parsed);
    if (!record) {
      knownIds.add(baseName(file.rel));
      continue;
    }
    knownIds.add(record.id);
    // elmapi3: a relation may name its target by file name as well as by (derived) uuid.
    if (project.dialect === 'elmapi3') knownIds.add(baseName(file.rel));
    const other = byId.get(record.id);
    if (other) {
      issues.error(
        file.rel,
        `duplicate id '${record.id}': ${other.file} has the same id (ids must be unique in a collection): rename one of the files, or set another 'id:' in it`,
        {
          field: 'id',
          line: entryLine(parsed, 'id'),
        },
      );
      continue;
    }
    byId.set(record.id, record);
    parsedOf.set(record, parsed);
  }

  warnCaseTwins(byId.values(), issues);
  for (const e of byId.values()) {
    const windows = windowsNameProblem(e.file, e.id);
    if (windows) issues.warn(e.file, windows, { field: 'id' });
  }
  warnSharedSlugs(fields, parsedOf, issues);
  const built = [...byId.values()];
  const listed = linked
    ? linkTranslations(built, project.locales, (e, other) =>
        issues.warn(
          e.file,
          `'${e.id}' and '${other.id}' (${other.file}) are variants of one entry in the same locale '${e.locale}', so translations lists '${other.id}' alone: give one of them another locale (a locale suffix in its file name, or locale: in the file)`,
          { field: 'locale' },
        ),
      )
    : built;
  // The linked records are new objects: they keep their file's parse results (for later lines).
  if (linked)
    listed.forEach((e, i) => {
      parsedOf.set(e, parsedOf.get(built[i] as EntryRecord) as ParsedEntry);
    });
  const sort = readSort(config.sort, fields, (message) => issues.error(configFile, message, { line: config.sortLine, field: 'sort' }));
  const record: CollectionRecord = {
    slug: layout.folder,
    name: config.name,
    body_field: config.body_field,
    sort,
    fields,
    entries: sortOnce(memo, key, listed, sort),
    ...(config.singleton ? { singleton: true } : {}),
  };
  return { record, parsed: parsedOf, knownIds, config, configFile };
}

/** sortEntries, skipped when neither the entries nor the keys changed since the last load. */
function sortOnce(memo: CollectionMemo, key: string, unsorted: EntryRecord[], keys: readonly SortKey[]): EntryRecord[] {
  const sort = JSON.stringify(keys);
  const last = memo.sorted.get(key);
  if (last && last.sort === sort && sameItems(last.unsorted, unsorted)) return last.sorted;
  const sorted = sortEntries(unsorted, keys);
  memo.sorted.set(key, { unsorted, sort, sorted });
  return sorted;
}

/** Whether no schema field has the name of the field `option` adds (else that is reported). */
function computedFieldFree(
  name: string,
  option: string,
  line: number | undefined,
  fields: readonly FieldDef[],
  configFile: string,
  issues: IssueList,
): boolean {
  if (!fields.some((f) => f.name === name)) return true;
  issues.error(configFile, `${option} adds the field '${name}', but the schema has a field '${name}' already: rename that field`, {
    line,
    field: option.split(':')[0],
  });
  return false;
}

/**
 * `render: html`: the field that serves the body as HTML (`body_html`), or undefined when the
 * schema has a field of that name already (reported: renaming one of them is the fix).
 */
function renderedBodyField(
  config: CollectionConfig,
  fields: readonly FieldDef[],
  configFile: string,
  issues: IssueList,
): string | undefined {
  const name = `${config.body_field}_html`;
  if (!fields.some((f) => f.name === name)) return name;
  issues.error(
    configFile,
    `render: html serves the body as HTML in the field '${name}', but the schema has a field '${name}' already: rename that field`,
    { line: config.renderLine, field: 'render' },
  );
  return undefined;
}

/** The fields with the rendered body (type richtext: sanitized HTML) right after the body field. */
function withRenderedField(fields: readonly FieldDef[], bodyField: string, name: string): FieldDef[] {
  const html: FieldDef = { name, type: 'richtext', required: false, multiple: false, hidden: false };
  const at = fields.findIndex((f) => f.name === bodyField);
  return at < 0 ? [...fields, html] : [...fields.slice(0, at + 1), html, ...fields.slice(at + 1)];
}

/** 'text', or another kind a value (or an item of a list) has; undefined for none. */
function kindOf(value: unknown): string | undefined {
  if (typeof value === 'string') return 'text';
  if (value === null || value === undefined) return undefined;
  if (!Array.isArray(value)) return typeof value;
  const kinds = value.map(kindOf);
  return kinds.find((k) => k !== undefined && k !== 'text') ?? (kinds.includes('text') ? 'text' : undefined);
}

/**
 * A guessed text field whose files also give it numbers or booleans: those are served as text
 * (`true` as "true", which a client reads as truthy whatever it says), in silence until said here
 * (found from outside). Said once per field, at the first file that gives another kind; found
 * once per inferred schema (the incremental loader reuses both while the files are unchanged).
 */
function mixedKinds(fields: readonly FieldDef[], entries: CollectionInput['entries'], configFile: string): Warning[] {
  const warnings: Warning[] = [];
  for (const field of fields) {
    if (field.type !== 'text') continue;
    let other: { file: FileInfo; parsed: ParsedEntry; kind: string } | undefined;
    let text: FileInfo | undefined;
    for (const { file, parsed } of entries) {
      const kind = kindOf(parsed.data ? ownValue(parsed.data, field.name) : undefined);
      if (kind === 'text') text ??= file;
      else if (kind) other ??= { file, parsed, kind };
      if (other && text) break;
    }
    if (!other || !text) continue;
    warnings.push({
      file: other.file.rel,
      message: `'${field.name}' is guessed to be text (this collection has no ${configFile}), since its files give it values of different kinds: text in ${text.rel}, a ${other.kind} here, which is served as text. Write every file's value the same way, or declare the field's type in ${configFile}`,
      at: { line: entryLine(other.parsed, field.name), field: field.name },
    });
  }
  return warnings;
}

/** A warning kept with the inferred fields it is about: said again by each load that reuses them. */
interface Warning {
  readonly file: string;
  readonly message: string;
  readonly at: { readonly line: number | undefined; readonly field: string };
}

/**
 * Two entries of one locale with the same value in a slug field: a front end that finds an entry
 * by its slug (`where[slug]=…&first`) gets either one. Locale variants of one entry may share it;
 * drafts are left out (`cqa build --drafts` counts them as published).
 */
function warnSharedSlugs(fields: readonly FieldDef[], parsedOf: ReadonlyMap<EntryRecord, ParsedEntry>, issues: IssueList): void {
  for (const field of fields) {
    if (field.type !== 'slug' || field.multiple) continue;
    const first = new Map<string, EntryRecord>();
    for (const [e, parsed] of parsedOf) {
      const slug = ownValue(e.values, field.name);
      // A draft is served only to those who ask for drafts, and may be meant to replace the other.
      if (typeof slug !== 'string' || e.draft) continue;
      const key = `${e.locale}\0${slug}`;
      const other = first.get(key);
      if (!other) first.set(key, e);
      else
        issues.warn(
          e.file,
          `the ${field.name} '${slug}' is also the ${field.name} of ${other.file}, in the same locale (${e.locale}): a front end that finds an entry by it (where[${field.name}]=${slug}) gets either; give each entry its own`,
          { line: entryLine(parsed, field.name), field: field.name },
        );
    }
  }
}

/**
 * Ids that differ only in case are two documents of `cqa build` in folders a case-insensitive
 * file system (macOS, Windows) takes for one: one of them would be lost there (found from outside).
 */
function warnCaseTwins(records: Iterable<EntryRecord>, issues: IssueList): void {
  const byFolded = new Map<string, EntryRecord>();
  for (const e of records) {
    const folded = e.id.toLowerCase();
    const twin = byFolded.get(folded);
    if (!twin) byFolded.set(folded, e);
    // A locale suffix in another case is said already, with the file name to write.
    else if (!issues.warnings.some((w) => w.file === e.file && w.field === 'locale'))
      issues.warn(
        e.file,
        `the id '${e.id}' differs from '${twin.id}' (${twin.file}) only in case: a static tree built or copied on macOS or Windows, whose file systems do not tell them apart, keeps one of the two; give one of them another id`,
        { field: 'id' },
      );
  }
}
