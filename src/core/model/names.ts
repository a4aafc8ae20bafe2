// Names for generated code, from content ids and slugs: PascalCase words and English singulars.
// Shared by `cqa types` (client-types.ts) and the OpenAPI operationIds (openapi-names.ts).

/** `blog-posts` → `BlogPosts`, `5f2b8c` → `5f2b8c` (callers that need an identifier guard the digit). */
export function pascalCase(s: string): string {
  return s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

// Plurals that are their own singular, or whose singular the rules below would get wrong.
const SAME = /(news|series|species|ss|us|is)$/i;

/**
 * The singular of an English plural, by the common rules (`categories` → `category`, `boxes` →
 * `box`, `posts` → `post`); a word it does not know as a plural (`media`, `news`) stays as it is.
 * Only the end changes (`BlogPosts` → `BlogPost`). Good enough for names: nothing depends on it but them.
 */
export function singular(word: string): string {
  if (SAME.test(word)) return word;
  if (/[^aeiou]ies$/i.test(word) && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(x|ch|sh|ss|zz)es$/i.test(word)) return word.slice(0, -2);
  if (/[^s]s$/i.test(word)) return word.slice(0, -1);
  return word;
}
