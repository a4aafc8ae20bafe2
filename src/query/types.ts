// The query engine's contract with the HTTP layer: plain data in, plain data out.
import type { Scope } from '../snapshot/model.js';

export interface QueryContext {
  /** Scopes of the caller's token (a public project without a token: read only). */
  readonly scopes: ReadonlySet<Scope>;
  /** Largest `limit` accepted; 0 = no cap. */
  readonly maxLimit: number;
}

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
}

/** Either the JSON text of the answer (status 200) or a problem. */
export type QueryOutcome = { readonly ok: true; readonly body: string } | { readonly ok: false; readonly problem: QueryProblem };
