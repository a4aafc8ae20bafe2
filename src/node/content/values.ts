// One field value as written in a file → the typed value the model stores (see FieldValue in
// src/core/model/model.ts). Whether media and relation ids exist is checked later (resolve.ts), once
// every entry and media file is known.
import type { FieldDef, FieldValue, JsonValue } from '../../core/model/model.js';
import { isEmpty } from '../../core/snapshot/order.js';
import { describe, listNames, yaml11Boolean } from './issues.js';
import { dateFormHint, impossibleDateHint, isDate, isTime, parseDateTime } from './timestamps.js';
import { lookalikeHint } from './lookalike.js';
import { closestName } from '../../core/suggest.js';
import { renderBounded, type RenderBudget } from './richtext.js';

export interface ValueProblem {
  readonly message: string;
  /** Position in the list, for a multiple field. */
  readonly index?: number;
}

export interface CoerceResult {
  /** Undefined when nothing valid is left. */
  readonly value: FieldValue | undefined;
  readonly problems: readonly ValueProblem[];
}

export type RenderMarkdown = (markdown: string) => string;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** Coerces the value of `field` in one entry; `null` stays an explicit null. */
export function coerceField(field: FieldDef, raw: unknown, render: RenderMarkdown, budget?: RenderBudget): CoerceResult {
  if (raw === null) return { value: null, problems: [] };
  if (field.type === 'group') return coerceGroup(field, raw, render, budget);
  if (field.range) return coerceRange(field, raw, render, budget);
  if (field.type === 'json' && !field.multiple) return { value: raw as JsonValue, problems: [] };
  if (field.multiple) {
    // A single value where a list is expected is read as a list of one.
    const list = Array.isArray(raw) ? raw : [raw];
    const values: FieldValue[] = [];
    const problems: ValueProblem[] = [];
    list.forEach((item, index) => {
      const r = coerceScalar(field, item, render, budget);
      if (typeof r === 'string') problems.push({ message: Array.isArray(raw) ? `item ${index + 1}: ${r}` : r, index });
      else values.push(r.value);
    });
    return { value: values, problems };
  }
  if (Array.isArray(raw)) {
    return {
      value: undefined,
      problems: [{ message: `expected ${expected(field)}, got a list (declare the field with 'multiple: true' to allow several values)` }],
    };
  }
  const r = coerceScalar(field, raw, render, budget);
  return typeof r === 'string' ? { value: undefined, problems: [{ message: r }] } : { value: r.value, problems: [] };
}

/** What a field of this type expects, for messages. */
export function expected(field: FieldDef): string {
  switch (field.type) {
    case 'text':
    case 'longtext':
      return 'text';
    case 'markdown':
    case 'richtext':
      return 'Markdown text';
    case 'slug':
      return 'a slug (lower-case letters, digits and single hyphens, like my-first-post)';
    case 'email':
      return 'an email address';
    case 'color':
      return 'a hex colour like "#ff8800" (quote it: in YAML an unquoted # starts a comment)';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'date':
      return 'a date YYYY-MM-DD';
    case 'datetime':
      return 'an ISO 8601 date-time like 2021-11-25T10:00:00Z';
    case 'time':
      return 'a time HH:MM or HH:MM:SS';
    case 'enumeration':
      return `one of ${listNames(field.values ?? [], field.values?.length ?? 0)}`;
    case 'media':
      return 'a media id (a path under media/, like images/cover.jpg)';
    case 'relation':
      return `an entry id of collection '${field.collection ?? '?'}'`;
    case 'json':
      return 'any value';
    case 'password':
      return 'text (never served)';
    case 'group': {
      const names = (field.fields ?? []).map((f) => f.name);
      return `a mapping of ${listNames(names, names.length, 8)}${field.repeatable ? ' (or a list of them)' : ''}`;
    }
  }
}

