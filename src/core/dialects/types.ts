// A dialect: how a project answers — the JSON of its entries, media, project document and list
// envelopes, its error bodies and statuses, and the query semantics that differ. One module per
// dialect (cqa.ts, elmapi.ts); the serialiser, the query engine and the HTTP core ask the project's
// dialect instead of testing its name. No Node imports.
import type { Problem } from '../http/problem.js';
import type { DialectName, EntryRecord, FieldDef, FieldValue, MediaRecord } from '../model/model.js';
import type { ProjectSnapshot } from '../model/types.js';

/** Query semantics that differ between dialects (plain data, read by src/query). */
export interface QuerySemantics {
  /** Text eq/not/in/not_in/like/ranges/sort ignore case and accents (MySQL utf8mb4_unicode_ci). */
  readonly foldText: boolean;
  /** Every `sort` item names its direction (`sort=price` is refused). */
  readonly sortNeedsDirection: boolean;
  /** `offset` is refused without `limit`. */
  readonly offsetNeedsLimit: boolean;
  /** `first`, `count` and `timestamps` are on whenever present, whatever their value. */
  readonly flagsByPresence: boolean;
  /** On created_at/updated_at/published_at, the plain form and lt/lte/gt/gte compare the day only. */
  readonly timestampsByDay: boolean;
  /** `whereRelation[rel][f]=v` on a text field means "contains v"; no related entry matching → 404. */
  readonly relationContains: boolean;
  /** Media ids are integers (compared and ordered as numbers). */
  readonly mediaIdsAreNumbers: boolean;
}

export interface ErrorAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** Headers that go with it (the rate-limit headers of a 429). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Dialect {
  readonly name: DialectName;
  readonly query: QuerySemantics;

  /** An entry id as JSON. */
  idJson(id: string): string;
  /** `{"id":…,"locale":…` — what every entry text starts with. */
  entryHead(e: EntryRecord): string;
  /** `,"created_at":…,"updated_at":…,"published_at":…` (what `?timestamps` adds). */
  entryTimestamps(e: EntryRecord): string;
  /**
   * true: the timestamps go right after the head, and embedded entries carry them too (elmapi);
   * false: they go at the end of the top-level entry only (cqa).
   */
  readonly timestampsFirst: boolean;
  /** `,"name":json`, or what stands for a field without a value (`json` undefined). */
  fieldPart(name: string, json: string | undefined): string;
  /** A stored value as JSON; undefined: no value to show. Media fields: `media` gives an item's JSON by media id. */
  fieldJson(f: FieldDef, value: FieldValue | undefined, media: (id: string) => string | undefined): string | undefined;
  /** A relation field: `items` are the JSON texts of what it shows (entries or ids); `present`: the file gives a value. */
  relationJson(f: FieldDef, present: boolean, items: readonly string[]): string | undefined;

  /** Media objects carry `thumb`: scaled copies are written and served (src/core/snapshot/thumbs.ts). */
  readonly thumbnails: boolean;
  /** A media item as JSON. */
  mediaJson(m: MediaRecord, fullUrl: string, thumbUrl: string): string;
  /** The ids a media item answers to under /api/<project>/project-media/ (the first one is its own). */
  mediaKeys(m: MediaRecord): readonly string[];
  /** Order of the media list (and of the media table). */
  compareMedia(a: MediaRecord, b: MediaRecord): number;

  projectJson(p: ProjectSnapshot): string;
  /** A list answer from already-serialised items. */
  list(items: readonly string[], total: number, limit: number | null, offset: number): string;
  /** A single item answer (one entry, `?first`, one media item). */
  item(json: string): string;
  count(n: number): string;

  /** An error answer. */
  error(p: Problem): ErrorAnswer;
}
