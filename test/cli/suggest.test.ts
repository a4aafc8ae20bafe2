// closestName (src/core/suggest.ts) computes only the cells near the diagonal of the edit-distance
// table: it must pick what the whole table picks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestName } from '../../src/core/suggest.js';

/** Optimal string alignment distance over the whole table (a swap of neighbours is one edit). */
function fullDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  return (d[a.length] as number[])[b.length] as number;
}

function expected(typed: string, candidates: string[]): string | undefined {
  const t = typed.toLowerCase();
  if (t === '' || t.length > 200) return undefined;
  const limit = t.length <= 4 ? 1 : t.length <= 8 ? 2 : 3;
  let found: string | undefined;
  let best = limit + 1;
  for (const c of candidates) {
    const d = fullDistance(t, c.toLowerCase());
    if (d < best) [found, best] = [c, d];
  }
  return found;
}

describe('closestName', () => {
  it('picks what the whole edit-distance table picks', () => {
    const name = fc.stringMatching(/^[abcAB_]{0,14}$/);
    fc.assert(
      fc.property(name, fc.array(name, { maxLength: 8 }), (typed, candidates) => {
        expect(closestName(typed, candidates)).toBe(expected(typed, candidates));
      }),
      { numRuns: 3000 },
    );
  });

  it('suggests across a swap, an insertion and a deletion, and nothing farther', () => {
    expect(closestName('prot', ['port', 'host'])).toBe('port');
    expect(closestName('sumary', ['title', 'summary'])).toBe('summary');
    expect(closestName('titlee', ['title'])).toBe('title');
    expect(closestName('zzzz', ['port'])).toBeUndefined();
  });
});
