// The snapshot: the content model plus everything precomputed for answering requests — entries
// serialised once, lookups by id, the static documents. Immutable once created; the query engine
// and the HTTP layer only read it.
import type { Dialect } from '../dialects/types.js';
import type { CollectionRecord, EntryRecord, FieldDef, FieldValue, MediaRecord, ProjectRecord, TokenRecord } from './model.js';

export interface EntrySnapshot {
  readonly record: EntryRecord;
  /** Position in the collection's default order (0-based). */
  readonly rank: number;
  /**
   * The entry's response JSON without timestamps, relations and media expanded, hidden fields
   * left out: `{"id":…,"locale":…,"<field>":…,…}`.
   */
  readonly json: string;
  /**
   * `json` as UTF-8, where the snapshot holds it so (a compact snapshot sent by the load process):
   * a view of those bytes, no copy. A list answer is then put together from them (src/core/query/index.ts).
   */
  utf8?(): Uint8Array | undefined;
  /**
   * Where each visible field's `,"name":value` part starts in `json`, in visible-field order, plus
   * one last offset (where the closing `}` is). Used to serve `fields=`/`exclude=` by slicing.
   */
  readonly offsets: ArrayLike<number>;
  /** `,"created_at":…,"updated_at":…,"published_at":…` — spliced in before `}` for `timestamps`. */
  readonly timestamps: string;
  /** Digest of everything an answer may show of this entry (draft flag, json, timestamps). */
  readonly hash: string;
  /**
   * The entry's text with timestamps, when they are not just spliced in before the closing `}`
   * (a dialect with `timestampsFirst`: they follow the locale, and embedded entries carry theirs).
   */
  readonly withTimestamps?: { readonly json: string; readonly offsets: readonly number[] };
  /**
   * Entries of a compact snapshot (src/core/snapshot/compact.ts): the value of a field that the record
   * leaves out, read from `json`. Read values with fieldValue() (src/core/query/table.ts).
   */
  valueInText?(name: string): FieldValue | undefined;
}

export interface CollectionSnapshot {
  readonly record: CollectionRecord;
  /** Every field by name, hidden ones included (the engine must reject those). */
  readonly fields: ReadonlyMap<string, FieldDef>;
  /** Fields that appear in responses, in schema order (offsets of EntrySnapshot follow this). */
  readonly visibleFields: readonly FieldDef[];
  /** Every entry, drafts included, in default order. */
  readonly entries: readonly EntrySnapshot[];
  readonly byId: ReadonlyMap<string, EntrySnapshot>;
  /** Number of published entries. */
  readonly publishedCount: number;
  /** Whether all ids are integers (then ids compare as numbers). */
  readonly numericIds: boolean;
}

export interface MediaSnapshot {
  readonly record: MediaRecord;
  readonly full_url: string;
  /** `{"id":…,"file_name":…,"full_url":…,…}` */
  readonly json: string;
  /** A thumbnail is written and served at /thumbs/<project>/<media id> (src/core/snapshot/thumbs.ts). */
  readonly thumb?: true;
}

export interface ProjectSnapshot {
  readonly record: ProjectRecord;
  /** How the project answers (src/core/dialects/). */
  readonly dialect: Dialect;
  readonly collections: ReadonlyMap<string, CollectionSnapshot>;
  /** In the dialect's media order (cqa: by id). */
  readonly media: readonly MediaSnapshot[];
  /** By media id: the path under media/ (what entries and /media/ URLs name). */
  readonly mediaById: ReadonlyMap<string, MediaSnapshot>;
  /** By what follows /project-media/ in an API path (cqa: the media id; elmapi: the number, name/<file>). */
  readonly mediaByKey: ReadonlyMap<string, MediaSnapshot>;
  /** sha256 hex → token. */
  readonly tokens: ReadonlyMap<string, TokenRecord>;
}

export interface Snapshot {
  /** Hex digest over every document: changes whenever any answer would change. */
  readonly hash: string;
  readonly baseUrl: string;
  readonly projects: ReadonlyMap<string, ProjectSnapshot>;
  /** Every API path answerable without a query ('/api/demo', '/api/demo/posts/hello', …), sorted. */
  readonly paths: readonly string[];
  /** The JSON text of the document for `path` (published content only), or undefined. */
  document(path: string): string | undefined;
  /**
   * The OpenAPI 3.1 description of the public projects only (JSON text): what anyone may read.
   * Private projects' collections, field names and enumeration values are left out.
   */
  readonly openapi: string;
  /** The OpenAPI description of exactly these projects (unknown ids are ignored), in snapshot order. */
  openapiOf(projectIds: Iterable<string>): string;
}
