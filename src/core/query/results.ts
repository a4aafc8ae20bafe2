// Results kept per table, for a client paging through a list: it asks the same filter and sort
// again with another offset, and evaluating it anew paid for the filter and the count each time (at
// a million entries 1–5 ms for a broad filter). A result is the count and the matches in order —
// all of them, or as far as a walk of an order has found them, with where to go on from. The
// snapshot never changes under a table, so a result stays right for the table's life. No Node
// imports.
import { askedBefore } from './asked-before.js';

export interface Result {
  /** Number of matches. */
  readonly total: number;
  /** The first `found` matches in order (the array may have room for more); null: only the count. */
  sorted: Int32Array | null;
  found: number;
  /** How to find more: the matches in the table's order of `walk.sort`, from `next` on. */
  readonly walk?: Walk;
  /** Bytes this result was counted with (ResultCache). */
  bytes?: number;
}

export interface Walk {
  /**
   * The sort's key, for its cached order (not the order itself: an order the table let go is not
   * kept alive by a result; the walk is then evaluated anew). null: positions.
   */
  readonly sort: string | null;
  readonly test: (i: number) => boolean;
  next: number;
}

/** At most this many results per table, whatever their size. */
const MAX_RESULTS = 64;

export class ResultCache {
  private readonly kept = new Map<string, Result>();
  private bytes = 0;
  /** Hashes of keys asked once (see admit). */
  private readonly seen = new Uint32Array(256);

  constructor(
    /** Bytes of sorted lists kept at most. */
    readonly budget: number,
  ) {}

  get(key: string): Result | undefined {
    const r = this.kept.get(key);
    if (r) this.set(key, r);
    return r;
  }

  /**
   * Whether every match of `key` is worth ordering and keeping: from its second asking (a one-off
   * query would only churn the cache). The first asking is remembered in one slot per hash.
   */
  admit(key: string): boolean {
    return askedBefore(this.seen, key);
  }

  /** Whether a list of `total` positions may be kept. */
  fits(total: number): boolean {
    return total * 16 <= this.budget;
  }

  /** Keeps `r` as the newest result (again, when it has grown). */
  set(key: string, r: Result): void {
    this.bytes -= this.kept.get(key)?.bytes ?? 0;
    this.kept.delete(key);
    this.kept.set(key, r);
    this.bytes += r.bytes = r.sorted?.byteLength ?? 0;
    for (const [k, old] of this.kept) {
      if (this.bytes <= this.budget && this.kept.size <= MAX_RESULTS) break;
      this.kept.delete(k);
      this.bytes -= old.bytes ?? 0;
    }
  }
}

/** Parameters that choose a window of the matches, not which entries match or their order. */
const WINDOW = new Set(['limit', 'offset', 'first', 'count']);

/**
 * The query without its window (`limit`, `offset`, `first`, `count`): two queries of one table with
 * the same key match the same entries in the same order (a table is one drafts view; the rest of the
 * query, locale and sort included, is in the key as written).
 */
export function resultKey(rawQuery: string): string {
  return rawQuery
    .split('&')
    .filter((piece) => !WINDOW.has(piece.split('=', 1)[0] as string))
    .join('&');
}
