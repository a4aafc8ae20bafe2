// FNV-1a, 32 bits: a small, stable hash of a string, for uses where a collision costs little (a
// derived media number, a cache's admission). No Node imports.

/** FNV-1a of `text`'s UTF-16 code units, as an unsigned 32-bit integer. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
