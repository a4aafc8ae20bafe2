// One entry file → an EntryRecord: reserved keys (id, locale, draft, timestamps), then every field
// coerced to its schema type. All problems are reported; the entry is kept when its id is usable.
import { ownValue, type EntryRecord, type FieldDef, type FieldValue } from '../../core/model/model.js';
import { isEmpty } from '../../core/snapshot/order.js';
import { valueRecord } from '../../core/model/value-record.js';
import type { FileInfo } from './files.js';
import type { CommitTimes } from './git-times.js';
import { fieldNameProblem, idProblem, RESERVED_KEYS } from '../../core/model/identifiers.js';
import { closestName } from '../../core/suggest.js';
import { describe, listNames, type IssueList, yaml11Boolean } from './issues.js';
import { localeFromFileName, localeLikeName, sameLocale } from './locale.js';
import { entryLine, type ParsedEntry, type UnkeptValue, unkeptMessage } from './parse.js';
import type { ProjectConfig } from './project.js';
import { dateFormHint, finerThanMs, impossibleDateHint, isoFromMs, parseDateTime } from './timestamps.js';
import { commentedValueHint, cutValueHint } from './unquoted-colour.js';
import { entryUuid, isUuid, lowerCaseHint, UUID_HINT } from './uuid.js';
import { RenderBudget, renderBounded } from './richtext.js';
import { coerceField, expected, type RenderMarkdown } from './values.js';

export interface CollectionContext {
  readonly slug: string;
  readonly bodyField: string;
  readonly fields: ReadonlyMap<string, FieldDef>;
  /** Whether the fields come from _collection.yaml (then unknown keys are errors). */
  readonly declared: boolean;
  /** Where the schema lives, for "add it to …" hints. */
  readonly configFile: string;
  /** `render: html`: the field holding the body rendered as HTML (`body_html`). */
  readonly renderedField?: string;
  /** Fields filled by an option of _collection.yaml, with what they hold: never written in a file. */
  readonly computed?: ReadonlyMap<string, string>;
}

export interface EntryContext {
  readonly project: ProjectConfig;
  readonly collection: CollectionContext;
  /** `cqa build --drafts`: drafts count as published. */
  readonly drafts: boolean;
  readonly render: RenderMarkdown;
  readonly issues: IssueList;
  /**
   * Copy the values out of the file's text (see detached()): false where the model ends with the
   * job that loads it (`cqa build`), so keeping the texts costs nothing.
   */
  readonly detach?: boolean;
  /** project.yaml did not read: the project's locales are defaults, so no locale is called unknown. */
  readonly localesUnread?: boolean;
}

