// The cost budget of one query (docs/security.md "Query cost"): before the engine scans a
// table, it estimates the work from the conditions, the patterns and the rows they will run on,
// and refuses a query over the budget with a 400 that says what to change — one URL must not
// hold the event loop (or a billed edge CPU) for seconds. No Node imports.
import type { LikeShape } from './like.js';
import { bad } from './problems.js';

/**
 * Units: about one character read by a literal search (~0.1 ns on a laptop core), so the budget
 * is about a tenth of a second of work. Measured figures behind the weights: docs/security.md.
 */
export const MAX_QUERY_COST = 1_000_000_000;

/** One condition tested on one item (a closure call and a column read). */
export const TEST_COST = 30;
/** One `like` test on one value: the call. */
export const LIKE_CALL_COST = 300;
/** One search of a `like` pattern's segment (between two `%`) in one value: its set-up. */
export const SEGMENT_COST = 200;
/** One numeric interval of a list compared with one value. */
export const INTERVAL_COST = 10;
/** One character compared by a range condition on text. */
export const COMPARE_COST = 2;

/** Cost of one `like` test on an item: a call per value, a search per segment, and its characters times the pattern's work per character. */
export function likeCost(shape: LikeShape, valuesPerItem: number, charsPerItem: number): number {
  return valuesPerItem * (LIKE_CALL_COST + SEGMENT_COST * shape.segments) + charsPerItem * shape.perChar;
}

const formatted = (n: number) => Math.round(n).toLocaleString('en-US');

/** The work spent by one query so far; `spend` refuses the query when it would go over. */
export class Budget {
  private spent = 0;

  constructor(private readonly limit: number = MAX_QUERY_COST) {}

  spend(units: number): void {
    this.spent += units;
    if (this.spent > this.limit) {
      bad(
        'query_too_costly',
        `this query would cost ~${formatted(this.spent)} units (about one per character its like patterns read, ${TEST_COST} per condition per entry); the limit is ${formatted(this.limit)}: use fewer or shorter like patterns (a '_' between letters costs most) and fewer where[or] alternatives, or add an equality or range condition beside them (where[field]=…) so that they test fewer entries`,
        'where',
      );
    }
  }
}
