// "Did you mean …?": the known name closest to a mistyped one, for the messages of the CLI and
// of the library's option checks (http/options.ts). Small edit distances only: a suggestion far
// from what was typed misleads.

/**
 * Edit distance counting a swap of two neighbours as one edit (`prot` → `port`), up to `limit`
 * (limit + 1 means farther): only cells within `limit` of the diagonal can stay within it, so a
 * row costs 2 × limit + 1 of them, whatever the names' lengths (found from outside: 64-character
 * names cost 10 ms a key).
 */
function distance(a: string, b: string, limit: number): number {
  const far = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return far;
  const width = b.length + 1;
  let before = new Array<number>(width).fill(far);
  let prev = new Array<number>(width).fill(far);
  for (let j = 0; j <= Math.min(b.length, limit); j++) prev[j] = j;
  let row = new Array<number>(width);
  for (let i = 1; i <= a.length; i++) {
    row.fill(far);
    if (i <= limit) row[0] = i;
    let best = row[0] as number;
    for (let j = Math.max(1, i - limit), to = Math.min(b.length, i + limit); j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] as number) + 1);
      row[j] = Math.min(d, far);
      if (d < best) best = d;
    }
    if (best > limit) return far;
    [before, prev, row] = [prev, row, before];
  }
  return prev[b.length] as number;
}

/**
 * The candidate closest to `typed` (case ignored), or undefined when none is close: at most one
 * edit for names up to 4 characters, two up to 8, three beyond.
 */
export function closestName(typed: string, candidates: Iterable<string>): string | undefined {
  const t = typed.toLowerCase();
  if (t === '' || t.length > 200) return undefined;
  const limit = t.length <= 4 ? 1 : t.length <= 8 ? 2 : 3;
  let found: string | undefined;
  let foundDistance = limit + 1;
  for (const c of candidates) {
    const d = c.toLowerCase() === t ? 0 : distance(t, c.toLowerCase(), limit);
    if (d < foundDistance) {
      found = c;
      foundDistance = d;
    }
  }
  return found;
}
