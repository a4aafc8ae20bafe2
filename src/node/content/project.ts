// project.yaml: the project's identity, locales and access tokens (SPEC §2.1).
import { createHash } from 'node:crypto';
import { DIALECTS, type DialectName, type ProjectRecord, type Scope, type TokenRecord } from '../../core/model/model.js';
import { idProblem } from '../../core/model/identifiers.js';
import { describe, isPlainObject, type IssueList, unknownKey, yaml11Boolean } from './issues.js';
import { groupDigits, LIMITS } from './limits.js';
import { isLocaleTag, sameLocale } from './locale.js';
import type { ParsedYaml } from './parse.js';
import { isUuid, lowerCaseHint, UUID_HINT } from './uuid.js';

/** What project.yaml says: a ProjectRecord without its collections and media. */
export type ProjectConfig = Omit<ProjectRecord, 'collections' | 'media'>;

const KEYS = ['id', 'name', 'description', 'default_locale', 'locales', 'public', 'dialect', 'tokens', 'strict'];
const TOKEN_KEYS = ['name', 'sha256', 'token', 'scopes'];
const SCOPES: readonly Scope[] = ['read', 'drafts'];
const SHA256 = /^[0-9a-fA-F]{64}$/;

export function sha256Hex(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** What a value under tokens is, never the value: it may be the token itself. */
const secretKind = (v: unknown) =>
  typeof v === 'string'
    ? `text of ${v.length} character${v.length === 1 ? '' : 's'}`
    : typeof v === 'object' || v === undefined
      ? describe(v)
      : `a ${typeof v}`;

/**
 * `text` (a message about a project.yaml) cut after the first `token:` or `sha256:`: a hint that
 * quotes the line, rewritten or escaped, shows no part of the value (a parenthesis it was in is closed).
 */
export function withoutSecrets(text: string): string {
  const m = /\b(?:token|sha256)["']?[ \t]*:[ \t]*/i.exec(text);
  if (!m) return text;
  const inParens = text.lastIndexOf('(', m.index) > text.lastIndexOf(')', m.index);
  return `${text.slice(0, m.index + m[0].length)}[hidden]${inParens ? ')' : ''}`;
}

/**
 * Whether project.yaml was read and parsed: when not, its settings (locales, dialect, tokens) are
 * unknown, and nothing is judged against the defaults that stand in for them.
 */
export function settingsRead(parsed: ParsedYaml): boolean {
  return parsed.problems.length === 0 && (parsed.value === null || isPlainObject(parsed.value));
}

/** Reads a parsed project.yaml; problems go to `issues`, and defaults fill in what is wrong. */
export function readProject(parsed: ParsedYaml, folder: string, file: string, issues: IssueList): ProjectConfig {
  const err = (path: (string | number)[], message: string, field?: string) =>
    issues.error(file, message, { line: parsed.lineOf(path), field });
  // A broken line's hint may quote it: never a token's value.
  // No code frame: the lines around a broken one may hold tokens in any YAML spelling.
  for (const p of parsed.problems) issues.error(file, withoutSecrets(p.message), { line: p.line });
  let raw: Record<string, unknown> = {};
  if (parsed.problems.length === 0) {
    if (isPlainObject(parsed.value)) raw = parsed.value;
    else if (parsed.value !== null && parsed.value !== undefined)
      err([], `expected a mapping (id, name, locales, tokens, …), got ${describe(parsed.value)}`);
  }
  for (const key of Object.keys(raw)) {
    if (!KEYS.includes(key)) err([key], unknownKey(key, KEYS, 'project.yaml'), key);
  }
  const text = (key: string, fallback: string): string => {
    const v = raw[key];
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'string' || typeof v === 'number') return String(v);
    err([key], `expected text, got ${describe(v)}`, key);
    return fallback;
  };

  const id = text('id', folder);
  const idIssue = idProblem('project id', id);
  if (idIssue)
    err(
      raw.id === undefined ? [] : ['id'],
      raw.id === undefined ? `${idIssue} (it comes from the folder name; set 'id:' or rename the folder)` : idIssue,
      'id',
    );

  const defaultLocale = text('default_locale', 'en');
  if (!isLocaleTag(defaultLocale)) err(['default_locale'], `'${defaultLocale}' is not a locale tag like en or pt-BR`, 'default_locale');
  let locales: string[] = [defaultLocale];
  const listed = raw.locales === undefined || raw.locales === null ? undefined : Array.isArray(raw.locales) ? raw.locales : [raw.locales];
  // 40,000 locales took 20 s to check (found from outside), and every entry and query looks a locale up in them.
  if (listed && listed.length > LIMITS.locales)
    err(
      ['locales'],
      `lists ${groupDigits(listed.length)} locales, more than the ${groupDigits(LIMITS.locales)} a project may have`,
      'locales',
    );
  else if (listed) {
    locales = [];
    listed.forEach((l, i) => {
      // `locales: en, de` is the one text "en, de" (found from outside: then 'default_locale is not in locales []').
      const several = typeof l === 'string' && !Array.isArray(raw.locales) && /[\s,]/.test(l.trim());
      if (several) {
        const tags = l.split(/[\s,]+/).filter(Boolean);
        err(
          ['locales', i],
          `expected a list of locale tags, got the one text ${describe(l)}: write it as a list (locales: [${tags.join(', ')}])`,
          'locales',
        );
        // Read as meant for the rest of the check: entries are not also told their locale is unknown.
        locales.push(...tags.filter((t) => isLocaleTag(t) && !locales.includes(t)));
      } else if (typeof l !== 'string' || !isLocaleTag(l))
        err(['locales', i], `expected a locale tag like en or pt-BR, got ${describe(l)}`, 'locales');
      else if (locales.includes(l)) err(['locales', i], `locale '${l}' is listed twice`, 'locales');
      else if (sameLocale(locales, l))
        err(
          ['locales', i],
          `locale '${l}' is '${sameLocale(locales, l)}' again, in another case (locale tags are the same whatever their case): list it once`,
          'locales',
        );
      else locales.push(l);
    });
    // Unsaid when a tag was refused above: the list it would name is not the one the author wrote.
    if (!locales.includes(defaultLocale) && !listed.some((l) => typeof l !== 'string' || !isLocaleTag(l))) {
      const same = sameLocale(locales, defaultLocale);
      err(
        ['default_locale'],
        same
          ? `default_locale '${defaultLocale}' is written '${same}' in locales: write it the same way (default_locale: ${same})`
          : `default_locale '${defaultLocale}' is not in locales [${locales.join(', ')}]`,
        'default_locale',
      );
    }
  }

  let isPublic = false;
  if (raw.public !== undefined && raw.public !== null) {
    if (typeof raw.public === 'boolean') isPublic = raw.public;
    else err(['public'], `expected true or false, got ${describe(raw.public)}${yaml11Boolean(raw.public)}`, 'public');
  }

  let dialect: DialectName = 'cqa';
  if (raw.dialect !== undefined && raw.dialect !== null) {
    if (typeof raw.dialect === 'string' && (DIALECTS as readonly string[]).includes(raw.dialect)) dialect = raw.dialect as DialectName;
    else
      err(
        ['dialect'],
        `unknown dialect ${describe(raw.dialect)}; use one of ${DIALECTS.join(', ')} (cqa: this API's own shapes, elmapi: the original ElmapiCMS API's, elmapi3: today's ElmapiCMS v3/4 API)`,
        'dialect',
      );
  }
  // The v3 API names a project by its uuid in the `project-id` header.
  if (dialect === 'elmapi3' && !isUuid(id)) {
    err(
      raw.id === undefined ? [] : ['id'],
      `a project of dialect elmapi3 needs 'id:' to be ${UUID_HINT}; got '${id}'${lowerCaseHint(id, 'id: ')}`,
      'id',
    );
  }
  let strict = false;
  if (raw.strict !== undefined && raw.strict !== null) {
    if (typeof raw.strict !== 'boolean')
      err(['strict'], `expected true or false, got ${describe(raw.strict)}${yaml11Boolean(raw.strict)}`, 'strict');
    else if (dialect !== 'elmapi3')
      err(['strict'], `'strict' applies to dialect elmapi3 only (it turns the real API's silent quirks into 422s)`, 'strict');
    else strict = raw.strict;
  }

  const description = raw.description === undefined || raw.description === null ? null : text('description', '');
  const tokens = readTokens(raw.tokens, parsed, file, issues);
  if (!isPublic && tokens.length === 0 && raw.tokens === undefined) {
    issues.warn(
      file,
      `the project is private (the default) and lists no token, so every request to it is refused: add 'public: true', or a token under 'tokens:' (cqa token create --project ${idIssue ? '<id>' : id} makes one)`,
      { line: 1, field: 'tokens' },
    );
  }
  return {
    id,
    name: text('name', folder),
    description,
    default_locale: defaultLocale,
    locales,
    public: isPublic,
    // Only a project that asks for another dialect carries the key: cqa models stay as they were.
    ...(dialect !== 'cqa' ? { dialect } : {}),
    ...(strict ? { strict } : {}),
    tokens,
  };
}

function readTokens(value: unknown, parsed: ParsedYaml, file: string, issues: IssueList): TokenRecord[] {
  if (value === undefined || value === null) return [];
  const err = (path: (string | number)[], message: string) =>
    issues.error(file, message, { line: parsed.lineOf(['tokens', ...path]), field: 'tokens' });
  if (!Array.isArray(value)) {
    err([], `expected a list of tokens ({ name, sha256 or token, scopes }), got ${secretKind(value)}`);
    return [];
  }
  const tokens: TokenRecord[] = [];
  value.forEach((t, i) => {
    if (!isPlainObject(t)) {
      err([i], `token ${i + 1}: expected a mapping { name, sha256 or token, scopes }, got ${secretKind(t)}`);
      return;
    }
    const label = typeof t.name === 'string' && t.name !== '' ? `token '${t.name}'` : `token ${i + 1}`;
    let ok = true;
    for (const key of Object.keys(t)) {
      if (!TOKEN_KEYS.includes(key)) {
        err([i, key], `${label}: ${unknownKey(key, TOKEN_KEYS, 'token')}`);
        ok = false;
      }
    }
    if (typeof t.name !== 'string' || t.name === '') {
      err([i], `${label}: needs a 'name' (text)`);
      ok = false;
    } else if (tokens.some((o) => o.name === t.name)) {
      err([i, 'name'], `${label}: the name is used twice`);
    }
    let sha256: string | undefined;
    if (t.sha256 !== undefined && t.token !== undefined) {
      err([i], `${label}: give either 'sha256' or 'token', not both`);
      ok = false;
    } else if (t.sha256 !== undefined) {
      if (typeof t.sha256 === 'string' && SHA256.test(t.sha256)) sha256 = t.sha256.toLowerCase();
      else
        err(
          [i, 'sha256'],
          `${label}: sha256 must be 64 hex digits (make one with 'cqa token create'), got ${secretKind(t.sha256)}; a plaintext token goes under 'token:' (for fixtures)`,
        );
    } else if (t.token !== undefined) {
      if (typeof t.token === 'string' && t.token !== '') {
        sha256 = sha256Hex(t.token);
        issues.warn(
          file,
          `${label} is written in plaintext; fine for fixtures, but for real use replace 'token:' with 'sha256: ${sha256}'`,
          {
            line: parsed.lineOf(['tokens', i, 'token']),
            field: 'tokens',
          },
        );
      } else err([i, 'token'], `${label}: token must be non-empty text, got ${secretKind(t.token)}`);
    } else {
      err([i], `${label}: needs 'sha256' (or a plaintext 'token' for fixtures)`);
    }
    let scopes: Scope[] = ['read'];
    if (t.scopes !== undefined && t.scopes !== null) {
      const list = Array.isArray(t.scopes) ? t.scopes : [t.scopes];
      scopes = [];
      list.forEach((s, j) => {
        if (typeof s === 'string' && (SCOPES as readonly string[]).includes(s)) {
          if (!scopes.includes(s as Scope)) scopes.push(s as Scope);
        } else {
          err([i, 'scopes', j], `${label}: unknown scope ${describe(s)}; scopes are ${SCOPES.join(', ')}`);
        }
      });
    }
    if (ok && sha256) {
      if (tokens.some((o) => o.sha256 === sha256)) err([i], `${label}: the same token is listed twice`);
      else tokens.push({ name: t.name as string, sha256, scopes });
    }
  });
  return tokens;
}
