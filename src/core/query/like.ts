// The `like` matcher (§4.3): case-insensitive substring match; `%` matches any run of characters,
// `_` exactly one character (code point); `\%`, `\_` and `\\` (any `\x`) match the literal
// character. Linear in the text: no RegExp, no backtracking, nothing allocated per text.
// No Node imports.

/** A run of the pattern between two `%`: `lead` `_`s, a core, `trail` `_`s. */
export interface Segment {
  readonly lead: number;
  /** Where the core ends after `from` (a code-unit index), -1 when it is not there. */
  readonly find: (text: string, from: number) => number;
  readonly trail: number;
}

/** What a pattern costs to run, for the query's budget (cost.ts). */
export interface LikeShape {
  /** Work per character of text: 1 for literal searches, more for a core with `_` inside. */
  readonly perChar: number;
  /** Segments (between `%`), each a search per text. */
  readonly segments: number;
}

export interface LikeMatcher {
  (lowerText: string): boolean;
  readonly shape: LikeShape;
}

export const ANY = null;
export type Item = string | null;

/** How a dialect reads patterns: its case folding (applied to the texts too), and whether `\x` escapes. */
export interface LikeRules {
  readonly fold: (text: string) => string;
  readonly escapes: boolean;
}

/** cqa's: Unicode lower case, `\%` `\_` `\\` escapes (§4.3). */
export const CQA_LIKE: LikeRules = { fold: (text) => text.toLowerCase(), escapes: true };

/** The pattern as code points (folded; escapes resolved; ANY for `_`), split at `%`. */
export function splitPattern(pattern: string, rules: LikeRules): Item[][] {
  const runs: Item[][] = [];
  let current: Item[] = [];
  const cps = Array.from(rules.fold(pattern));
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i] as string;
    if (rules.escapes && c === '\\' && i + 1 < cps.length) current.push(cps[++i] as string);
    else if (c === '%') {
      if (current.length > 0) runs.push(current);
      current = [];
    } else current.push(c === '_' ? ANY : c);
  }
  if (current.length > 0) runs.push(current);
  return runs;
}

/** Index after `count` code points from `from`, -1 when the text has fewer. */
export function advance(text: string, from: number, count: number): number {
  let i = from;
  for (let k = 0; k < count; k++) {
    if (i >= text.length) return -1;
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && isLow(text.charCodeAt(i + 1)) ? 2 : 1;
  }
  return i;
}

export const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Lone surrogates make indexOf and code points disagree: such literals go through shiftAnd. */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Longest literal left to indexOf. V8's Boyer-Moore looks at a pattern's last 250 characters only
 * and checks the rest one alignment at a time: a longer literal of repeated characters costs
 * text × length (8,000 characters over 4 MB of `a`: 19 s; docs/security.md). Longer ones: KMP.
 */
export const INDEXOF_MAX = 250;

function literalFind(lit: string): Segment['find'] {
  if (lit.length > INDEXOF_MAX) return kmpFind(lit);
  return (text, from) => {
    const at = text.indexOf(lit, from);
    return at === -1 ? -1 : at + lit.length;
  };
}

/** Knuth–Morris–Pratt: a step or two per character of text, whatever the literal. */
function kmpFind(lit: string): Segment['find'] {
  const m = lit.length;
  const back = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    const c = lit.charCodeAt(i);
    while (k > 0 && c !== lit.charCodeAt(k)) k = back[k - 1] as number;
    if (c === lit.charCodeAt(k)) k++;
    back[i] = k;
  }
  return (text, from) => {
    for (let i = from, k = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      while (k > 0 && c !== lit.charCodeAt(k)) k = back[k - 1] as number;
      if (c === lit.charCodeAt(k) && ++k === m) return i + 1;
    }
    return -1;
  };
}

/**
 * Shift-And (Baeza-Yates–Gonnet) over code points: one bit per pattern position, a step per
 * character of text, so the search costs text × ⌈core/32⌉ word operations whatever the pattern.
 */
