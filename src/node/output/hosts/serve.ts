// `cqa build --host serve`: `serve.json` for `npx serve dist` (Vercel's serve 14, serve-handler
// 6), which reads it from the folder it serves. Its rewrites have no splat that keeps slashes, so
// there is one rule per depth of API path the build holds; directory listings are turned off (else
// `/api/demo/posts/` answers serve's own `{"files":[…]}`, which a client could take for content).
// Tested against serve 14.2.7 in test/hosting/hosts.slow.test.ts. No Node imports.
import { inlineSafe } from '../../../core/http/media-headers.js';
import { DOWNLOAD_HEADER, JSON_TYPE, MEDIA_HEADERS, mediaExtension, NOSNIFF, PREFLIGHT_HEADERS, type CacheControl } from './policy.js';

// serve answers OPTIONS like GET, with these headers: the JSON paths carry the preflight's, for the
// headers an SDK sends (found from outside: the v3 SDK's project-id failed its preflight). No
// Access-Control-Expose-Headers: ETag: serve sends no headers on a 304 (the browser's cache revalidates instead).
const CORS_HEADERS = [['Access-Control-Allow-Origin', '*']] as const;

/**
 * The pattern of a path's last segment: anything but the `index.json` a rewrite made. serve's
 * path-to-regexp 3 takes no lookahead and no nested group, so it is spelled out: shorter, longer,
 * or first different at some character.
 */
function notIndexJson(): string {
  const word = 'index.json';
  const cls = (c: string) => (c === '.' ? '[.]' : c);
  const alternatives = [`[^/]{1,${word.length - 1}}`, `[^/]{${word.length + 1},}`];
  for (let i = 0; i < word.length; i++) {
    alternatives.push(`${[...word.slice(0, i)].map(cls).join('')}[^/${word[i]}][^/]{${word.length - 1 - i}}`);
  }
  return `(${alternatives.join('|')})`;
}
const LAST_SEGMENT = notIndexJson();

const pairs = (list: readonly (readonly [string, string])[]) => list.map(([key, value]) => ({ key, value }));

/**
 * The folders serve would answer with a listing: with `renderSingle`, any folder reached as such
 * that holds more than one entry. A folder with an index.json is reached by a rewrite when its
 * name has no dot (a name with one is looked up as a file first), and a folder whose only entry
 * is index.json is answered with that file; every other folder gets a redirect to a 404.
 */
export function listedFolders(files: readonly string[]): string[] {
  const entries = new Map<string, Set<string>>([['', new Set()]]);
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      let set = entries.get(dir);
      if (!set) entries.set(dir, (set = new Set()));
      set.add(parts[i] as string);
    }
  }
  const listed: string[] = [];
  for (const [dir, names] of entries) {
    const last = dir.slice(dir.lastIndexOf('/') + 1);
    const rewritten = (dir === 'api' || dir.startsWith('api/')) && names.has('index.json') && !last.includes('.');
    const single = names.size === 1 && names.has('index.json');
    if (!rewritten && !single) listed.push(`/${dir}`);
  }
  return listed.sort();
}

/**
 * A path as a serve source that matches that path alone. serve reads a source as a path-to-regexp
 * pattern (`:name`, `(…)`, `*`, `?`, `+`) and else as a glob (`[…]`, `{…}`, `!`, `@`): a media
 * folder named `:all*` would take every media path of its project. Each such character is written
 * as a group that matches it alone, `(\x3a)`, which the glob reads as plain text.
 */
function literalSource(path: string): string {
  return path.replace(/[:()\\*?+[\]{}!@]/g, (c) => `(\\x${c.charCodeAt(0).toString(16).padStart(2, '0')})`);
}

/**
 * A path as a serve header source that matches that path alone. Header sources are minimatch
 * globs (serve-handler 6.1: minimatch 3), where `\` makes a character plain: `logo (1).svg`, as
 * browsers name a second download, is `logo \(1\).svg` (found from outside: the rule matched
 * nothing, and serve sent its own `inline`). `!` and `@` are globs only at the start or before a
 * `(`, which is escaped.
 */
function literalGlob(path: string): string {
  return path.replace(/[*?[\]{}()+\\]/g, (c) => `\\${c}`);
}

/**
 * serve refuses to start on a serve.json with more than 50 header rules or a rule source over 100
 * characters (its schema: `The configuration you provided is invalid: must NOT have more than 50
 * items`; found from outside with 60 SVG icons, a rule per file).
 */
const MAX_HEADER_RULES = 50;
const MAX_SOURCE = 100;

/** An extension as a glob of either case (`svg` → `[sS][vV][gG]`): sources match with case. */
const anyCase = (ext: string) => [...ext].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('');

/**
 * The media rules within `budget`. One per extension (a media file's type, and so whether it is a
 * download, follows from its extension: every `.svg` is one) with the type the documents give it,
 * whatever serve's own table says (found from outside: serve 14.2.7 sent .avif with no
 * Content-Type, and .yaml, .rtf, .7z as other types); then one per download of no such extension,
 * as long as its source fits. Downloads first: what does not fit keeps the sandbox only, or
 * serve's own type.
 */
