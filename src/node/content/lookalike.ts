// A value that names something (an enumeration value, a media file, an entry) and is not found,
// but would be if written the way the author thinks they wrote it: in another case, with accents
// decomposed (NFD, as macOS saves file names), with an invisible character or a non-breaking
// space (pasted from a word processor). Said as a hint, never matched in silence (found from outside).

/** Characters no reader sees: soft hyphen, zero-width ones, word joiner, BOM (files.ts reads names with them too). */
export const INVISIBLE_CHARS = '\u00ad\u200b-\u200d\u2060\ufeff';
// `replace` with a global RegExp starts from 0 each call; `test` needs one without the flag.
const INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`, 'g');
const HAS_INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`);
const SPACES = /[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g;

const plain = (s: string) => s.normalize('NFC').replace(INVISIBLE, '').replace(SPACES, ' ').trim();

/** Each set of names by its plain form and by that in lower case, made once: a tree may miss many of a million ids. */
const indexes = new WeakMap<object, { exact: Map<string, string>; folded: Map<string, string> }>();

function indexOf(names: ReadonlySet<string> | readonly string[]) {
  let index = indexes.get(names);
  if (!index) {
    index = { exact: new Map(), folded: new Map() };
    for (const name of names) {
      const p = plain(name);
      if (!index.exact.has(p)) index.exact.set(p, name);
      if (!index.folded.has(p.toLowerCase())) index.folded.set(p.toLowerCase(), name);
    }
    indexes.set(names, index);
  }
  return index;
}

/** `; did you mean 'x'? (how it differs)` when one of `names` is `value` written otherwise; '' when none is. */
export function lookalikeHint(value: string, names: ReadonlySet<string> | readonly string[]): string {
  const { exact, folded } = indexOf(names);
  const mine = plain(value);
  const same = exact.get(mine);
  if (same !== undefined && same !== value) return `; did you mean '${same}'? (${why(value, same)})`;
  const other = folded.get(mine.toLowerCase());
  return other !== undefined && other !== value ? `; did you mean '${other}'? (written in another case)` : '';
}

function why(value: string, name: string): string {
  if (value.normalize('NFC') === name.normalize('NFC'))
    return 'the same letters, one with its accents written as separate characters (NFD, as macOS saves names)';
  if (HAS_INVISIBLE.test(value + name)) return 'with an invisible character, as pasted text may hold';
  return 'with a non-breaking or other space, or blanks around it';
}
