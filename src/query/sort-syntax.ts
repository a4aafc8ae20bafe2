// Sort syntaxes of other APIs (`-price`, `+price`, `price-`, `price desc`), read the way this one
// writes them: the 400 then says `write sort=price:desc` instead of "unknown field '+price'".

/** Direction words people write after the colon, and the one they mean. */
export const DIRECTION_WORDS: Readonly<Record<string, 'asc' | 'desc'>> = {
  ascending: 'asc',
  descending: 'desc',
  up: 'asc',
  down: 'desc',
  '+': 'asc',
  '-': 'desc',
};

/** `field:asc|desc` when `name` is a known field in another syntax; undefined otherwise. */
export function otherSortSyntax(name: string, known: (field: string) => boolean): string | undefined {
  const signed = /^([+-])(.+)$/.exec(name) ?? /^(.+?)([+-])$/.exec(name);
  if (signed) {
    const [sign, field] = signed[1] === '+' || signed[1] === '-' ? [signed[1], signed[2]] : [signed[2], signed[1]];
    if (field !== undefined && known(field.trim())) return `${field.trim()}:${sign === '-' ? 'desc' : 'asc'}`;
  }
  const words = name.split(/\s+/);
  const dir = words.length === 2 ? (DIRECTION_WORDS[(words[1] as string).toLowerCase()] ?? (words[1] as string).toLowerCase()) : '';
  if ((dir === 'asc' || dir === 'desc') && known(words[0] as string)) return `${words[0]}:${dir}`;
  return undefined;
}
