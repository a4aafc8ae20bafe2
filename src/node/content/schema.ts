// _collection.yaml (name, body_field, sort, fields) and type inference for collections without a
// schema (SPEC §2.4).
import { FIELD_TYPES, type FieldDef, type FieldType, type SortKey } from '../../core/model/model.js';
import { isSortable } from '../../core/snapshot/order.js';
import { fieldNameProblem, RESERVED_KEYS } from '../../core/model/identifiers.js';
import { closestName } from '../../core/suggest.js';
import { describe, isPlainObject, listNames, type IssueList, unknownKey, unknownName, yaml11Boolean } from './issues.js';
import type { ParsedYaml } from './parse.js';
import { hasTime, isDate, parseDateTime } from './timestamps.js';

export interface CollectionConfig {
  readonly name: string;
  readonly body_field: string;
  /** The declared fields, or undefined when types are to be inferred. */
  readonly fields: FieldDef[] | undefined;
  /** `sort:` as written (checked once the fields are known), and its line. */
  readonly sort: string | undefined;
  readonly sortLine: number | undefined;
  /** Line of each declared field, for problems found later (e.g. an unknown relation target). */
  readonly fieldLines: ReadonlyMap<string, number>;
  /** `render: html`: the body is also served as HTML, in the field `<body_field>_html`. */
  readonly render?: 'html';
  readonly renderLine?: number | undefined;
  /** `translations: true`: entries name their locale variants in the field `translations`. */
  readonly translations?: true;
  readonly translationsLine?: number | undefined;
  /** `singleton: true` (elmapi3: the list route answers the one entry). */
  readonly singleton?: boolean;
  readonly singletonLine?: number | undefined;
}

const KEYS = ['name', 'body_field', 'sort', 'fields', 'render', 'translations', 'singleton'];
const OPTIONS = ['type', 'required', 'multiple', 'hidden', 'values', 'collection', 'fields', 'repeatable', 'range'];

/**
 * `fields:` written as a list of `- name: title` items, as Decap CMS, Tina and Strapi write a
 * schema (found from outside): the mapping to write instead, from the first items.
 */
function fieldListHint(fields: unknown): string {
  if (!Array.isArray(fields) || fields.length === 0) return '';
  const named = fields.every((f) => isPlainObject(f) && typeof f.name === 'string' && f.name !== '');
  if (!named) return '; write one key per field: fields: { title: text, tags: { type: text, multiple: true } }';
  const plain = (v: unknown): string =>
    Array.isArray(v) ? `[${v.map(plain).join(', ')}]` : typeof v === 'string' && /^[\w.-]+$/.test(v) ? v : JSON.stringify(v);
  const shown = (fields as Record<string, unknown>[]).slice(0, 2).map((f) => {
    const { name, ...options } = f;
    const keys = Object.entries(options);
    if (keys.length === 1 && keys[0]?.[0] === 'type') return `${name}: ${plain(keys[0][1])}`;
    return `${name}: { ${keys.map(([k, v]) => `${k}: ${plain(v)}`).join(', ')} }`;
  });
  return `; write each field as a key of fields:, its name: becoming the key (${shown.join(', then ')}${fields.length > 2 ? ', …' : ''})`;
}

