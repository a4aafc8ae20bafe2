// `cqa build --host nginx`: `_nginx.conf`, the directives of a server block serving the build
// (included where the block sets `root`). Tested against Debian's nginx in
// test/hosting/hosts.slow.test.ts. No Node imports.
import {
  CORS_HEADERS,
  DOWNLOAD_HEADER,
  MEDIA_HEADERS,
  NOSNIFF,
  PREFLIGHT_HEADERS,
  prefixOf,
  type CacheControl,
  type NotFoundDocument,
  WRONG_PROJECT,
} from './policy.js';

/** `add_header` lines; `always`: on 304 and 404 too, not only on 200. */
function headers(pairs: readonly (readonly [string, string])[], indent: string): string[] {
  return pairs.map(([name, value]) => `${indent}add_header ${name} "${value}" always;`);
}

/** JSON text as nginx's `return` sends it: `$` would name a variable (JSON writes it \u0024 as well). */
const returnText = (json: string) => `'${json.replaceAll('$', '\\u0024').replace(/['\\]/g, '\\$&')}'`;

/** nginx quotes: the paths come from project and collection ids (letters, digits, `._-`), quoted all the same. */
const quoted = (s: string) => `"${s.replace(/["\\$]/g, '\\$&')}"`;

export function nginxConf(
  notFound: readonly NotFoundDocument[],
  cache: CacheControl,
  thumbs: boolean,
  downloads: readonly string[],
  v3Project?: string,
  mediaTypes: ReadonlyMap<string, string> = new Map(),
): string {
  // nosniff on every answer of these locations, 404 and 400 bodies too (found from outside: none had it).
  const api = [...CORS_HEADERS, NOSNIFF, ['Cache-Control', cache.api] as const];
  // A file's Cache-Control only on 200 and 304 (no `always`): on a 404 a CDN would keep "no such
  // file" for an hour after the file is added (found from outside).
  // The type the documents give each media extension: a `types` block here replaces mime.types,
  // whose Debian copy has no .vtt, .heic or .mjs (found from outside: application/octet-stream).
  const types = (indent: string) =>
    mediaTypes.size === 0
      ? []
      : [
          `${indent}types {`,
          ...[...mediaTypes].map(([ext, type]) => `${indent}    ${type} ${ext};`),
          `${indent}}`,
          `${indent}default_type application/octet-stream;`,
        ];
  const media = (indent: string, extra: readonly (readonly [string, string])[] = []) => [
    ...types(indent),
    ...headers([...CORS_HEADERS, ...MEDIA_HEADERS, ...extra], indent),
    `${indent}add_header Cache-Control "${cache.media}";`,
  ];
  // `exact`: a location of that path alone, answered with the rule's 404 document.
  const apiLocation = ({ from, file, query }: NotFoundDocument, exact?: string): string[] => [
    `location ${exact ? `= ${quoted(exact)}` : quoted(prefixOf(from))} {`,
    // The preflight of a cross-origin If-None-Match (nginx itself answers OPTIONS with 405).
    '    if ($request_method = OPTIONS) {',
    ...headers([...PREFLIGHT_HEADERS, NOSNIFF], '        '),
    '        return 204;',
    '    }',
    '    default_type application/json;',
    // Another project's uuid would get this one's documents (found from outside).
    ...(v3Project
      ? [`    if ($http_project_id !~ "^(${v3Project})?$") {`, `        return 404 ${returnText(WRONG_PROJECT)};`, '    }']
      : []),
    // A query would get the whole document, as if applied (found from outside: the SDK's where).
    '    if ($args != "") {',
    // add_header here replaces the location's: CORS again, and a refusal no cache keeps (as cqa preview says).
    ...headers([...CORS_HEADERS, NOSNIFF, ['Cache-Control', 'no-cache']], '        '),
    `        return 400 ${returnText(query)};`,
    '    }',
    '    gzip_static on;',
    ...headers(api, '    '),
    // The API path /api/demo/posts is the file api/demo/posts/index.json.
    '    try_files $uri/index.json =404;',
    `    error_page 404 ${quoted(`/${file}`)};`,
    '}',
    // The 404 document, only as the answer of error_page (status 404 kept); asked for by name, it is
    // a 404 too, answered with itself rather than nginx's HTML page.
    ...(exact === undefined
      ? [
          `location = ${quoted(`/${file}`)} {`,
          '    internal;',
          `    error_page 404 ${quoted(`/${file}`)};`,
          '    default_type application/json;',
          '    gzip_static on;',
          ...headers(api, '    '),
          '}',
        ]
      : []),
  ];
  // A folder is no media file: 404, not a redirect to its `/` and a 403 there (found from outside), and
  // never its index.html, inline (try_files `$uri` takes files only: the index module is not reached).
  const files = (prefix: string) => [`location ${quoted(prefix)} {`, '    try_files $uri =404;', ...media('    '), '}'];
  // `/media` itself is no file either: a 404 at once, not a redirect to `/media/` (found from outside).
  const folder = (path: string) => [
    `location = ${quoted(path)} {`,
    ...headers([...CORS_HEADERS, ...MEDIA_HEADERS], '    '),
    '    return 404;',
    '}',
  ];
  // add_header in a location replaces the outer ones: a download's location repeats them all.
  // A location is matched, never expanded: `$` stays as it is there (quoted() escapes it for values).
  const download = (path: string) => [`location = "${path.replace(/["\\]/g, '\\$&')}" {`, ...media('    ', [DOWNLOAD_HEADER]), '}'];
  const json = (path: string) => [`location = ${quoted(path)} {`, '    gzip_static on;', ...headers(api, '    '), '}'];
  return [
    '# Generated by cqa build --host nginx. Include it in the server block whose root is this folder',
    '# (the http block must include mime.types, as the nginx.conf of Debian and the nginx image do):',
    '#   server { listen 80; root /srv/dist; include /srv/dist/_nginx.conf; }',
    'charset utf-8;',
    // Without it nginx sends `application/json` with no charset: the API promises utf-8.
    'charset_types application/json;',
    // gzip on the fly; the .gz siblings of `cqa build --precompress gzip|all` only for the JSON
    // (gzip_static in its locations): a media file's .gz beside it is another file (found from outside).
    'gzip on;',
    'gzip_types application/json;',
    // Vary: Accept-Encoding, or a cache in front stores the gzip answer and gives it to everyone.
    'gzip_vary on;',
    'autoindex off;',
    // The host files and dot files are configuration, never content; so is a `_` name in the tree.
    // A site served beside the tree keeps its own `_` folders (/_astro, /_next) and /.well-known.
    'location ~ "^/(?:_nginx\\.conf|_Caddyfile|_headers|_redirects|(?:openapi|manifest)\\.json\\.(?:br|gz))$|^/(?!\\.well-known/)(?:.*/)?\\.|^/(?:api|media|thumbs)/(?:.*/)?_" {',
    '    return 404;',
    // The JSON 404 with CORS, as for any path no file has (found from outside: nginx's HTML page).
    '    error_page 404 /api/404.json;',
    '}',
    // /API/… in another case: the JSON 404 too (the files have one case; the /api locations match it alone).
    'location ~ "^/(?!api(/|$))[aA][pP][iI](/|$)" {',
    '    return 404;',
    '    error_page 404 /api/404.json;',
    '}',
    ...notFound.flatMap((r) => apiLocation(r)),
    // Exactly /api: an elmapi3 tree's project document, else the JSON 404 (not a redirect to /api/).
    ...apiLocation(notFound.at(-1) as NotFoundDocument, '/api'),
    ...json('/openapi.json'),
    ...json('/manifest.json'),
    ...files('/media/'),
    ...folder('/media'),
    ...(thumbs ? [...files('/thumbs/'), ...folder('/thumbs')] : []),
    ...downloads.flatMap(download),
    '',
  ].join('\n');
}
