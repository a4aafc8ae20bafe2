// The content model: what the loader (src/node/content/) produces from the files, already validated
// and typed. Plain data only — no file system handles, no Node types — so the query engine and
// the fetch handler can run on it in any JavaScript runtime.

export const FIELD_TYPES = [
  'text',
  'longtext',
  'markdown',
  'richtext',
  'slug',
  'email',
  'color',
  'number',
  'boolean',
  'date',
  'datetime',
  'time',
  'enumeration',
  'media',
  'relation',
  'json',
  // elmapi3 only in spirit, valid everywhere: a password is never served; a group nests fields.
  'password',
  'group',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export type Scope = 'read' | 'drafts';

/** How a project answers: `cqa` (the default), `elmapi` (the original API's shapes) or `elmapi3` (today's ElmapiCMS): docs/dialects.md. */
export const DIALECTS = ['cqa', 'elmapi', 'elmapi3'] as const;
export type DialectName = (typeof DIALECTS)[number];

export interface FieldDef {
  readonly name: string;
  readonly type: FieldType;
  readonly required: boolean;
  /** A list of values of `type`. */
  readonly multiple: boolean;
  /** Never in responses, never filterable, never in dist/. */
  readonly hidden: boolean;
  /** enumeration: the allowed values. */
  readonly values?: readonly string[];
  /** relation: the slug of the target collection in the same project. */
  readonly collection?: string;
  /** group: its child fields, in schema order. */
  readonly fields?: readonly FieldDef[];
  /** group: a list of instances rather than one. */
  readonly repeatable?: boolean;
  /** date/datetime: a range `{start, end}` rather than one value. */
  readonly range?: boolean;
}

/**
 * A stored field value, typed by the field's schema type:
 * - text, longtext, markdown, slug, email, color, enumeration, time: the string;
 * - richtext: the rendered HTML string;
 * - number: a finite number; boolean: a boolean;
 * - date: 'YYYY-MM-DD'; datetime: ISO 8601 UTC with milliseconds ('2021-11-25T10:00:00.000Z');
 * - media: the media id; relation: the target entry id;
 * - json: any JSON value;
 * - multiple fields: an array of the above scalars.
 * A field absent from the file is absent from `values` (key missing); `null` is an explicit null.
 */
export type Scalar = string | number | boolean;
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type FieldValue = JsonValue;

export interface EntryRecord {
  readonly id: string;
  readonly locale: string;
  readonly draft: boolean;
  /** ISO 8601 UTC with milliseconds. */
  readonly created_at: string;
  readonly updated_at: string;
  /** null only for drafts without a published_at in the file. */
  readonly published_at: string | null;
  /**
   * Field name → typed value (see FieldValue). Hidden fields are kept here, never output. Read it
   * with ownValue(): a field may be called `toString` or `valueOf`, and `values[name]` would
   * then find Object.prototype's function for an entry without that field.
   */
  readonly values: Readonly<Record<string, FieldValue>>;
  /** Path of the source file relative to the content root, '/'-separated (for messages). */
  readonly file: string;
}

/**
 * `obj[key]` when `key` is an own property of `obj`, else undefined: the way to read an object
 * whose keys come from content or from a request, so that no key reaches Object.prototype.
 */
export function ownValue<T>(obj: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** A group field's value as its items: the one mapping, or a repeatable group's list of them (anything else: none). */
export function groupItems(value: FieldValue | undefined): { [key: string]: FieldValue }[] {
  return (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]).filter(
    (x): x is { [key: string]: FieldValue } => typeof x === 'object' && x !== null && !Array.isArray(x),
  );
}

export interface SortKey {
  readonly field: string;
  readonly desc: boolean;
}

export interface CollectionRecord {
  readonly slug: string;
  readonly name: string;
  readonly body_field: string;
  /** Default order (from `sort:` in _collection.yaml, else id ascending). */
  readonly sort: readonly SortKey[];
  /** Every field in schema order (declared order, else first-seen order when inferred). */
  readonly fields: readonly FieldDef[];
  /** All entries, drafts included, in the collection's default order (stable, id tie-break). */
  readonly entries: readonly EntryRecord[];
  /** `singleton: true` in _collection.yaml (the elmapi3 list route answers one entry). */
  readonly singleton?: boolean;
}

export interface MediaRecord {
  /** Path under media/, '/'-separated. */
  readonly id: string;
  readonly file_name: string;
  readonly mime_type: string;
  readonly size: number;
  readonly width: number | null;
  readonly height: number | null;
  readonly caption: string | null;
  readonly alt: string | null;
  /** Absolute path of the file on disk; never serialised. */
  readonly source: string;
  /**
   * The integer id of the `elmapi` dialect: `id:` in _media.yaml, else derived from the path
   * (src/node/content/media-number.ts). Absent in hand-made models: then derived when needed.
   */
  readonly number?: number;
  /** The uuid of the `elmapi3` dialect: `uuid:` in _media.yaml, else derived from the project and path. */
  readonly uuid?: string;
}

export interface TokenRecord {
  readonly name: string;
  /** Lower-case hex sha256 of the token. Plaintext tokens are hashed at load time. */
  readonly sha256: string;
  readonly scopes: readonly Scope[];
}

export interface ProjectRecord {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly default_locale: string;
  readonly locales: readonly string[];
  readonly public: boolean;
  /** Absent: `cqa`. */
  readonly dialect?: DialectName;
  /** elmapi3: what the real API silently accepts is answered 422 (`strict: true` in project.yaml). */
  readonly strict?: boolean;
  readonly tokens: readonly TokenRecord[];
  readonly collections: readonly CollectionRecord[];
  /** Sorted by id. */
  readonly media: readonly MediaRecord[];
}

export interface ContentModel {
  /** Sorted by id. */
  readonly projects: readonly ProjectRecord[];
}

/** A problem found in the content tree. */
export interface ContentIssue {
  /** Path relative to the content root, '/'-separated. */
  readonly file: string;
  /** 1-based line, when known. */
  readonly line?: number;
  readonly field?: string;
  readonly message: string;
  /** The lines around `line` with a caret under the mistake (broken YAML), printed under the message. */
  readonly frame?: string;
}