export function readCollectionConfig(parsed: ParsedYaml | undefined, folder: string, file: string, issues: IssueList): CollectionConfig {
  const fieldLines = new Map<string, number>();
  if (!parsed) return { name: folder, body_field: 'body', fields: undefined, sort: undefined, sortLine: undefined, fieldLines };
  const err = (path: (string | number)[], message: string, field?: string) =>
    issues.error(file, message, { line: parsed.lineOf(path), field });
  for (const p of parsed.problems) issues.error(file, p.message, { line: p.line, frame: p.frame });
  let raw: Record<string, unknown> = {};
  if (isPlainObject(parsed.value)) raw = parsed.value;
  else if (parsed.problems.length === 0 && parsed.value !== null && parsed.value !== undefined) {
    err([], `expected a mapping (name, body_field, sort, fields), got ${describe(parsed.value)}`);
  }
  // An emptied schema would silently publish the fields it used to hide (found from outside): an
  // empty file, comments only, `{}`, or `fields:` with its lines commented out.
  const emptyFile =
    parsed.problems.length === 0 && (parsed.value === null || (isPlainObject(parsed.value) && Object.keys(raw).length === 0));
  if (emptyFile || raw.fields === null) {
    const [what, remove] = emptyFile ? ['the file is empty or only comments', 'the file'] : ["'fields:' has nothing under it", "'fields:'"];
    err(
      emptyFile ? [] : ['fields'],
      `declares no field (${what}), so every field of the entries would be published, hidden ones too: declare the fields (with hidden: true for what must not be served), or delete ${remove} to have types inferred from the entries`,
      emptyFile ? undefined : 'fields',
    );
  }
  for (const key of Object.keys(raw)) {
    if (!KEYS.includes(key)) err([key], unknownKey(key, KEYS, '_collection.yaml'), key);
  }

  let name = folder;
  if (typeof raw.name === 'string' || typeof raw.name === 'number') name = String(raw.name);
  else if (raw.name !== undefined && raw.name !== null) err(['name'], `expected text, got ${describe(raw.name)}`, 'name');

  let bodyField = 'body';
  if (typeof raw.body_field === 'string') {
    const problem = fieldNameProblem(raw.body_field);
    if (problem) err(['body_field'], problem, 'body_field');
    else bodyField = raw.body_field;
  } else if (raw.body_field !== undefined && raw.body_field !== null) {
    err(['body_field'], `expected a field name, got ${describe(raw.body_field)}`, 'body_field');
  }

  let sort: string | undefined;
  if (typeof raw.sort === 'string') sort = raw.sort;
  else if (Array.isArray(raw.sort) && raw.sort.every((s) => typeof s === 'string')) sort = raw.sort.join(',');
  else if (raw.sort !== undefined && raw.sort !== null) {
    err(['sort'], `expected keys like 'published_at:desc' or 'title, id:desc', got ${describe(raw.sort)}`, 'sort');
  }

  let fields: FieldDef[] | undefined;
  if (isPlainObject(raw.fields)) {
    fields = [];
    for (const [fieldName, def] of Object.entries(raw.fields)) {
      const line = parsed.lineOf(['fields', fieldName]);
      if (line !== undefined) fieldLines.set(fieldName, line);
      // An empty name ("": text) is said as a mistake of `fields`, not of a field called ''.
      const field = readFieldDef(fieldName, def, (path, message) => err(['fields', fieldName, ...path], message, fieldName || 'fields'));
      if (field) fields.push(field);
    }
  } else if (raw.fields !== undefined && raw.fields !== null) {
    err(['fields'], `expected a mapping of field names to types, got ${describe(raw.fields)}${fieldListHint(raw.fields)}`, 'fields');
  }

  // An undeclared body field is added as markdown: one spelt like a declared field is a typo.
  // Among fields that hold a body (found from outside: 'content' is not a typo of a text 'comment').
  const bodies = fields?.filter((f) => f.type === 'markdown' || f.type === 'richtext' || f.type === 'longtext') ?? [];
  const near = fields?.some((f) => f.name === bodyField)
    ? undefined
    : closestName(
        bodyField,
        bodies.map((f) => f.name),
      );
  if (near !== undefined) {
    issues.warn(
      file,
      `no declared field is '${bodyField}', so the Markdown body is served as a new field '${bodyField}'; did you mean '${near}'? (declare '${bodyField}' under fields: if it is meant)`,
      { line: parsed.lineOf(['body_field']), field: 'body_field' },
    );
  }

  let render: 'html' | undefined;
  if (raw.render === 'html') render = 'html';
  else if (raw.render !== undefined && raw.render !== null) {
    err(
      ['render'],
      `render must be html (the Markdown body also served as HTML, in '${bodyField}_html'), got ${describe(raw.render)}`,
      'render',
    );
  }

  if (raw.translations !== undefined && raw.translations !== null && typeof raw.translations !== 'boolean') {
    err(
      ['translations'],
      `translations must be true or false (true: each entry names its locale variants, hello.de for hello), got ${describe(raw.translations)}${yaml11Boolean(raw.translations)}`,
      'translations',
    );
  }
  const translations =
    raw.translations === true ? ({ translations: true, translationsLine: parsed.lineOf(['translations']) } as const) : {};

  let singleton = false;
  if (typeof raw.singleton === 'boolean') singleton = raw.singleton;
  else if (raw.singleton !== undefined && raw.singleton !== null)
    err(['singleton'], `expected true or false, got ${describe(raw.singleton)}${yaml11Boolean(raw.singleton)}`, 'singleton');

  return {
    name,
    body_field: bodyField,
    fields,
    sort,
    sortLine: parsed.lineOf(['sort']),
    fieldLines,
    ...(render ? { render, renderLine: parsed.lineOf(['render']) } : {}),
    ...translations,
    ...(singleton ? { singleton, singletonLine: parsed.lineOf(['singleton']) } : {}),
  };
}

