// The client's types: the shapes of answers (of the `cqa` dialect, and of `elmapi` where they
// differ) and of queries, typed by the schema that `cqa types` writes (src/core/describe/client-types.ts). Without generated types every name is a
// string and every value unknown; with them, field names, operators per field type, values and
// result shapes are checked at compile time.

export type FieldType =
  | 'text'
  | 'longtext'
  | 'markdown'
  | 'richtext'
  | 'slug'
  | 'email'
  | 'color'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'time'
  | 'enumeration'
  | 'media'
  | 'relation'
  | 'json'
  | 'group';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

// ---------------------------------------------------------------------------------------------
// Answers

export interface Meta {
  readonly total: number;
  readonly limit: number | null;
  readonly offset: number;
}

/** `GET /api/<project>/<collection>` */
export interface List<T> {
  readonly data: T[];
  readonly meta: Meta;
}

/** `GET /api/<project>/<collection>/<id>` */
export interface Item<T> {
  readonly data: T;
}

export interface Timestamps {
  readonly created_at: string;
  readonly updated_at: string;
  /** null only for a draft that never was published. */
  readonly published_at: string | null;
}

export interface Media {
  readonly id: string;
  readonly file_name: string;
  readonly full_url: string;
  readonly mime_type: string;
  readonly size: number;
  readonly width: number | null;
  readonly height: number | null;
  readonly caption: string | null;
  readonly alt: string | null;
}

/** `GET /api/<project>` → data */
export interface ProjectInfo {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly default_locale: string;
  readonly locales: string[];
  readonly collections: {
    readonly slug: string;
    readonly name: string;
    readonly count: number;
    readonly fields: { name: string; type: FieldType; multiple: boolean; required: boolean; values?: string[]; collection?: string }[];
  }[];
}

// ---------------------------------------------------------------------------------------------
// Answers of the `elmapi` dialect (docs/dialects.md): bare arrays and objects, integer ids

/** How a project answers (`dialect:` in its project.yaml). */
export type DialectName = 'cqa' | 'elmapi' | 'elmapi3';

export interface ElmapiTimestamps {
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  readonly created_at: string;
  readonly updated_at: string;
  /** Absent for a draft that never was published. */
  readonly published_at?: string;
}

export interface ElmapiMedia {
  readonly id: number;
  readonly file_name: string;
  readonly full_url: string;
  /** Images only. */
  readonly thumb?: string;
  readonly caption: string | null;
  readonly size: number;
  readonly width?: number | null;
  readonly height?: number | null;
}

/** `GET /api/<project>` in the `elmapi` dialect. */
export interface ElmapiProjectInfo {
  readonly uuid: string;
  readonly name: string;
  readonly description: string | null;
}

/** Without generated types, an `elmapi` project (`createClient({ …, dialect: 'elmapi' })`). */
export interface AnyElmapiProject extends ProjectSchema {
  readonly dialect: 'elmapi';
  readonly collections: {
    readonly [slug: string]: { readonly entry: AnyElmapiEntry; readonly fields: { readonly [name: string]: FieldSchema } };
  };
}

