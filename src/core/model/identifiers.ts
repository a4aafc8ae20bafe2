// Identifier rules of SPEC §2.2, plus the names a field may have.
/** Project ids and collection slugs. */
export const PROJECT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
export const ENTRY_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
/** The URL segment of the media list; no collection may use it. */
export const RESERVED_SLUG = 'project-media';

/** Keys of an entry file that are not fields. */
export const RESERVED_KEYS: readonly string[] = ['id', 'locale', 'draft', 'created_at', 'updated_at', 'published_at'];

// Field names appear in query strings (`where[name]`, `fields=a,b`), so brackets, commas and the
// like are ruled out; the three prototype names are refused by the query parser (§4.4), so a field
// with one of them could never be filtered. Other names of Object.prototype (toString, valueOf, …)
// are fine: every lookup by field name reads own keys only (see ownValue).
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const FORBIDDEN_FIELD_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Why `name` cannot be a field name, or undefined when it can. */
export function fieldNameProblem(name: string): string | undefined {
  if (RESERVED_KEYS.includes(name)) return `'${name}' is reserved (${RESERVED_KEYS.join(', ')}) and cannot be a field name`;
  if (FORBIDDEN_FIELD_NAMES.has(name)) {
    return `'${name}' cannot be a field name: ${[...FORBIDDEN_FIELD_NAMES].join(', ')} are refused in queries (prototype pollution guard); rename the field`;
  }
  if (name === '') return 'a field name cannot be empty: write a letter or _ first, then letters, digits, _ or - (at most 64)';
  if (!FIELD_NAME.test(name)) {
    return `'${name}' is not a valid field name: use a letter or _ first, then letters, digits, _ or - (at most 64)`;
  }
  return undefined;
}

export function idProblem(kind: 'project id' | 'collection slug' | 'entry id', value: string): string | undefined {
  const re = kind === 'entry id' ? ENTRY_ID : PROJECT_ID;
  if (kind === 'collection slug' && value === RESERVED_SLUG) return `'${RESERVED_SLUG}' is reserved for the media list; rename the folder`;
  // A content tree reads <project>/media/ as the media folder: a collection written there by
  // `cqa pull` became media files, served without a token (found from outside).
  if (kind === 'collection slug' && value.toLowerCase() === 'media')
    return `collection slug '${value}' names the project's media folder in a content tree (on a file system that ignores case too), not a collection`;
  if (re.test(value)) return undefined;
  const max = kind === 'entry id' ? 200 : 128;
  const extra = kind === 'entry id' ? ', dots' : '';
  // Accented letters are the usual cause (found from outside: `misérables.md`): name the plain form.
  const plain = value.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  const hint = plain !== value && re.test(plain) ? `, e.g. '${plain}'` : '';
  return `${kind} '${value}' is not valid: use an ASCII letter or digit first, then ASCII letters, digits${extra}, _ or - (at most ${max} characters${hint})`;
}