type Report = (path: (string | number)[], message: string) => void;

function isFieldType(t: unknown): t is FieldType {
  return typeof t === 'string' && (FIELD_TYPES as readonly string[]).includes(t);
}

const TYPE_LIST = FIELD_TYPES.join(', ');

/** Type names of other tools (JSON Schema, TypeScript, other CMSs) that no edit distance leads to ours. */
const OTHER_TOOLS_TYPES = new Map([
  ['string', 'text'],
  ['int', 'number'],
  ['integer', 'number'],
  ['float', 'number'],
  ['bool', 'boolean'],
  ['image', 'media'],
  ['object', 'group'],
  ['array', 'multiple'],
  ['list', 'multiple'],
]);

/**
 * One declared field: `name: type` or `name: { type, required, … }`. A broken definition is
 * reported and still returns a field (typed json, which accepts anything) so that the entries using
 * it are not reported a second time as "not in the schema".
 */
export function readFieldDef(name: string, def: unknown, report: Report): FieldDef {
  const fallback: FieldDef = { name, type: 'json', required: false, multiple: false, hidden: false };
  const nameProblem = fieldNameProblem(name);
  if (nameProblem) report([], nameProblem);
  const spec: Record<string, unknown> | undefined = typeof def === 'string' ? { type: def } : isPlainObject(def) ? def : undefined;
  if (!spec) {
    report([], `expected a type (${TYPE_LIST}) or a mapping like { type: text, required: true }, got ${describe(def)}`);
    return fallback;
  }
  let ok = nameProblem === undefined;
  for (const key of Object.keys(spec)) {
    if (!OPTIONS.includes(key)) {
      report([key], unknownName(`option '${key}'`, key, OPTIONS, `field options are ${OPTIONS.join(', ')}`));
      ok = false;
    }
  }
  if (spec.type === undefined) {
    report([], `needs a 'type' (${TYPE_LIST})`);
    return fallback;
  }
  if (!isFieldType(spec.type)) {
    const other = typeof spec.type === 'string' ? OTHER_TOOLS_TYPES.get(spec.type.toLowerCase()) : undefined;
    const message =
      other === 'multiple'
        ? `unknown type ${describe(spec.type)}; a list is the type of its items with multiple: true, like { type: text, multiple: true } (types are ${TYPE_LIST})`
        : unknownName(`type ${describe(spec.type)}`, spec.type, FIELD_TYPES, `types are ${TYPE_LIST}`, other);
    report(['type'], message);
    return fallback;
  }
  const type = spec.type;
  const flag = (key: 'required' | 'multiple' | 'hidden' | 'repeatable' | 'range'): boolean => {
    const v = spec[key];
    if (v === undefined || v === null) return false;
    if (typeof v === 'boolean') return v;
    report([key], `${key} must be true or false, got ${describe(v)}${yaml11Boolean(v)}`);
    ok = false;
    return false;
  };
  const field: { -readonly [K in keyof FieldDef]: FieldDef[K] } = {
    name,
    type,
    required: flag('required'),
    multiple: flag('multiple'),
    // A password is never served, whatever the file says.
    hidden: flag('hidden') || type === 'password',
  };
  ok = readGroupAndRange(field, spec, report) && ok;
  if (type === 'enumeration') {
    const values = spec.values;
    if (!Array.isArray(values) || values.length === 0) {
      report(
        typeof def === 'string' ? [] : ['values'],
        `an enumeration needs 'values': a list of the allowed values, like { type: enumeration, values: [news, tech] }`,
      );
      ok = false;
    } else {
      const list = new Set<string>();
      values.forEach((v, i) => {
        if (typeof v !== 'string' && typeof v !== 'number') report(['values', i], `enumeration values must be text, got ${describe(v)}`);
        else if (list.has(String(v))) report(['values', i], `value '${v}' is listed twice`);
        else list.add(String(v));
      });
      field.values = [...list];
    }
  } else if (spec.values !== undefined) {
    report(['values'], `'values' only applies to type enumeration (this field is ${type})`);
    ok = false;
  }
  if (type === 'relation') {
    if (typeof spec.collection !== 'string' || spec.collection === '') {
      report(
        typeof def === 'string' ? [] : ['collection'],
        `a relation needs 'collection': the slug of the target collection, like { type: relation, collection: authors }`,
      );
      ok = false;
    } else {
      field.collection = spec.collection;
    }
  } else if (spec.collection !== undefined) {
    report(['collection'], `'collection' only applies to type relation (this field is ${type})`);
    ok = false;
  }
  return ok ? field : { ...fallback, hidden: field.hidden };
}

