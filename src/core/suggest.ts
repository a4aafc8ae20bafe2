// "Did you mean …?": the known name closest to a mistyped one, for the messages of the CLI and
// of the library's option checks (http/options.ts). Small edit distances only: a suggestion far
// from what was typed misleads.

/**
 * Edit distance counting a swap of two neighbours as one edit (`prot` → `port`), stopping early
 * once it exceeds `limit` (names here are short).
 */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] as number) + 1);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    before = prev;
    prev = row;
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