function shiftAndFind(core: readonly Item[]): Segment['find'] {
  const m = core.length;
  const words = (m + 31) >>> 5;
  const anyMask = new Int32Array(words);
  core.forEach((c, j) => {
    if (c === ANY) anyMask[j >>> 5]! |= 1 << (j & 31);
  });
  // Masks of the first 256 code points in one table (no Map look-up for most text), others in a Map.
  const small = new Int32Array(256 * words);
  for (let c = 0; c < 256; c++) small.set(anyMask, c * words);
  const masks = new Map<number, Int32Array>();
  core.forEach((c, j) => {
    if (c === ANY) return;
    const cp = c.codePointAt(0) as number;
    if (cp < 256) {
      small[cp * words + (j >>> 5)]! |= 1 << (j & 31);
      return;
    }
    let mask = masks.get(cp);
    if (!mask) masks.set(cp, (mask = anyMask.slice()));
    mask[j >>> 5]! |= 1 << (j & 31);
  });
  const lastWord = words - 1;
  const lastBit = 1 << ((m - 1) & 31);
  // Each literal run must be in the text: most texts are turned down by an indexOf or two.
  const needles = literalRuns(core);
  const state = new Int32Array(words);
  const any0 = anyMask[0] as number;
  const big0 = new Map([...masks].map(([cp, mask]) => [cp, mask[0] as number]));
  return (text, from) => {
    for (let k = 0; k < needles.length; k++) if (text.indexOf(needles[k] as string, from) === -1) return -1;
    const n = text.length;
    if (words === 1) {
      let d = 0;
      for (let i = from; i < n; ) {
        let cp = text.charCodeAt(i++);
        let mask: number;
        if (cp < 256) mask = small[cp] as number;
        else {
          if (cp >= 0xd800 && cp <= 0xdbff && i < n && isLow(text.charCodeAt(i))) cp = text.codePointAt(i++ - 1) as number;
          mask = big0.get(cp) ?? any0;
        }
        d = ((d << 1) | 1) & mask;
        if ((d & lastBit) !== 0) return i;
      }
      return -1;
    }
    state.fill(0);
    for (let i = from; i < n; ) {
      let cp = text.charCodeAt(i++);
      let mask: Int32Array;
      let base = 0;
      if (cp < 256) {
        mask = small;
        base = cp * words;
      } else {
        if (cp >= 0xd800 && cp <= 0xdbff && i < n && isLow(text.charCodeAt(i))) cp = text.codePointAt(i++ - 1) as number;
        mask = masks.get(cp) ?? anyMask;
      }
      let carry = 1;
      for (let w = 0; w < words; w++) {
        const d = state[w] as number;
        state[w] = ((d << 1) | carry) & (mask[base + w] as number);
        carry = d >>> 31;
      }
      if (((state[lastWord] as number) & lastBit) !== 0) return i;
    }
    return -1;
  };
}

/**
 * The distinct literal runs of a core, longest first (at most 8: enough to turn texts down), each
 * cut to what indexOf searches in linear time: a text without the cut run has no match either.
 */
function literalRuns(core: readonly Item[]): string[] {
  const runs = new Set<string>();
  let run = '';
  for (const c of [...core, ANY]) {
    if (c !== ANY) run += c;
    else if (run !== '') {
      const cut = run.length > INDEXOF_MAX ? run.slice(0, INDEXOF_MAX) : run;
      if (!LONE.test(cut)) runs.add(cut);
      run = '';
    }
  }
  return [...runs].sort((a, b) => b.length - a.length).slice(0, 8);
}

export function segmentOf(run: readonly Item[]): Segment {
  let lead = 0;
  while (lead < run.length && run[lead] === ANY) lead++;
  let end = run.length;
  while (end > lead && run[end - 1] === ANY) end--;
  const core = run.slice(lead, end);
  const trail = run.length - end;
  if (core.length === 0) return { lead, find: (_text, from) => from, trail };
  const literal = core.every((c) => c !== ANY) ? core.join('') : undefined;
  const find = literal !== undefined && !LONE.test(literal) ? literalFind(literal) : shiftAndFind(core);
  return { lead, find, trail };
}

/** Cost of one pattern per character of text (see LikeShape; weights measured in docs/security.md). */
export function shapeOf(runs: readonly Item[][]): LikeShape {
  let perChar = 1;
  let walks = 0;
  for (const run of runs) {
    let lead = 0;
    while (lead < run.length && run[lead] === ANY) lead++;
    let end = run.length;
    while (end > lead && run[end - 1] === ANY) end--;
    const core = run.slice(lead, end);
    // Stepping over `_`s moves forward through the text: at most its length, ~10 units a step.
    if (lead > 0 || end < run.length) walks = 10;
    // KMP reads a character in ~6 ns, indexOf in ~0.1 (docs/security.md).
    if (core.every((c) => c !== ANY) && core.join('').length > INDEXOF_MAX) perChar += 60;
    // A shiftAnd step costs about 20 literal-search characters per word of its state, plus its
    // look-ups; each literal run of the core is searched first.
    if (core.some((c) => c === ANY)) perChar += 10 + 20 * ((core.length + 31) >>> 5) + literalRuns(core).length;
  }
  return { perChar: perChar + walks, segments: runs.length };
}

/**
 * The matcher of `pattern`; it takes the text already folded by `rules.fold` (for cqa,
 * `toLowerCase()`: the engine caches that column). Segments are found greedily left to right: the leftmost end of each one
 * leaves the most room for the next, so no choice is ever undone.
 */
export function likeMatcher(pattern: string, rules: LikeRules = CQA_LIKE): LikeMatcher {
  const runs = splitPattern(pattern, rules);
  const shape = shapeOf(runs);
  const segments = runs.map(segmentOf);
  const match = (lower: string): boolean => {
    let pos = 0;
    for (let s = 0; s < segments.length; s++) {
      const seg = segments[s] as Segment;
      if (seg.lead > 0 && (pos = advance(lower, pos, seg.lead)) === -1) return false;
      if ((pos = seg.find(lower, pos)) === -1) return false;
      if (seg.trail > 0 && (pos = advance(lower, pos, seg.trail)) === -1) return false;
    }
    return true;
  };
  return Object.assign(match, { shape });
}