/** A group: one mapping of its child fields (a repeatable group: a list of them), each child coerced. */
function coerceGroup(field: FieldDef, raw: unknown, render: RenderMarkdown, budget?: RenderBudget): CoerceResult {
  const problems: ValueProblem[] = [];
  const children = new Map((field.fields ?? []).map((f) => [f.name, f]));
  const one = (item: unknown, index: number | undefined): Record<string, FieldValue> | undefined => {
    const where = index === undefined ? '' : `item ${index + 1}: `;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      problems.push({ message: `${where}expected ${expected(field)}, got ${describe(item)}`, index });
      return undefined;
    }
    const out: Record<string, FieldValue> = {};
    for (const [key, value] of Object.entries(item)) {
      const child = children.get(key);
      if (!child) {
        problems.push({
          message: `${where}'${key}' is not a field of group '${field.name}' (fields: ${listNames(children.keys(), children.size)})`,
          index,
        });
        continue;
      }
      const r = coerceField(child, value, render, budget);
      for (const p of r.problems) problems.push({ message: `${where}${key}: ${p.message}`, index });
      // A hidden or password child is checked and never kept: no dialect, sort or tree can show it
      // (found from outside: served in cqa and elmapi answers and in dist/).
      if (r.value !== undefined && !child.hidden) out[key] = r.value;
    }
    // As for the entry's own fields (entries.ts); one given but not valid is said above.
    for (const child of children.values()) {
      if (!child.required || !isEmpty(out[child.name]) || !isEmpty((item as Record<string, unknown>)[child.name] as FieldValue)) continue;
      const given = Object.hasOwn(item, child.name);
      problems.push({ message: `${where}${child.name}: required field is ${given ? 'empty' : 'missing'}`, index });
    }
    return out;
  };
  if (field.repeatable) {
    const list = Array.isArray(raw) ? raw : [raw];
    const values = list.map((item, i) => one(item, i)).filter((v): v is Record<string, FieldValue> => v !== undefined);
    return { value: values, problems };
  }
  if (Array.isArray(raw))
    return {
      value: undefined,
      problems: [{ message: `expected ${expected(field)}, got a list (declare the group with 'repeatable: true' to allow several)` }],
    };
  return { value: one(raw, undefined), problems };
}

/** A date range: `{ start, end }`, each a date (or date-time) or empty; the end not before the start. */
function coerceRange(field: FieldDef, raw: unknown, render: RenderMarkdown, budget?: RenderBudget): CoerceResult {
  const single: FieldDef = { ...field, range: false, multiple: false };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { value: undefined, problems: [{ message: `expected a range { start: ${expected(single)}, end: … }, got ${describe(raw)}` }] };
  }
  const r = raw as Record<string, unknown>;
  const problems: ValueProblem[] = [];
  const others = Object.keys(r).filter((k) => k !== 'start' && k !== 'end');
  if (others.length > 0) {
    const names = listNames(
      others.map((k) => `'${k}'`),
      others.length,
      5,
    );
    problems.push({
      message: `${names} ${others.length === 1 ? 'is' : 'are'} not part of a range: a range has start and end only (start: ${expected(single)}, end: the same); remove ${others.length === 1 ? 'it' : 'them'}`,
    });
  }
  const part = (key: 'start' | 'end'): FieldValue => {
    if (r[key] === undefined || r[key] === null) return null;
    const c = coerceField(single, r[key], render, budget);
    for (const p of c.problems) problems.push({ message: `${key}: ${p.message}` });
    return c.value ?? null;
  };
  const value = { start: part('start'), end: part('end') };
  if (typeof value.start === 'string' && typeof value.end === 'string' && Date.parse(value.end) < Date.parse(value.start)) {
    problems.push({
      message: `the end (${String(r.end)}) is before the start (${String(r.start)}): swap them, or correct the one that is wrong`,
    });
  }
  return problems.length > 0 ? { value: undefined, problems } : { value, problems };
}

/**
 * The value that is the same number: `values: [1.0, 2.50, 010]` in a schema are kept as the text
 * YAML prints for them ('1', '2.5', '10'), so an entry's "2.50" matched none without a word of why
 * (found from outside). Whether the schema wrote it otherwise is not known here: both are said.
 */
function numberHint(written: string, values: readonly string[]): string {
  const n = written.trim() === '' ? Number.NaN : Number(written);
  const meant = Number.isFinite(n) ? enumIndex(values).numbers.get(n) : undefined;
  return meant === undefined
    ? ''
    : `; did you mean '${meant}'? (the same number: a number in values: is kept as YAML prints it, 2.50 as '2.5', so quote it there to keep another form)`;
}

/**
 * An enumeration's values as a set, and by the number each reads as (the first), made once per
 * schema: a list of 80,000 values searched for each value written took 18 s (found from outside).
 */
const enumIndexes = new WeakMap<
  readonly string[],
  { names: ReadonlySet<string>; numbers: ReadonlyMap<number, string>; guesses: Map<string, string | undefined> }
>();

function enumIndex(values: readonly string[]) {
  let index = enumIndexes.get(values);
  if (!index) {
    const numbers = new Map<number, string>();
    for (const v of values) {
      const n = Number(v);
      if (v.trim() !== '' && Number.isFinite(n) && !numbers.has(n)) numbers.set(n, v);
    }
    index = { names: new Set(values), numbers, guesses: new Map() };
    enumIndexes.set(values, index);
  }
  return index;
}

/**
 * `fod` for `food`: edit distance among the values of a list a person keeps in mind, for its first
 * 200 distinct misses; not for a number or a word under 3 characters, which one edit makes any other.
 */