/** The file name without its last extension: the default entry id (`hello.de.md` → `hello.de`). */
export function baseName(rel: string): string {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * `hello.fr.md` in a project without `fr`: the suffix is no locale of the project, so the entry is
 * in the default locale with the id `hello.fr` — said, since that is rarely what was meant.
 */
function warnLocaleLikeSuffix(ctx: EntryContext, rel: string, fileId: string, locale: string): void {
  const dot = fileId.lastIndexOf('.');
  const suffix = dot > 0 ? fileId.slice(dot + 1) : '';
  const { project } = ctx;
  if (suffix === '' || project.locales.includes(suffix)) return;
  const same = sameLocale(project.locales, suffix);
  if (same) {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    ctx.issues.warn(
      rel,
      `the file name ends in '.${suffix}', the locale '${same}' of project '${project.id}' in another case: this entry is '${locale}' with the id '${fileId}' (a file name's locale is matched exactly). Rename the file ${fileId.slice(0, dot)}.${same}${name.slice(fileId.length)} to make it the ${same} version of '${fileId.slice(0, dot)}'`,
      { field: 'locale' },
    );
    return;
  }
  const language = localeLikeName(suffix);
  if (!language) return;
  ctx.issues.warn(
    rel,
    `the file name ends in '.${suffix}' (${language}), which is not a locale of project '${project.id}' (locales: ${project.locales.join(', ')}): this entry is '${locale}' with the id '${fileId}'. Add ${suffix} to 'locales:' in project.yaml to make it the ${suffix} version of '${fileId.slice(0, dot)}', or set 'locale:' and 'id:' in the file to keep this name`,
    { field: 'locale' },
  );
}

/**
 * `fallback`: created_at/updated_at of an entry that sets none (the file's commit times under
 * `--timestamps git`, else its modification time).
 */
export function buildEntry(
  ctx: EntryContext,
  file: FileInfo,
  parsed: ParsedEntry,
  fallback: CommitTimes = { created: file.mtimeMs, updated: file.mtimeMs },
): EntryRecord | undefined {
  const { issues, collection, project } = ctx;
  const data = parsed.data;
  if (!data) return undefined;
  // An empty file (a 0-byte save, `touch`) is an entry with nothing in it: published, every field null.
  if (Object.keys(data).length === 0 && (parsed.body ?? '').trim() === '')
    issues.warn(
      file.rel,
      'empty: this entry has no fields and no body, so it is published with every field null; write its content, or remove the file',
    );
  const at = (key: string, index?: number) => ({ line: entryLine(parsed, key, index), field: key });
  const err = (key: string, message: string, index?: number) => issues.error(file.rel, message, at(key, index));
  // Values no field can keep (1e400, .nan, !!binary): errors of their fields, with advice for the
  // field's type; the rest of the entry is checked too.
  const unkeptKeys = new Set<string>();
  for (const u of parsed.unkept ?? []) {
    const [key, ...rest] = u.path as [string, ...(string | number)[]];
    unkeptKeys.add(key);
    const path = rest.map((p) => (typeof p === 'number' ? `item ${p + 1}` : p));
    issues.error(file.rel, unkeptMessage(u, path, unkeptFix(u, collection.fields.get(key), rest)), { line: u.line, field: key });
  }

  // id
  const fileId = baseName(file.rel);
  let id = fileId;
  if (data.id !== undefined && data.id !== null) {
    const written = parsed.numbers?.get('id');
    const read = String(data.id);
    // elmapi ids are numbers: there `007` is the id 7, meant or not; elsewhere an id is text.
    if (written !== undefined && project.dialect !== 'elmapi')
      err('id', `'${written}' reads as the number ${read}, so the id would be '${read}': quote it (id: "${written}")`);
    else if (typeof data.id === 'string' || typeof data.id === 'number') {
      if (written !== undefined) issues.warn(file.rel, `'${written}' is the id ${read}: write id: ${read}`, at('id'));
      id = read;
    } else err('id', `expected an entry id, got ${describe(data.id)}`);
  }
  // elmapi3: entries are named by uuid; a file without one gets a uuid derived from where it lies.
  if (project.dialect === 'elmapi3') {
    if (data.id === undefined || data.id === null)
      id = entryUuid(project.id, collection.slug, file.rel.slice(file.rel.lastIndexOf('/') + 1));
    else if (!isUuid(id))
      err(
        'id',
        `in a project of dialect elmapi3 an entry's 'id:' must be ${UUID_HINT}; got '${id}'${lowerCaseHint(id, 'id: ')} (or leave 'id:' out: a uuid is derived from the file name)`,
      );
  }
  const idIssue = idProblem('entry id', id);
  if (idIssue) {
    if (data.id === undefined)
      issues.error(file.rel, `${idIssue}; it comes from the file name: rename the file or set 'id:'`, { field: 'id' });
    else err('id', idIssue);
  }

  // locale
  const named = localeFromFileName(fileId, project.locales);
  let locale = named ?? project.default_locale;
  if (data.locale !== undefined && data.locale !== null) {
    const same = typeof data.locale === 'string' ? sameLocale(project.locales, data.locale) : undefined;
    if (typeof data.locale === 'string' && project.locales.includes(data.locale)) {
      locale = data.locale;
      // `post.de.md` with `locale: en`: one of the two is a mistake (found from outside).
      if (named !== undefined && named !== locale)
        issues.warn(
          file.rel,
          `the file name says '${named}' and locale: says '${locale}': this entry is '${locale}'; rename the file or correct locale:`,
          at('locale'),
        );
    } else if (typeof data.locale === 'string' && data.locale.trim() === '')
      // `locale: ""` (a template's blank) got "unknown locale """, which said neither what is wrong nor what to write.
      err(
        'locale',
        `locale ${describe(data.locale)} is empty: write a locale of project '${project.id}' (${listNames(project.locales, project.locales.length)}), or leave 'locale:' out to make the entry '${locale}' (${named !== undefined ? 'as its file name says' : "the project's default"})`,
      );
    else if (same)
      err(
        'locale',
        `locale '${String(data.locale)}' is the locale '${same}' of project '${project.id}' in another case: write it as project.yaml does (locale: ${same})`,
      );
    else if (!ctx.localesUnread)
      err(
        'locale',
        `unknown locale ${describe(data.locale)}: project '${project.id}' has locales ${listNames(project.locales, project.locales.length)} (add it to locales in project.yaml)`,
      );
  } else if (data.id === undefined) {
    warnLocaleLikeSuffix(ctx, file.rel, fileId, locale);
  }

  // draft
  let draft = false;
  if (data.draft !== undefined && data.draft !== null) {
    if (typeof data.draft === 'boolean') draft = data.draft;
    else err('draft', `expected true or false, got ${describe(data.draft)}${yaml11Boolean(data.draft)}`);
  }
  if (ctx.drafts) draft = false;

  // timestamps
  const stamp = (key: 'created_at' | 'updated_at' | 'published_at'): string | undefined => {
    const v = data[key];
    if (v === undefined || v === null) return undefined;
    const iso = typeof v === 'string' ? parseDateTime(v) : undefined;
    if (!iso)
      err(
        key,
        `expected an ISO 8601 date-time like 2021-11-25T10:00:00Z, got ${describe(v)}${typeof v === 'string' ? impossibleDateHint(v) || dateFormHint(v, 'datetime') : ''}`,
      );
    else warnFinerThanMs(ctx, file, parsed, key, v as string, iso);
    return iso;
  };
  const created_at = stamp('created_at') ?? isoFromMs(fallback.created);
  const updated_at = stamp('updated_at') ?? isoFromMs(fallback.updated);
  const published_at = stamp('published_at') ?? (draft ? null : created_at);

  // fields (keys are field names: no Object.prototype, so not even '__proto__' could reach it)
  const values = valueRecord<FieldValue>();
  const hasBody = parsed.body !== undefined;
  // Leading blank lines and trailing whitespace are not content; CRLF becomes LF so a checkout on
  // Windows gives the same output.
  const body = parsed.body
    ?.replace(/\r\n?/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd();
  // The emphasis work of this file's richtext values, counted together (richtext.ts).
  const budget = new RenderBudget();
  for (const key of Object.keys(data)) {
    if (RESERVED_KEYS.includes(key) || unkeptKeys.has(key)) continue;
    const raw = data[key];
    if (hasBody && key === collection.bodyField && body !== '') {
      err(key, `'${key}' is the body field of this collection and the file also has a Markdown body: keep one of them`);
      continue;
    }
    const computed = collection.computed?.get(key);
    if (computed !== undefined) {
      err(key, `'${key}' is ${computed} in ${collection.configFile}): remove it from the file`);
      continue;
    }
    if (raw === null) warnCommentedValue(ctx, file, parsed, key);
    else if (typeof raw === 'string' && parsed.comments?.has(key)) {
      issues.warn(file.rel, cutValueHint(key, raw, parsed.comments.get(key) as string), { line: entryLine(parsed, key), field: key });
    }
    setValue(ctx, file, parsed, values, key, raw, budget);
  }
  if (hasBody && body !== '') {
    setValue(ctx, file, parsed, values, collection.bodyField, body, budget, parsed.bodyLine);
  }
  // render: html — the same renderer as richtext fields (sanitized HTML).
  const source = ownValue(values, collection.bodyField);
  if (collection.renderedField && typeof source === 'string') {
    const r = renderBounded(source, ctx.render, budget);
    if ('html' in r) values[collection.renderedField] = r.html;
    else {
      const line = hasBody ? parsed.bodyLine : entryLine(parsed, collection.bodyField);
      issues.error(file.rel, `cannot be rendered for render: html (${collection.configFile}): the Markdown ${r.problem}`, {
        line,
        field: collection.bodyField,
      });
    }
  }

  for (const field of collection.fields.values()) {
    // A value that is there but invalid has been reported already: don't also call it empty.
    const inFile = ownValue(data, field.name);
    const value = ownValue(values, field.name);
    const raw = hasBody && field.name === collection.bodyField ? body : inFile;
    if (field.required && !unkeptKeys.has(field.name) && isBlank(value) && isBlank(raw as FieldValue | undefined)) {
      const comment = parsed.comments?.get(field.name);
      const missing = value === undefined && inFile === undefined;
      const message = missing
        ? `required field is missing${inBody(parsed, field.name)}`
        : `required field is empty${comment === undefined ? '' : `: ${commentedValueHint(field.name, comment)}`}`;
      // A missing field has no line of its own: the body's, or the first, where the file's fields begin.
      const line = entryLine(parsed, field.name) ?? (missing && field.name === collection.bodyField ? parsed.bodyLine : undefined) ?? 1;
      issues.error(file.rel, message, { line, field: field.name });
    }
  }

  if (idIssue) return undefined;
  return {
    id,
    locale,
    draft,
    created_at,
    updated_at,
    published_at,
    values: ctx.detach === false ? values : detached(values),
    file: file.rel,
  };
}

/**
 * What to write instead of a value no field can keep, when the usual advice (quote it, or drop the
 * tag: text) does not fit the field: a number field wants a number, a date field a date.
 */
function unkeptFix(u: UnkeptValue, field: FieldDef | undefined, within: readonly (string | number)[]): string | undefined {
  const own = within.length === 0 || (field?.multiple === true && within.length === 1 && typeof within[0] === 'number');
  if (!field || !own || u.kind === 'binary' || u.kind === 'set' || u.kind === 'map' || u.kind === 'timestamp') return undefined;
  if (field.type === 'number') {
    if (u.kind === 'nan') return 'write a number, or leave the field out';
    if (u.kind === 'infinity') return 'write a number below 1.8e308 (about the largest a number field holds)';
    return 'write it with fewer digits (a number field keeps whole numbers up to 9,007,199,254,740,991 exactly), or make the field text and quote the value';
  }
  if (TEXT_TYPES.has(field.type)) return undefined;
  return `write ${expected(field)}`;
}

/** Empty, or text of blanks only (`title: "   "` fills no required field; found from outside). */
const isBlank = (value: FieldValue | undefined) => isEmpty(value) || (typeof value === 'string' && value.trim() === '');

/** Field types that take any text: a quoted value is theirs as written. */
const TEXT_TYPES = new Set(['text', 'longtext', 'markdown', 'richtext', 'password', 'json']);

/**
 * `accent: #ff8800` is `accent:` and a comment: the value is null. Say so for an optional field of
 * the schema (a required one says it in its 'required field is empty'), and in a collection
 * without a schema for a comment that reads as a value (`#fff`, `#news`: no space after the `#`;
 * `key: # to do` is a comment there).
 */
function warnCommentedValue(ctx: EntryContext, file: FileInfo, parsed: ParsedEntry, key: string): void {
  const field = ctx.collection.fields.get(key);
  const comment = parsed.comments?.get(key);
  if (!field || field.required || comment === undefined) return;
  if (!ctx.collection.declared && !/^#[^\s#]/.test(comment)) return;
  ctx.issues.warn(file.rel, `no value: ${commentedValueHint(key, comment)}`, { line: entryLine(parsed, key), field: key });
}

/**
 * A deep copy of `values` (plain JSON data) with strings of their own: the parsers' strings are
 * often slices of the whole file text, which would keep every file's text alive with the model.
 */
function detached(values: Record<string, FieldValue>): Record<string, FieldValue> {
  return JSON.parse(JSON.stringify(values)) as Record<string, FieldValue>;
}

/**
 * A Markdown file without front matter whose body starts with the field (`title: Hello` on line
 * 1): the fields were meant for front matter (found from outside: only "missing" was said).
 */
function inBody(parsed: ParsedEntry, name: string): string {
  if (parsed.body === undefined || parsed.bodyLine !== 1) return '';
  const head = parsed.body.slice(0, 2000).split('\n', 20);
  const at = head.findIndex((line) => line.startsWith(`${name}:`));
  return at < 0 ? '' : `; the body has '${name}:' on line ${at + 1}: put the fields between '---' lines at the top (front matter)`;
}

/**
 * The fields a file may write, listed for a message: not the ones an option fills (body_html,
 * translations). Made once per schema: an entry with 20,000 keys a schema of 20,000 fields lacks
 * took 120 s when each made it again (found from outside).
 */
const writable = new WeakMap<CollectionContext, string>();

function writableFields(collection: CollectionContext): string {
  let text = writable.get(collection);
  if (text === undefined) {
    const names = [...collection.fields.values()]
      .filter((f) => fieldNameProblem(f.name) === undefined && !collection.computed?.has(f.name))
      .map((f) => f.name);
    text = listNames(names, names.length) || '(none)';
    writable.set(collection, text);
  }
  return text;
}

/** Per collection: the names a file may write, by their lower case (made once), and the edit-distance suggestions made so far. */
const nearness = new WeakMap<CollectionContext, { readonly folded: Map<string, string>; tried: number }>();

/** Unknown keys of one collection given a did-you-mean by edit distance, at most. */
const NEAR_TRIES = 200;

/**
 * The field a mistyped key was meant to be: the same name in another case, or a close one in a
 * schema small enough to compare every name, for the collection's first NEAR_TRIES such keys
 * (thousands of unknown keys stay linear: found from outside).
 */
function nearField(collection: CollectionContext, key: string): string | undefined {
  let near = nearness.get(collection);
  if (near === undefined) {
    const folded = new Map<string, string>();
    for (const name of collection.fields.keys()) if (!collection.computed?.has(name)) folded.set(name.toLowerCase(), name);
    near = { folded, tried: 0 };
    nearness.set(collection, near);
  }
  const sameLetters = near.folded.get(key.toLowerCase());
  if (sameLetters !== undefined) return sameLetters;
  if (key.length < 3 || near.folded.size > 200 || near.tried >= NEAR_TRIES) return undefined;
  near.tried++;
  return closestName(key, near.folded.values());
}

function setValue(
  ctx: EntryContext,
  file: FileInfo,
  parsed: ParsedEntry,
  values: Record<string, FieldValue>,
  key: string,
  raw: unknown,
  budget: RenderBudget,
  line?: number,
): void {
  const { issues, collection } = ctx;
  const field = collection.fields.get(key);
  if (!field) {
    // Without a schema every valid key is an inferred field, so only bad names end up here.
    const near = collection.declared ? nearField(collection, key) : undefined;
    const message = collection.declared
      ? // The suggestion before the list, which a long schema makes too long to show whole.
        `not in the schema of collection '${collection.slug}'${near ? `: did you mean '${near}'?` : ''} (fields: ${writableFields(collection)}); ${near ? 'else add' : 'add'} it to ${collection.configFile} or remove it`
      : (fieldNameProblem(key) ?? `'${key}' is not a field of collection '${collection.slug}'`);
    issues.error(file.rel, message, { line: line ?? entryLine(parsed, key), field: key });
    return;
  }
  const result = coerceField(field, raw, ctx.render, budget);
  // `tags: a, b, c` is one item to YAML (found from outside: served as ["a, b, c"] without a word),
  // in every multiple field: said in the error of a type that refuses it, else as a warning.
  const list = field.multiple && field.type !== 'json' && typeof raw === 'string' && /,\s*\S/.test(raw) ? commaList(raw) : undefined;
  for (const p of result.problems) {
    issues.error(file.rel, list ? `${p.message}; ${list}` : p.message, { line: line ?? entryLine(parsed, key, p.index), field: key });
  }
  if (list && typeof raw === 'string' && result.problems.length === 0) {
    const message = `'${raw.length <= 80 ? raw : `${raw.slice(0, 80)}…`}' is one item, commas and all: ${list}; to keep one item, put it in a list: ["…"]`;
    issues.warn(file.rel, message, { line: line ?? entryLine(parsed, key), field: key });
  }
  if (result.value !== undefined) values[key] = result.value;
  if (field.type === 'datetime' && result.problems.length === 0) {
    const written = Array.isArray(raw) ? raw : [raw];
    const served = Array.isArray(result.value) ? result.value : [result.value];
    written.forEach((w, i) => {
      if (typeof w === 'string') warnFinerThanMs(ctx, file, parsed, key, w, String(served[i]), Array.isArray(raw) ? i : undefined);
    });
  }
  if (parsed.numbers && result.problems.length === 0 && field.type !== 'json' && (field.type !== 'number' || !collection.declared))
    warnRewrittenNumbers(ctx, file, parsed, field, raw);
}

/** `to list several, write [a, b, c] (…)` for a value `a, b, c` (a long one: the form only). */
function commaList(raw: string): string {
  const items = raw.length <= 80 ? raw.split(',').map((s) => s.trim()) : ['a', 'b', 'c'];
  return `to list several, write [${items.join(', ')}] (or one '- item' per line)`;
}

/** `2024-01-01T10:00:00.123456Z`: a datetime keeps milliseconds, so the digits after them are lost. */
function warnFinerThanMs(
  ctx: EntryContext,
  file: FileInfo,
  parsed: ParsedEntry,
  key: string,
  written: string,
  iso: string,
  index?: number,
): void {
  if (!finerThanMs(written)) return;
  ctx.issues.warn(file.rel, `'${written.trim()}' has digits past milliseconds, which a datetime does not keep: served as ${iso}`, {
    line: entryLine(parsed, key, index),
    field: key,
  });
}

/** Written so in a field whose type is guessed, a number is rarely meant: a postal code, a phone number. */
const NOT_A_NUMBER = /^(?:0\d|[-+]?0[xXoO]|\+)/;

/**
 * A field that keeps text was given numbers written in a form they do not print back in
 * (number-text.ts); or a field guessed to be a number (no schema), one written as a code would be.
 */
function warnRewrittenNumbers(ctx: EntryContext, file: FileInfo, parsed: ParsedEntry, field: FieldDef, raw: unknown): void {
  const key = field.name;
  const items = Array.isArray(raw) ? raw.map((v, i) => [v, `${key}\0${i}`, i] as const) : [[raw, key, undefined] as const];
  for (const [value, at, index] of items) {
    const written = parsed.numbers?.get(at);
    if (written === undefined || (field.type === 'number' && !NOT_A_NUMBER.test(written))) continue;
    const read = String(value);
    const quoted = Array.isArray(raw) ? `"${written}"` : `${key}: "${written}"`;
    ctx.issues.warn(
      file.rel,
      field.type === 'number'
        ? `'${written}' reads as the number ${read}, and '${key}' is guessed to be a number (this collection has no ${ctx.collection.configFile}), so ${read} is served: quote it to keep it as written (${quoted}), or declare the field's type`
        : `'${written}' reads as the number ${read}, so the text served is '${read}': quote it to keep it as written (${quoted})`,
      { line: entryLine(parsed, key, index), field: key },
    );
  }
}
