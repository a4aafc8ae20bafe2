// The `like` matcher (src/core/query/like.ts): it agrees with a plain reference of SQL LIKE as the
// engine documents it (§4.3: case-insensitive substring, `%` any run, `_` one code point, `\x`
// the literal x) on generated patterns and texts with astral code points. That its work grows with
// the text, not with text × pattern (issue 20, item 2), is timed in like-time.slow.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { likeRef, run, whole } from './like-reference.js';

// Letters of both cases, astral code points (emoji, a math letter), a letter whose lower case is
// two code points (İ), and the pattern's own signs.
const TEXT_CHARS = ['a', 'b', 'A', 'B', 'é', 'É', '😀', '𝔸', 'İ', 'i', '%', '_', '\\', ' '];
const PATTERN_CHARS = [...TEXT_CHARS, '%', '_', '_', '\\'];

const textArb = fc.array(fc.constantFrom(...TEXT_CHARS), { maxLength: 40 }).map((a) => a.join(''));
const patternArb = fc.array(fc.constantFrom(...PATTERN_CHARS), { maxLength: 12 }).map((a) => a.join(''));

describe('like matcher = reference (SQL LIKE as documented)', () => {
  it('on generated patterns and texts, astral code points and escapes included', () => {
    fc.assert(
      fc.property(patternArb, textArb, (pattern, text) => {
        expect(run(pattern, text)).toBe(likeRef(pattern, text));
      }),
      { numRuns: 20_000, seed: 20_2 },
    );
  });

  it('on patterns taken from the text (most of them match), with `_` put in at random', () => {
    fc.assert(
      fc.property(textArb, fc.nat(), fc.nat(), fc.array(fc.nat(), { maxLength: 6 }), (text, a, b, holes) => {
        const cps = Array.from(text);
        const from = cps.length === 0 ? 0 : a % cps.length;
        const piece = cps.slice(from, from + (b % 12)).map((c) => (c === '%' || c === '_' || c === '\\' ? `\\${c}` : c));
        for (const h of holes) if (piece.length > 0) piece[h % piece.length] = '_';
        const pattern = piece.join('');
        expect(run(pattern, text)).toBe(likeRef(pattern, text));
      }),
      { numRuns: 10_000, seed: 20_3 },
    );
  });

  it('patterns with more than 32 positions (the matcher state spans several words)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', '_', '😀'), { minLength: 30, maxLength: 80 }),
        textArb,
        fc.nat(),
        (chars, tail, cut) => {
          const pattern = chars.join('');
          // The text holds the pattern's literal letters in place, so some cases match.
          const text = chars.map((c) => (c === '_' ? (['x', '😀', 'A'][cut++ % 3] as string) : c)).join('') + tail;
          const shifted = `${tail}${text}`;
          expect(run(pattern, text)).toBe(likeRef(pattern, text));
          expect(run(pattern, shifted)).toBe(likeRef(pattern, shifted));
          expect(run(`%${pattern}%b`, shifted)).toBe(likeRef(`%${pattern}%b`, shifted));
        },
      ),
      { numRuns: 500, seed: 20_4 },
    );
  });

  it('a lone surrogate in the text counts as one character, as Array.from counts it', () => {
    const text = 'a\ud83db\ude00c';
    for (const pattern of ['a_b', 'a__c', 'b_c', '_b_', 'a_b_c', 'a___c']) expect(run(pattern, text), pattern).toBe(likeRef(pattern, text));
  });
});

describe('like matcher, whole: SQL LIKE as written (the pattern covers the text; only its own % leave room)', () => {
  it('on generated patterns and texts, astral code points and escapes included', () => {
    fc.assert(
      fc.property(patternArb, textArb, (pattern, text) => {
        expect(whole(pattern, text)).toBe(likeRef(pattern, text, true));
      }),
      { numRuns: 20_000, seed: 20_6 },
    );
  });

  it('on patterns taken from the text, with `_` and `%` put in at random', () => {
    fc.assert(
      fc.property(
        textArb,
        fc.nat(),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        (text, a, b, holes, runs) => {
          const cps = Array.from(text);
          const from = cps.length === 0 ? 0 : a % (cps.length + 1);
          const piece = cps.slice(from, from + (b % 20)).map((c) => (c === '%' || c === '_' || c === '\\' ? `\\${c}` : c));
          for (const h of holes) if (piece.length > 0) piece[h % piece.length] = '_';
          for (const r of runs) piece.splice(r % (piece.length + 1), 0, '%');
          const pattern = piece.join('');
          expect(whole(pattern, text)).toBe(likeRef(pattern, text, true));
        },
      ),
      { numRuns: 10_000, seed: 20_7 },
    );
  });

  it('numbers as SQL LIKE reads them without added wildcards', () => {
    expect(['9', '19.5', '19', '29', '0.9'].filter((n) => whole('9', n))).toEqual(['9']);
    expect(['9', '19.5', '19', '29', '0.9'].filter((n) => whole('%9', n))).toEqual(['9', '19', '29', '0.9']);
    expect(['9', '19.5', '19', '29', '0.9'].filter((n) => whole('1_', n))).toEqual(['19']);
    expect(whole('', '')).toBe(true);
    expect(whole('', 'a')).toBe(false);
    expect(whole('%', '')).toBe(true);
    expect(whole('a%a', 'a')).toBe(false);
    expect(whole('a%a', 'aa')).toBe(true);
  });
});
