// Results kept per table: every match of a filter, in the order of a sort. A client paging through
// a list asks the same filter and sort again with another offset; evaluating it anew pays for the
// filter (and the count) each time — at a million entries 1–5 ms for a broad filter — while a kept
// result answers any page by cutting it. The snapshot never changes under a table, so a result
// stays right for the table's life. No Node imports.
import { fnv1a } from '../snapshot/dialect/media-number.js';

export interface Result {
  /** Number of matches. */
  readonly total: number;
  /** Every match in the sort's order; null when only the count is kept (a broad filter). */
  readonly sorted: Int32Array | null;
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
    if (r) {
      this.kept.delete(key);
      this.kept.set(key, r);
    }
    return r;
  }

  /**
   * Whether a list for `key` is worth keeping: from its second asking (a one-off query would only
   * churn the cache). The first asking is remembered in one slot per hash.
   */
  admit(key: string): boolean {
    const h = fnv1a(key);
    const slot = h & (this.seen.length - 1);
    if (this.seen[slot] === h) return true;
    this.seen[slot] = h;
    return false;
  }

  /** Whether a list of `total` positions may be kept. */
  fits(total: number): boolean {
    return total * 4 <= this.budget / 4;
  }

  set(key: string, r: Result): void {
    const size = r.sorted ? r.sorted.byteLength : 0;
    this.kept.set(key, r);
    this.bytes += size;
    for (const [k, old] of this.kept) {
      if (this.bytes <= this.budget && this.kept.size <= MAX_RESULTS) break;
      this.kept.delete(k);
      this.bytes -= old.sorted ? old.sorted.byteLength : 0;
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