export interface AnyElmapiEntry {
  readonly id: number | string;
  readonly locale: string;
  readonly [field: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Answers of the `elmapi3` dialect (today's ElmapiCMS v3/4.0): `{uuid, locale, published_at, fields}`

/** An asset (`/api/files…`, media fields). */
export interface Elmapi3Asset {
  readonly uuid: string;
  readonly filename: string;
  readonly mime_type: string;
  /** Formatted: "100 bytes", "35.12 KB", "1.50 MB". */
  readonly size: string;
  readonly url: string;
  readonly original_url: string | null;
  readonly thumbnail_url: string | null;
  readonly pending_image_processing: boolean;
  readonly metadata: {
    readonly width: number | null;
    readonly height: number | null;
    readonly alt_text: string | null;
    readonly caption: string | null;
    readonly [key: string]: unknown;
  } | null;
}

/** Added by `?timestamps`, after `fields` (`YYYY-MM-DDTHH:MM:SS+00:00`). */
export interface Elmapi3Timestamps {
  readonly created_at: string;
  readonly updated_at: string;
}

/** Laravel's paginate envelope: `/api/files` always, a list with `?paginate=N`. */
export interface Elmapi3Page<T> {
  readonly data: T[];
  readonly links: { readonly first: string; readonly last: string; readonly prev: string | null; readonly next: string | null };
  readonly meta: {
    readonly current_page: number;
    readonly from: number | null;
    readonly last_page: number;
    // Not a readonly array, as data: `cqa types`' Elmapi3Page (mutable) takes this answer.
    readonly links: {
      readonly url: string | null;
      readonly label: string;
      readonly page?: number | null;
      readonly active: boolean;
    }[];
    readonly path: string;
    readonly per_page: number;
    readonly to: number | null;
    readonly total: number;
  };
}

/** `GET /api` with the project-id header. */
export interface Elmapi3ProjectInfo {
  readonly uuid: string;
  readonly name: string;
  readonly description: string | null;
  readonly preview_url: string | null;
  readonly default_locale: string | null;
  readonly locales: string[];
}

/** Without generated types, an `elmapi3` project (`createClient({ …, dialect: 'elmapi3' })`). */
export interface AnyElmapi3Project extends ProjectSchema {
  readonly dialect: 'elmapi3';
  readonly collections: {
    readonly [slug: string]: {
      readonly entry: AnyElmapi3Entry;
      /** A singleton: its list route answers its one entry. */
      readonly singleton?: true;
      readonly fields: { readonly [name: string]: FieldSchema };
    };
  };
}

export interface AnyElmapi3Entry {
  readonly uuid: string;
  readonly locale: string | null;
  readonly published_at: string | null;
  readonly fields: { readonly [field: string]: unknown } | [];
}

type IsElmapi<P> = P extends { readonly dialect: 'elmapi' } ? true : false;
type IsElmapi3<P> = P extends { readonly dialect: 'elmapi3' } ? true : false;
/** A list answer: `{ data, meta }`, or a bare array in `elmapi` and `elmapi3`. */
export type ListOf<P, T> = IsElmapi<P> extends true ? T[] : IsElmapi3<P> extends true ? T[] : List<T>;
/** What `entries(c)` answers: a list, or an elmapi3 singleton's one entry. */
export type EntriesOf<P, C, T> = P extends { readonly collections: { readonly [K in C & string]: { readonly singleton: true } } }
  ? IsElmapi3<P> extends true
    ? T
    : ListOf<P, T>
  : ListOf<P, T>;
/**
 * elmapi3's Laravel pages: `entries(c, { paginate: 10, page: 2 })` answers `Elmapi3Page` (limit and
 * offset are then ignored, as v3 does). Other dialects have no such key.
 */
export type PageQueryOf<P, G extends number | undefined> =
  IsElmapi3<P> extends true ? { readonly paginate?: G; readonly page?: number } : Record<never, never>;
/** What `entry()` reads besides state, timestamps, fields and exclude: elmapi3's locale and translation_locale (R5). */
export type ItemQueryExtras<P> =
  IsElmapi3<P> extends true ? { readonly locale?: string; readonly translation_locale?: string } : Record<never, never>;
export type MediaOf<P> = IsElmapi<P> extends true ? ElmapiMedia : IsElmapi3<P> extends true ? Elmapi3Asset : Media;
/** What `media()` answers: a list, or in `elmapi3` a page of assets (`/api/files` is always paginated). */
export type MediaListOf<P> = IsElmapi3<P> extends true ? Elmapi3Page<Elmapi3Asset> : ListOf<P, MediaOf<P>>;
export type ProjectInfoOf<P> = IsElmapi<P> extends true ? ElmapiProjectInfo : IsElmapi3<P> extends true ? Elmapi3ProjectInfo : ProjectInfo;
export type TimestampsOf<P> = IsElmapi<P> extends true ? ElmapiTimestamps : IsElmapi3<P> extends true ? Elmapi3Timestamps : Timestamps;
/** An entry or media id as a method takes it (`elmapi` ids are integers; `elmapi3` asset numbers too). */
export type IdOf<P> = IsElmapi<P> extends true ? string | number : IsElmapi3<P> extends true ? string | number : string;
/** The `dialect` option a project needs: required for `elmapi` and `elmapi3`, whose documents say nothing of it. */
export type DialectOption<P> =
  IsElmapi<P> extends true
    ? { readonly dialect: 'elmapi' }
    : IsElmapi3<P> extends true
      ? { readonly dialect: 'elmapi3' }
      : { readonly dialect?: 'cqa' };

// ---------------------------------------------------------------------------------------------
// The schema, as `cqa types` writes it

/** One filterable field: its type, whether it is a list, its values (enumeration), its target (relation). */
export interface FieldSchema {
  readonly type: FieldType;
  readonly multiple: boolean;
  readonly values?: string;
  readonly collection?: string;
  /** A date or datetime whose value is `{ start, end }`. */
  readonly range?: true;
}

export interface CollectionSchema {
  /** An entry as answers show it. */
  readonly entry: object;
  /** Its visible fields. */
  readonly fields: { readonly [name: string]: FieldSchema };
}

export interface ProjectSchema {
  readonly locales: string;
  /** Absent: `cqa`. */
  readonly dialect?: DialectName;
  readonly collections: { readonly [slug: string]: CollectionSchema };
}

/** Without generated types: any collection, any field. */
export interface AnyProject extends ProjectSchema {
  readonly collections: {
    readonly [slug: string]: { readonly entry: AnyEntry; readonly fields: { readonly [name: string]: FieldSchema } };
  };
}

export interface AnyEntry {
  readonly id: string;
  readonly locale: string;
  readonly [field: string]: unknown;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type IsUnion<T> = [T] extends [UnionToIntersection<T>] ? false : true;

/**
 * `Types` of several projects given whole: no project's collections can be meant, so its only
 * collection names say what to write instead (the compiler quotes them in its error).
 */
type SeveralProjectsPickOne<Names extends string> = {
  readonly locales: string;
  readonly collections: {
    readonly [K in `Types has several projects: pick one, createClient<Types['${Names}']>()`]: CollectionSchema;
  };
};

/**
 * `Types` of `cqa types` (one project: that project) or one project of it (`Types['demo']`).
 * With several projects in `Types`, one must be picked: `createClient<Types['demo']>()`.
 */
export type ProjectOf<S> = S extends ProjectSchema
  ? S
  : S[keyof S] extends ProjectSchema
    ? IsUnion<keyof S> extends true
      ? SeveralProjectsPickOne<keyof S & string>
      : S[keyof S]
    : AnyProject;

// ---------------------------------------------------------------------------------------------
// Queries

export type Collection<P extends ProjectSchema> = keyof P['collections'] & string;
type Fields<P extends ProjectSchema, C extends Collection<P>> = P['collections'][C]['fields'];
export type EntryOf<P extends ProjectSchema, C extends Collection<P>> = P['collections'][C]['entry'];
/** Visible field names (what `fields=`/`exclude=` take). */
export type FieldName<P extends ProjectSchema, C extends Collection<P>> = keyof Fields<P, C> & string;

/** Filterable and sortable besides the schema's fields. */
interface SystemFields {
  readonly id: { readonly type: 'text'; readonly multiple: false; readonly isId: true };
  readonly locale: { readonly type: 'text'; readonly multiple: false };
  readonly created_at: { readonly type: 'datetime'; readonly multiple: false };
  readonly updated_at: { readonly type: 'datetime'; readonly multiple: false };
  readonly published_at: { readonly type: 'datetime'; readonly multiple: false };
}
type Filterable<F> = Omit<SystemFields, keyof F> & F;

type TextType = 'text' | 'longtext' | 'markdown' | 'richtext' | 'slug' | 'email' | 'color' | 'enumeration';
type SetOp = 'eq' | 'not' | 'in' | 'not_in' | 'null' | 'not_null';
type RangeOp = 'lt' | 'lte' | 'gt' | 'gte' | 'between' | 'not_between';

/** The operators of a field, as the engine allows them (src/core/query/operators.ts: validOps). */
type OpsOf<F extends FieldSchema> = FieldType extends F['type']
  ? SetOp | RangeOp | 'like'
  : F['type'] extends 'json' | 'group'
    ? 'null' | 'not_null'
    : F extends { range: true }
      ? 'null' | 'not_null'
      : F['type'] extends 'boolean' | 'relation' | 'media'
        ? SetOp
        : F['type'] extends TextType
          ? F['multiple'] extends true
            ? SetOp | 'like'
            : SetOp | RangeOp | 'like'
          : F['multiple'] extends true
            ? SetOp
            : SetOp | RangeOp;

/** One value compared with the field (ids for relation and media). */
type ValueOf<F extends FieldSchema> = FieldType extends F['type']
  ? string | number | boolean
  : F extends { isId: true }
    ? string | number
    : F['type'] extends 'number'
      ? number | `${number}`
      : F['type'] extends 'boolean'
        ? boolean
        : F['type'] extends 'enumeration'
          ? string extends F['values']
            ? string
            : NonNullable<F['values']>
          : string;

type OpValue<O, V> = O extends 'in' | 'not_in'
  ? readonly V[]
  : O extends 'between' | 'not_between'
    ? readonly [V, V]
    : O extends 'null' | 'not_null'
      ? boolean
      : O extends 'like'
        ? string
        : V;

/**
 * What a field must satisfy: a value (`where[f]=v`), `null` (empty), or operators
 * (`{ gt: 10, lte: 20 }` → `where[f][gt]=10&where[f][lte]=20`, all must hold).
 */
export type Condition<F extends FieldSchema> =
  | (F['type'] extends 'json' | 'group' ? never : F extends { range: true } ? never : ValueOf<F>)
  | null
  | 'not_null'
  | { readonly [O in OpsOf<F>]?: OpValue<O, ValueOf<F>> };

export type WhereFields<P extends ProjectSchema, C extends Collection<P>> = {
  readonly [K in keyof Filterable<Fields<P, C>>]?: Filterable<Fields<P, C>>[K] extends infer F extends FieldSchema ? Condition<F> : never;
};

/** `where`: clauses that must all hold, or (`or`) any group holding in full. */
export type Where<P extends ProjectSchema, C extends Collection<P>> = WhereFields<P, C> & {
  readonly or?: readonly WhereFields<P, C>[];
};

type RelationFields<P extends ProjectSchema, C extends Collection<P>> = {
  [K in keyof Fields<P, C>]: Fields<P, C>[K] extends { type: 'relation' } ? K : never;
}[keyof Fields<P, C>];

type TargetOf<P extends ProjectSchema, F> = F extends { collection: infer T extends Collection<P> } ? T : Collection<P>;

/** A sort item; `elmapi` needs the direction (`price:asc`). */
export type SortKey<P extends ProjectSchema, C extends Collection<P>> =
  | (IsElmapi<P> extends true ? never : keyof Filterable<Fields<P, C>> & string)
  | `${keyof Filterable<Fields<P, C>> & string}:${'asc' | 'desc'}`;

export interface Query<
  P extends ProjectSchema,
  C extends Collection<P>,
  K extends string = FieldName<P, C>,
  T extends boolean = boolean,
  X extends FieldName<P, C> = FieldName<P, C>,
> {
  /** An object, or a list of groups that must all hold (`where[0][…]`, `where[1][…]`). */
  readonly where?: Where<P, C> | readonly WhereFields<P, C>[];
  /** Items whose relation field points to at least one entry matching the clauses. */
  readonly whereRelation?: { readonly [R in RelationFields<P, C>]?: Where<P, TargetOf<P, Fields<P, C>[R]>> };
  readonly sort?: SortKey<P, C> | readonly SortKey<P, C>[];
  readonly limit?: number;
  readonly offset?: number;
  readonly locale?: P['locales'];
  /** elmapi3 also takes its own word for drafts, `'draft'` (the same as `'only_draft'`). */
  readonly state?: 'published' | 'with_draft' | 'only_draft' | (IsElmapi3<P> extends true ? 'draft' : never);
  readonly timestamps?: T;
  /** Only these fields (id and locale are always kept). */
  readonly fields?: readonly K[];
  /** All but these fields (id and locale are always kept). */
  readonly exclude?: readonly X[];
}

/** `E` without the fields `X` (never, or any string: all kept; id and locale always stay); an elmapi3 entry's are in `fields`. */
type Without<E, X extends string> = [X] extends [never]
  ? E
  : string extends X
    ? E
    : E extends { readonly uuid: string; readonly fields: infer F }
      ? Omit<E, 'fields'> & { readonly fields: FieldsWithout<F, X> }
      : Omit<E, Exclude<X, 'id' | 'locale'>>;
/** Each object of the union `F` without `X` (an elmapi3 entry with no field to show has `fields: []`). */
type FieldsWithout<F, X extends string> = F extends readonly unknown[] ? F : Omit<F, X>;

/** An entry as a query shows it: cut to `fields`, or without `exclude`'s (`X`), with timestamps when asked. */
export type Shaped<E, K extends string, T extends boolean, TS = Timestamps, X extends string = never> = Without<
  string extends K ? E : [K] extends [never] ? E : Pick<E, Extract<'id' | 'locale' | K, keyof E>>,
  X
> &
  (true extends T ? (false extends T ? Partial<TS> : TS) : unknown);

/** A media query: the same parameters, on media attributes. */
export interface MediaQuery<M = Media> {
  readonly where?: Record<string, unknown> | readonly Record<string, unknown>[];
  readonly sort?: string | readonly string[];
  readonly limit?: number;
  readonly offset?: number;
  readonly fields?: readonly (keyof M)[];
  readonly exclude?: readonly (keyof M)[];
}
