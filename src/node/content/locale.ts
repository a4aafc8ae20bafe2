// Locales: a project's list, and which one an entry has (SPEC §2.3).

// A BCP 47-like tag: en, de, pt-BR, zh-Hant-TW.
const LOCALE = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

export function isLocaleTag(s: string): boolean {
  return LOCALE.test(s);
}

/**
 * The locale of `locales` that is `tag` in another case (`pt-br` for `pt-BR`): BCP 47 tags are
 * the same whatever their case, and one written differently is a mistake worth naming.
 */
export function sameLocale(locales: readonly string[], tag: string): string | undefined {
  const lower = tag.toLowerCase();
  return locales.find((l) => l !== tag && l.toLowerCase() === lower);
}

/**
 * The locale a file name implies: the last dot-separated part of the name without its extension,
 * when that part is one of the project's locales (`hello.de.md` → `de`).
 */
export function localeFromFileName(baseName: string, locales: readonly string[]): string | undefined {
  const dot = baseName.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const suffix = baseName.slice(dot + 1);
  return locales.includes(suffix) ? suffix : undefined;
}

// Two-letter language, optional script and region: `fr`, `pt-BR`, `zh-Hant`, `zh-Hant-TW`. Longer
// codes are left out: `bak`, `old` and other suffixes of file names would read as languages.
const LOCALE_LIKE = /^[a-z]{2}(?:-[A-Z][a-z]{3})?(?:-(?:[A-Z]{2}|\d{3}))?$/;

/**
 * The language a file-name suffix names when it looks like a locale tag (`fr` → `French`), else
 * undefined: `hello.fr.md` in a project without `fr` is worth a warning, `notes.final.md` is not.
 */
export function localeLikeName(suffix: string): string | undefined {
  if (!LOCALE_LIKE.test(suffix)) return undefined;
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(suffix);
  } catch {
    return undefined;
  }
}
