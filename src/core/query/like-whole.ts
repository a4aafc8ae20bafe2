// `like` as SQL's LIKE reads a pattern as written: the pattern covers the whole text, so only its
// own `%` lets anything come before or after (like.ts matches anywhere: cqa's `like` is
// "contains"). The first run is checked at the start and the last at the end, a step per item
// each; the runs between are found greedily in what is left, by like.ts's linear segments. Kept
// apart from like.ts so that the client bundle, which never anchors, does not carry it.
// No Node imports.
import {
  ANY,
  advance,
  CQA_LIKE,
  isLow,
  type Item,
  type LikeMatcher,
  type LikeRules,
  type Segment,
  segmentOf,
  shapeOf,
  splitPattern,
} from './like.js';

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** Index `count` code points before `end` (pairs read as advance() reads them), -1 when the text has fewer. */
function retreat(text: string, end: number, count: number): number {
  let i = end;
  for (let k = 0; k < count; k++) {
    if (i <= 0) return -1;
    i -= i >= 2 && isLow(text.charCodeAt(i - 1)) && isHigh(text.charCodeAt(i - 2)) ? 2 : 1;
  }
  return i;
}

/** Where `run` ends when it starts exactly at `from` (a step per item), -1 when it does not match there. */
function matchAt(text: string, from: number, run: readonly Item[]): number {
  let i = from;
  for (const c of run) {
    if (i >= text.length) return -1;
    const next = advance(text, i, 1);
    if (c !== ANY && text.slice(i, next) !== c) return -1;
    i = next;
  }
  return i;
}

/** Whether the pattern begins and ends with an unescaped `%`. */
function openEnds(pattern: string, rules: LikeRules): { openStart: boolean; openEnd: boolean } {
  const cps = Array.from(rules.fold(pattern));
  let openEnd = false;
  for (let i = 0; i < cps.length; i++) {
    if (rules.escapes && cps[i] === '\\' && i + 1 < cps.length) {
      i++;
      openEnd = false;
    } else openEnd = cps[i] === '%';
  }
  return { openStart: cps[0] === '%', openEnd };
}

/** The matcher of `pattern` over the whole text (already folded by `rules.fold`), in time linear in the text. */
export function likeWholeMatcher(pattern: string, rules: LikeRules = CQA_LIKE): LikeMatcher {
  const runs = splitPattern(pattern, rules);
  const { openStart, openEnd } = openEnds(pattern, rules);
  const shape = shapeOf(runs);
  const first = openStart ? undefined : runs[0];
  const last = !openEnd && runs.length > (first ? 1 : 0) ? runs[runs.length - 1] : undefined;
  const segments: Segment[] = runs.slice(first ? 1 : 0, last ? runs.length - 1 : runs.length).map(segmentOf);
  const match = (lower: string): boolean => {
    if (runs.length === 0) return openStart || lower === '';
    let pos = 0;
    let end = lower.length;
    if (first && (pos = matchAt(lower, 0, first)) === -1) return false;
    if (last && ((end = retreat(lower, lower.length, last.length)) < pos || matchAt(lower, end, last) !== lower.length)) return false;
    // A single run anchored at both ends must cover the whole text.
    if (first && !last && !openEnd && pos !== lower.length) return false;
    for (const seg of segments) {
      if (seg.lead > 0 && (pos = advance(lower, pos, seg.lead)) === -1) return false;
      if ((pos = seg.find(lower, pos)) === -1) return false;
      if (seg.trail > 0 && (pos = advance(lower, pos, seg.trail)) === -1) return false;
    }
    return pos <= end;
  };
  return Object.assign(match, { shape });
}
