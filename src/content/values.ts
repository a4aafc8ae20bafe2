// One field value as written in a file → the typed value the model stores (see FieldValue in
// src/snapshot/model.ts). Whether media and relation ids exist is checked later (resolve.ts), once
// every entry and media file is known.
import type { FieldDef, FieldValue, JsonValue } from '../snapshot/model.js';
import { describe, listNames } from './issues.js';
import { isDate, isTime, parseDateTime } from './timestamps.js';

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
const YAML11_BOOLEANS = /^(?:yes|no|on|off|y|n)$/i;

/** Coerces the value of `field` in one entry; `null` stays an explicit null. */
export function coerceField(field: FieldDef, raw: unknown, render: RenderMarkdown): CoerceResult {
  if (raw === null) return { value: null, problems: [] };
  if (field.type === 'json' && !field.multiple) return { value: raw as JsonValue, problems: [] };
  if (field.multiple) {
    // A single value where a list is expected is read as a list of one.
    const list = Array.isArray(raw) ? raw : [raw];
    const values: FieldValue[] = [];
    const problems: ValueProblem[] = [];
    list.forEach((item, index) => {
      const r = coerceScalar(field, item, render);
      if (typeof r === 'string') problems.push({ message: Array.isArray(raw) ? `item ${index + 1}: ${r}` : r, index });
      else values.push(r.value);
    });
    return { value: values, problems };
  }
  if (Array.isArray(raw)) {
    return { value: undefined, problems: [{ message: `expected ${expected(field)}, got a list (declare the field with 'multiple: true' to allow several values)` }] };
  }
  const r = coerceScalar(field, raw, render);
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
  }
}

/** The typed value, or a message saying what was expected. */
function coerceScalar(field: FieldDef, raw: unknown, render: RenderMarkdown): { value: FieldValue } | string {
  const fail = (hint = '') => `expected ${expected(field)}, got ${describe(raw)}${hint}`;
  if (field.type === 'json') return { value: raw as JsonValue };
  if (raw === null || raw === undefined || typeof raw === 'object') return fail();
  switch (field.type) {
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) ? { value: raw } : fail();
    case 'boolean':
      if (typeof raw === 'boolean') return { value: raw };
      return fail(typeof raw === 'string' && YAML11_BOOLEANS.test(raw) ? ' (YAML 1.2 reads yes/no/on/off as text)' : '');
    case 'text':
    case 'longtext':
    case 'markdown':
      return { value: String(raw) };
    case 'richtext':
      return { value: render(String(raw)) };
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
      return typeof raw === 'string' && isDate(s) ? { value: s } : fail();
    case 'datetime': {
      const iso = typeof raw === 'string' ? parseDateTime(s) : undefined;
      return iso ? { value: iso } : fail();
    }
    case 'time':
      return typeof raw === 'string' && isTime(s) ? { value: s } : fail();
    case 'enumeration':
      return field.values?.includes(s) ? { value: s } : fail();
    case 'media':
      return typeof raw === 'string' && s !== '' ? { value: s } : fail();
    case 'relation':
      return s !== '' ? { value: s } : fail();
    default:
      return fail();
  }
}
