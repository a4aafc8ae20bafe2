// What a pull reads from an API, before it is written as files: a project with its collections,
// entries and media, in the terms of the content tree (SPEC §2), not of either dialect's answers.
// Plain data; the readers (read-cqa.ts, read-elmapi.ts) fill it, write-tree.ts writes it.
import type { DialectName, EntryRecord, FieldDef } from '../../core/model/model.js';

/**
 * An entry as the loader would read it from its file (timestamps as ISO 8601, media and relation
 * fields as ids), except that a richtext value is its Markdown, not the HTML the loader renders.
 */
export type PulledEntry = Omit<EntryRecord, 'file'> & {
  /** elmapi3: the file name without extension, when it is not the id (the members of a translation group share one). */
  readonly stem?: string;
};

export interface PulledCollection {
  readonly slug: string;
  readonly name: string;
  readonly body_field: string;
  /** `sort:` for _collection.yaml, undefined for the default (id ascending). */
  readonly sort: string | undefined;
  readonly fields: readonly FieldDef[];
  readonly entries: readonly PulledEntry[];
  /** elmapi3: `singleton: true`. */
  readonly singleton?: boolean;
  /** `translations: true`: the loader links the locale variants itself (the field is not in `fields`, nor in the entries). */
  readonly translations?: boolean;
  /** A comment for a field's line in _collection.yaml, by field name (required.ts: what the API has that the file does not). */
  readonly notes?: ReadonlyMap<string, string>;
}

export interface PulledMedia {
  /** The path under media/ ('/'-separated). */
  readonly path: string;
  readonly caption: string | null;
  readonly alt: string | null;
  /** elmapi: the integer id, when it is not the one derived from the path. */
  readonly number?: number;
  /** elmapi3: the asset's uuid, when it is not the one derived from the path. */
  readonly uuid?: string;
  /** Where to download the file from (absolute), and its size in bytes as the API states it. */
  readonly url: string;
  readonly size: number;
  /** elmapi3 states sizes rounded (`"2.73 KB"`): the byte counts that print so; `size` is the largest. */
  readonly sizeRange?: readonly [number, number];
}

export interface PulledProject {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly dialect: DialectName;
  readonly default_locale: string;
  readonly locales: readonly string[];
  readonly public: boolean;
  readonly collections: readonly PulledCollection[];
  readonly media: readonly PulledMedia[];
}

/**
 * A problem a person must fix, with the fix in the message. `usage`: the fix is an argument (the
 * token, --project, --collections, --out): the command exits 2 as for any usage error.
 */
export class PullError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}
