// Sort syntaxes of other APIs (`-price`, `+price`, `price-`, `price desc`), read the way this one
// writes them: the 400 then says `write sort=price:desc` instead of "unknown field '+price'".

/** Direction words people write after the colon or a space, and the one they mean. */
const DIRECTION_WORDS: Readonly<Record<string, 'asc' | 'desc'>> = {
  asc: 'asc',
  desc: 'desc',
  ascending: 'asc',
  descending: 'desc',
  up: 'asc',
  down: 'desc',
  '+': 'asc',
  '-': 'desc',
};

/** The direction a word means (`descending` → desc), case ignored; an own key only (not `constructor`). */
export const directionOf = (word: string): 'asc' | 'desc' | undefined => {
  const w = word.trim().toLowerCase();
  return Object.hasOwn(DIRECTION_WORDS, w) ? DIRECTION_WORDS[w] : undefined;
};

/** `field:asc|desc` when `name` is a known field in another syntax; undefined otherwise. */
export function otherSortSyntax(name: string, known: (field: string) => boolean): string | undefined {
  // `-price`, `+price`, `price-`, `price+`, `price desc`: a field and a direction word.
  const m = /^([+-])\s*(.+)$/.exec(name) ?? /^(.+?)\s*([+-]|\s[a-z]+)$/i.exec(name);
  if (!m) return undefined;
  const [field, word] = m[1] === '+' || m[1] === '-' ? [m[2], m[1]] : [m[1], m[2]];
  const dir = directionOf(word as string);
  return dir && known((field as string).trim()) ? `${(field as string).trim()}:${dir}` : undefined;
}
