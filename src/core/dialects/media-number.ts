// Integer media ids (the `elmapi` dialect names media by number). A file gets the `id:` given to it
// in media/_media.yaml; a file without one gets a number derived from its path alone, so adding or
// removing other files never renumbers it (renaming or moving the file does). No Node imports.

/** Derived numbers start here, above any hand-given `id:` one is likely to write. */
export const DERIVED_MIN = 1_000_000;
const SPAN = 2 ** 31 - DERIVED_MIN;

/** FNV-1a of `text`'s UTF-16 code units, an unsigned 32-bit integer (also caches' admission, src/core/query/asked-before.ts). */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The number of a media file without an `id:` in _media.yaml: FNV-1a (32 bit) of its path, mapped to [1,000,000, 2^31). */
export function derivedMediaNumber(path: string): number {
  return DERIVED_MIN + (fnv1a(path) % SPAN);
}

/** The media item's number: its own, else derived. */
export function mediaNumber(m: { readonly id: string; readonly number?: number }): number {
  return m.number ?? derivedMediaNumber(m.id);
}
