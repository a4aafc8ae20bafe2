// The query engine's contract with the HTTP layer: plain data in, plain data out.
import type { Scope } from '../model/model.js';

export interface QueryContext {
  /** Scopes of the caller's token (a public project without a token: read only). */
  readonly scopes: ReadonlySet<Scope>;
  /** Largest `limit` accepted; 0 = no cap. */
  readonly maxLimit: number;
  /**
   * Why no token can give drafts here (the static client: a tree holds none), said instead of
   * asking for the 'drafts' scope when drafts are asked for.
   */
  readonly noDrafts?: string;
  /** The caller takes a body as UTF-8 too (the HTTP core): see Utf8Outcome. */
  readonly utf8?: boolean;
  /**
   * Answer from the matches kept for an earlier query with the same filter and sort (a client
   * paging), and keep them (default true); false evaluates anew (benchmarks of evaluation).
   */
  readonly reuse?: boolean;
}

/**
 * What went wrong, as a fact a dialect can word its own way (the `elmapi` dialect answers some of
 * these with the original API's exact messages, src/core/dialects/elmapi.ts). `name`: the field.
 */
export type Situation =
  | { readonly kind: 'where_shape' }
  | { readonly kind: 'between_count' }
  | { readonly kind: 'unknown_field'; readonly name: string }
  | { readonly kind: 'relation_shape' }
  | { readonly kind: 'not_a_relation' }
  | { readonly kind: 'relation_target_field'; readonly name: string }
  | { readonly kind: 'relation_no_match' }
  | { readonly kind: 'sort_direction' }
  | { readonly kind: 'offset_without_limit' }
  | { readonly kind: 'project_not_found' }
  | { readonly kind: 'collection_not_found' }
  | { readonly kind: 'entry_not_found' }
  | { readonly kind: 'media_not_found' }
  /** A failure the mock server injected (--fail-rate, `Prefer: status=`): src/core/http/controls.ts. */
  | { readonly kind: 'injected'; readonly retryAfter?: number };

/** A request the engine refuses: becomes an RFC 9457 problem in the HTTP layer. */
export interface QueryProblem {
  /** 400, 403 or 404. */
  readonly status: number;
  /** Stable machine-readable word, e.g. 'unknown_field'. */
  readonly code: string;
  /** What is wrong and what to change, for a person. */
  readonly detail: string;
  /** The query parameter at fault, e.g. 'where[prise]'. */
  readonly param?: string;
  /** For dialects: what happened (never part of a `cqa` answer). */
  readonly situation?: Situation;
}

/** Either the JSON text of the answer (status 200) or a problem. */
export type QueryOutcome = { readonly ok: true; readonly body: string } | { readonly ok: false; readonly problem: QueryProblem };

/**
 * What a context with `utf8` gets: a list of entries whose snapshot holds their texts as UTF-8
 * may come as those bytes (the same text).
 */
export type Utf8Outcome = QueryOutcome | { readonly ok: true; readonly body: Uint8Array };
