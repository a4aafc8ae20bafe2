// Text folding for dialects whose text comparisons ignore case and accents, as MySQL's
// utf8mb4_unicode_ci collation does (the `elmapi` dialect): `Ä` = `a`, `ß` = `ss`. The closest
// rule that needs no collation tables: compatibility decomposition (NFKD, so `ﬁ` = `fi` and
// full-width letters equal ASCII ones), combining marks dropped, lower case, and the expansions
// of the Unicode Collation Algorithm for ß, æ and œ. No Node imports.

const ASCII = /^[\x00-\x7f]*$/;
const MARKS = /\p{M}+/gu;
const EXPANSIONS = /[ßæœ]/g;
const EXPANDED: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', œ: 'oe' };

/** The folded form of `s`: two texts are equal under the collation when their folded forms are. */
export function foldText(s: string): string {
  if (ASCII.test(s)) return s.toLowerCase();
  return s
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(EXPANSIONS, (c) => EXPANDED[c] as string);
}
