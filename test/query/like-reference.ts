// A plain reference of SQL LIKE as the engine documents it (§4.3), and the two matchers as the
// like tests call them (like.test.ts, like-time.slow.test.ts).
import { likeMatcher } from '../../src/core/query/like.js';
import { likeWholeMatcher } from '../../src/core/query/like-whole.js';

type Token = { any: true } | { run: true } | { lit: string };

/** The pattern as tokens, read the way the documentation says (a trailing `\` is itself). */
function tokens(pattern: string): Token[] {
  const cps = Array.from(pattern.toLowerCase());
  const out: Token[] = [];
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i] as string;
    if (c === '\\' && i + 1 < cps.length) out.push({ lit: cps[++i] as string });
    else if (c === '%') out.push({ run: true });
    else if (c === '_') out.push({ any: true });
    else out.push({ lit: c });
  }
  return out;
}

/** Reference: a table of "pattern prefix k matches text prefix j", with `%…%` around it (substring) unless `whole`. */
export function likeRef(pattern: string, text: string, whole = false): boolean {
  const p: Token[] = whole ? tokens(pattern) : [{ run: true }, ...tokens(pattern), { run: true }];
  const t = Array.from(text.toLowerCase());
  let row = new Array<boolean>(t.length + 1).fill(false);
  row[0] = true;
  for (const tok of p) {
    const next = new Array<boolean>(t.length + 1).fill(false);
    for (let j = 0; j <= t.length; j++) {
      if ('run' in tok) next[j] = !!(row[j] || (j > 0 && next[j - 1]));
      else if (j > 0 && row[j - 1]) next[j] = 'any' in tok || tok.lit === t[j - 1];
    }
    row = next;
  }
  return row[t.length] as boolean;
}

export const run = (pattern: string, text: string) => likeMatcher(pattern)(text.toLowerCase());

export const whole = (pattern: string, text: string) => likeWholeMatcher(pattern)(text.toLowerCase());