function mediaRules(downloads: readonly string[], mediaTypes: ReadonlyMap<string, string>, thumbs: boolean, budget: number) {
  const top = thumbs ? '/{media,thumbs}' : '/media';
  const rule = (ext: string, type: string) => ({
    source: `${top}/**/*.${anyCase(ext)}`,
    headers: pairs([['Content-Type', type], ...(inlineSafe(type) ? [] : [DOWNLOAD_HEADER])]),
  });
  const byExt = [...mediaTypes]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([ext, type]) => ({ ext, download: !inlineSafe(type), rule: rule(ext, type) }))
    .filter((r) => r.rule.source.length <= MAX_SOURCE);
  const covered = new Set(byExt.map((r) => r.ext));
  const others = downloads
    .filter((path) => !covered.has(mediaExtension(path) ?? ''))
    .map((path) => ({ source: literalGlob(path), headers: pairs([DOWNLOAD_HEADER]) }))
    .filter((r) => r.source.length <= MAX_SOURCE);
  return [...byExt.filter((r) => r.download).map((r) => r.rule), ...others, ...byExt.filter((r) => !r.download).map((r) => r.rule)].slice(
    0,
    budget,
  );
}

/** Where a listed folder is sent: no file has this name, so serve answers its 404.html. */
const NOWHERE = '/api/404-not-found';

/**
 * Paths no file can have, sent to NOWHERE before serve looks them up: its lstat fails with a 500
 * on a NUL, a name over 255 bytes or a path over PATH_MAX. serve matches the decoded path by
 * characters, and a rule here cannot count bytes (path-to-regexp 3 takes no nested group, and
 * turns the first `*` into a group: hence `{0,}`). So what is caught: a path of 4,096 characters
 * (first, so that the other rules never scan a long path), a NUL, a name of 256 characters, or of
 * 128 in a row that take two bytes or more each, or 86 that take three (UTF-16 units: an emoji is
 * two that take four bytes together, counted in the 128 only); and under /api, /media and
 * /thumbs, a path or name longer than the build's longest there (a site served beside the tree
 * keeps its own paths).
 */
function unnamable(files: readonly string[]): string[] {
  const any = '[\\s\\S]{0,}';
  const rules = [
    '/:p([\\s\\S]{4096,})',
    `/:p(${any}\\x00${any})`,
    `/:p(${any}[^\\x2f]{256}${any})`,
    `/:p(${any}[^\\x00-\\x7f]{128}${any})`,
    // Not the surrogates: an emoji is two of them and four bytes, so 86 are 172 bytes, a name a
    // file can have (found from outside: 45 emoji in a name answered 302 to the 404). 128 of them
    // in a row are caught above.
    `/:p(${any}[\\u0800-\\ud7ff\\ue000-\\uffff]{86}${any})`,
  ];
  for (const top of ['api', 'media', 'thumbs']) {
    let path = 0;
    let name = 0;
    for (const file of files) {
      if (!file.startsWith(`${top}/`)) continue;
      const rest = file.slice(top.length + 1);
      path = Math.max(path, rest.length);
      for (const part of rest.split('/')) name = Math.max(name, part.length);
    }
    // A request is never longer than its file (`/api/x` is api/x/index.json), but for a last `/`.
    if (path > 0) rules.push(`/${top}/:p([\\s\\S]{${path + 2},})`, `/${top}/:p(${any}[^\\x2f]{${name + 1}}${any})`);
  }
  return rules;
}

/** The first segment of an API path, matched as `api` in any case and kept as written. */
const API = ':api(api)';

/** `depth`: the most segments after `/api/` of any document path of the build; `files`: every file of the build. */
export function serveJson(
  depth: number,
  cache: CacheControl,
  thumbs: boolean,
  files: readonly string[],
  downloads: readonly string[],
  /** The tree's project document is /api itself (an elmapi3 tree). */
  root = false,
  /** Each media extension of the build and the type its documents give it. */
  mediaTypes: ReadonlyMap<string, string> = new Map(),
): string {
  // serve matches sources without case: `api` is taken as it was written (`:api`), so that `/API/…`
  // looks for a file `API/…` that is not there and answers 404, as the API does.
  const rewrites = root ? [{ source: `/${API}`, destination: '/:api/index.json' }] : [];
  for (let n = 1; n <= depth; n++) {
    const params = Array.from({ length: n }, (_, i) => `:p${i}`).join('/');
    // serve applies the remaining rules to a rewritten path again: the rule one deeper must not
    // take `/api/demo/posts/index.json` for a path of its own.
    rewrites.push({ source: `/${API}/${params}${LAST_SEGMENT}`, destination: `/:api/${params}/index.json` });
  }
  // nosniff as _headers sends it (found from outside: serve's JSON answers had none).
  const json = pairs([['Content-Type', JSON_TYPE], ...PREFLIGHT_HEADERS, NOSNIFF, ['Cache-Control', cache.api]]);
  const media = pairs([...CORS_HEADERS, ...MEDIA_HEADERS, ['Cache-Control', cache.media]]);
  const headers = [
    { source: '/api/**', headers: json },
    { source: '/openapi.json', headers: json },
    { source: '/manifest.json', headers: json },
    { source: '/404.html', headers: json },
    { source: '/media/**', headers: media },
    ...(thumbs ? [{ source: '/thumbs/**', headers: media }] : []),
  ];
  const config = {
    directoryListing: false,
    // A path with a dot (`posts.query`, `project-media/hero.png`) is looked up as a file before any
    // rewrite; it is a folder, and a folder holding one file (index.json) is answered with it.
    renderSingle: true,
    cleanUrls: false,
    rewrites,
    // The 404 page is no document of the build: asked for by name, it is a 404 too.
    redirects: [
      ...unnamable(files).map((source) => ({ source, destination: NOWHERE, type: 302 })),
      ...[...listedFolders(files), '/404.html'].map((path) => ({ source: literalSource(path), destination: NOWHERE, type: 302 })),
    ],
    headers: [...headers, ...mediaRules(downloads, mediaTypes, thumbs, MAX_HEADER_RULES - headers.length)],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