/** `fields:`/`repeatable:` of a group, `range:` of a date; false when something was reported. */
function readGroupAndRange(
  field: { -readonly [K in keyof FieldDef]: FieldDef[K] },
  spec: Record<string, unknown>,
  report: Report,
): boolean {
  let ok = true;
  const only = (key: string, types: string) => {
    report([key], `'${key}' only applies to type ${types} (this field is ${field.type})`);
    ok = false;
  };
  if (field.type === 'group') {
    if (!isPlainObject(spec.fields) || Object.keys(spec.fields).length === 0) {
      report(
        spec.fields === undefined ? [] : ['fields'],
        `a group needs 'fields': a mapping of its child fields, like { type: group, fields: { label: text, url: text } }`,
      );
      return false;
    }
    const children: FieldDef[] = [];
    for (const [childName, def] of Object.entries(spec.fields)) {
      const child = readFieldDef(childName, def, (path, message) => report(['fields', childName, ...path], message));
      if (child.type === 'group') {
        report(['fields', childName], 'a group cannot hold another group (ElmapiCMS nests one level)');
        ok = false;
      } else children.push(child);
    }
    field.fields = children;
    if (spec.repeatable === true) field.repeatable = true;
    else if (spec.repeatable !== undefined && spec.repeatable !== null && spec.repeatable !== false) {
      report(['repeatable'], `repeatable must be true or false, got ${describe(spec.repeatable)}${yaml11Boolean(spec.repeatable)}`);
      ok = false;
    }
  } else {
    if (spec.fields !== undefined) only('fields', 'group');
    if (spec.repeatable !== undefined) only('repeatable', 'group');
  }
  if (spec.range !== undefined) {
    if (field.type !== 'date' && field.type !== 'datetime') only('range', 'date or datetime');
    else if (typeof spec.range !== 'boolean') {
      report(['range'], `range must be true or false, got ${describe(spec.range)}${yaml11Boolean(spec.range)}`);
      ok = false;
    } else if (spec.range) field.range = true;
  }
  // Each value is one mapping: a list of them is a repeatable group, and a range has one start and end.
  if (field.multiple && (field.type === 'group' || field.range)) {
    report(
      ['multiple'],
      field.type === 'group'
        ? `a group takes 'repeatable: true' for a list of them, not 'multiple'`
        : `a range holds one start and one end: remove 'multiple' (or declare one range field per period)`,
    );
    ok = false;
  }
  return ok;
}