function typoHint(written: string, values: readonly string[]): string {
  const { guesses } = enumIndex(values);
  if (written.length < 3 || Number.isFinite(Number(written)) || values.length > 200) return '';
  if (guesses.size >= 200 && !guesses.has(written)) return '';
  if (!guesses.has(written)) guesses.set(written, closestName(written, values));
  const near = guesses.get(written);
  return near === undefined ? '' : `; did you mean '${near}'?`;
}

/** A number as YAML 1.2 reads one unquoted (not 0b101, which JavaScript would take). */
const GROUPED_DIGITS = /^[-+]?\d+(?:_\d+)+(?:\.\d+)?$/;
const YAML_DECIMAL = /^[-+]?(\.\d+|\d+(\.\d*)?)([eE][-+]?\d+)?$/;

/** A decimal comma (`4,5`, `-0,25`, `3,1415`), but not three digits after it, which may be thousands. */
const DECIMAL_COMMA = /^\s*[-+]?\d+,(?!\d{3}\s*$)\d+\s*$/;

/** Half of a UTF-16 pair without its other half: what an escape such as `"\uD800"` makes; no character. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The typed value, or a message saying what was expected. */
function coerceScalar(field: FieldDef, raw: unknown, render: RenderMarkdown, budget?: RenderBudget): { value: FieldValue } | string {
  const fail = (hint = '') => `expected ${expected(field)}, got ${describe(raw)}${hint}`;
  // Served as `\ud800`, which strict JSON readers refuse (found from outside).
  const lone = typeof raw === 'string' ? LONE_SURROGATE.exec(raw) : null;
  if (lone)
    return `holds half of a surrogate pair (\\u${lone[0].charCodeAt(0).toString(16).toUpperCase()}) at character ${lone.index + 1}, which is no character and which strict JSON readers refuse: write the character itself, or both halves (\\uD83D\\uDE00)`;
  if (field.type === 'json') return { value: raw as JsonValue };
  if (raw === null || raw === undefined || typeof raw === 'object') return fail();
  switch (field.type) {
    case 'number':
      if (typeof raw === 'number' && Number.isFinite(raw)) return { value: raw };
      // "1463" is text to YAML: the quotes are the mistake (found from outside).
      if (typeof raw === 'string' && YAML_DECIMAL.test(raw)) return fail(': remove the quotes');
      // `1_000`: YAML 1.1 (and many languages) group digits so; YAML 1.2 reads text (found from outside).
      if (typeof raw === 'string' && GROUPED_DIGITS.test(raw))
        return fail(`: YAML 1.2 reads digits with '_' between them as text; write ${raw.replaceAll('_', '')}`);
      // `4,5`, not `1,463` (a thousands separator as likely as a decimal comma: no guess).
      return fail(
        typeof raw === 'string' && DECIMAL_COMMA.test(raw) ? `: write decimals with a point: ${raw.trim().replace(',', '.')}` : '',
      );
    case 'boolean':
      if (typeof raw === 'boolean') return { value: raw };
      return fail(yaml11Boolean(raw));
    case 'text':
    case 'longtext':
    case 'markdown':
    case 'password':
      return { value: String(raw) };
    case 'richtext': {
      const r = renderBounded(String(raw), render, budget);
      return 'html' in r ? { value: r.html } : `the Markdown ${r.problem}`;
    }
    default:
      break;
  }
  if (typeof raw === 'boolean') return fail();
  const s = String(raw);
  switch (field.type) {
    case 'slug':
      return SLUG.test(s) ? { value: s } : fail();
    case 'email':
      return EMAIL.test(s) ? { value: s } : fail();
    case 'color':
      return COLOR.test(s) ? { value: s } : fail();
    case 'date':
      return typeof raw === 'string' && isDate(s) ? { value: s } : fail(impossibleDateHint(s) || dateFormHint(s, 'date'));
    case 'datetime': {
      const iso = typeof raw === 'string' ? parseDateTime(s) : undefined;
      return iso ? { value: iso } : fail(impossibleDateHint(s) || dateFormHint(s, 'datetime'));
    }
    case 'time':
      return typeof raw === 'string' && isTime(s) ? { value: s } : fail();
    case 'enumeration':
      return field.values && enumIndex(field.values).names.has(s)
        ? { value: s }
        : fail(lookalikeHint(s, field.values ?? []) || numberHint(s, field.values ?? []) || typoHint(s, field.values ?? []));
    case 'media':
      return typeof raw === 'string' && s !== '' ? { value: s } : fail();
    case 'relation':
      return s !== '' ? { value: s } : fail();
    default:
      return fail();
  }
}