/** The names of the fields a list may offer: visible, and valid names (a refused one is reported where it is declared). */
function visibleNames(fields: Iterable<FieldDef>): string[] {
  const names: string[] = [];
  for (const f of fields) if (!f.hidden && fieldNameProblem(f.name) === undefined) names.push(f.name);
  return names;
}

/** Parses `field[:asc|:desc]` keys separated by commas and checks that each field exists. */
export function readSort(text: string | undefined, fields: readonly FieldDef[], report: (message: string) => void): SortKey[] {
  if (text === undefined || text.trim() === '') return [{ field: 'id', desc: false }];
  const keys: SortKey[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*([^:\s]+)\s*(?::\s*(\w+))?\s*$/.exec(part);
    const dir = m?.[2]?.toLowerCase();
    if (!m || (dir !== undefined && dir !== 'asc' && dir !== 'desc')) {
      report(`'${part.trim()}' is not a sort key: write field, field:asc or field:desc`);
      continue;
    }
    const field = m[1] as string;
    if (!isSortable(field, fields)) {
      // `-title` (the sort of many other tools): the direction is written after the field here.
      const signed = /^([-+])(.+)$/.exec(field);
      if (signed && dir === undefined && isSortable(signed[2] as string, fields)) {
        report(
          `'${field}' is not a sort key: write ${signed[2]}:${signed[1] === '-' ? 'desc' : 'asc'} (the direction comes after the field)`,
        );
        continue;
      }
      // Fields whose names are refused (reported with the field) are not offered.
      const names = ['id', 'locale', 'created_at', 'updated_at', 'published_at', ...visibleNames(fields)];
      report(`cannot sort by '${field}': not a visible field of this collection; sortable: ${listNames(names, names.length)}`);
      continue;
    }
    keys.push({ field, desc: dir === 'desc' });
  }
  return keys.length > 0 ? keys : [{ field: 'id', desc: false }];
}

/** One entry's fields, for inference. */
export interface InferenceSample {
  readonly data: Record<string, unknown>;
  readonly hasBody: boolean;
}

/**
 * Field definitions from the values alone: all numbers → number, all booleans → boolean, all
 * YYYY-MM-DD → date, all dates or date-times → datetime, any list → multiple, any mapping → json,
 * otherwise text. The body field is markdown. Fields are in first-seen order.
 */
export function inferFields(samples: readonly InferenceSample[], bodyField: string): FieldDef[] {
  const seen = new Map<string, unknown[]>();
  for (const { data, hasBody } of samples) {
    for (const [key, value] of Object.entries(data)) {
      if (RESERVED_KEYS.includes(key) || (hasBody && key === bodyField) || fieldNameProblem(key)) continue;
      let values = seen.get(key);
      if (!values) seen.set(key, (values = []));
      values.push(value);
    }
    if (hasBody && !seen.has(bodyField)) seen.set(bodyField, []);
  }
  const hasMarkdown = samples.some((s) => s.hasBody);
  return [...seen].map(([name, values]) => {
    if (hasMarkdown && name === bodyField) return { name, type: 'markdown', required: false, multiple: false, hidden: false };
    return inferField(name, values);
  });
}

function inferField(name: string, values: readonly unknown[]): FieldDef {
  const present = values.filter((v) => v !== null && v !== undefined);
  const multiple = present.some(Array.isArray);
  const scalars = multiple ? present.flatMap((v) => (Array.isArray(v) ? v : [v])) : present;
  const field = (type: FieldType, isMultiple = multiple): FieldDef => ({
    name,
    type,
    required: false,
    multiple: isMultiple,
    hidden: false,
  });
  if (scalars.some((v) => v === null || typeof v === 'object')) return field('json', false);
  if (scalars.length === 0) return field('text');
  if (scalars.every((v) => typeof v === 'number' && Number.isFinite(v))) return field('number');
  if (scalars.every((v) => typeof v === 'boolean')) return field('boolean');
  if (scalars.every((v) => typeof v === 'string' && isDate(v))) return field('date');
  if (scalars.every((v) => typeof v === 'string' && parseDateTime(v) !== undefined) && scalars.some((v) => hasTime(v as string))) {
    return field('datetime');
  }
  return field('text');
}
