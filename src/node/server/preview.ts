// The server of `cqa preview` (and `startPreview()` of the library): serves a build output as a static host
// (Netlify, Cloudflare Pages) would — `/api/demo/posts` from `api/demo/posts/index.json`, the
// precompressed .br/.gz siblings when the build wrote them, the headers of `_headers`, and the
// 404 rules of `_redirects` (unknown API paths answer their JSON 404 document). Unlike those hosts
// it refuses a query string on an API path (400): a static host would ignore it silently and
// answer the whole document. Request paths are checked before they
// reach the file system (no `..`, no encoded slash or backslash, no NUL), and every file is checked
// again once opened: a regular file inside dist/, even through links (src/node/server/open-file.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative, resolve, sep } from 'node:path';
import { negotiateEncoding } from '../../core/http/accept.js';
import { answerClientError, boundUnanswered, closeAfterBody, refuseConnect, Unanswered } from './connect.js';
import { MAX_WAITING, MAX_WAITING_PER_CONNECTION } from '../thresholds.js';
import { openInside, ServedRoot } from './open-file.js';
import { mediaHeaders } from '../../core/http/media-headers.js';
import { sendFile } from './send-file.js';
import { shellWord } from '../printable.js';
import { CONNECTIONS_CHECK_MS } from './timeouts.js';
import { hostAllowed, hostRefusal, isLoopback } from './host-check.js';
import { mimeType } from '../content/media.js';
import { dialectOf } from '../../core/dialects/index.js';
import { queryRefused } from '../../core/snapshot/not-found.js';
import { isBuildManifest } from '../output/build-manifest.js';
import { JSON_TYPE, PREFLIGHT_HEADERS, WRONG_PROJECT } from '../output/hosts/policy.js';
import type { DialectName } from '../../core/model/model.js';

// Not imported: see start.ts (an import of node:http loads undici on Node 22+).
const { createServer } = process.getBuiltinModule('node:http');

export interface PreviewOptions {
  /** The build output directory. */
  readonly dir: string;
  /** Default 4173; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Host names a loopback preview answers besides localhost and IP addresses (DNS rebinding: docs/security.md). */
  readonly allowedHosts?: readonly string[];
}

export interface PreviewServer {
  readonly url: string;
  close(): Promise<void>;
}

interface HeaderRule {
  readonly pattern: RegExp;
  readonly headers: readonly [string, string][];
}

/** Parses a Netlify/Cloudflare `_headers` file: a path pattern line, then indented `Name: value` lines. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: { pattern: RegExp; headers: [string, string][] }[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: pathPattern(line.trim()), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    const rule = rules[rules.length - 1];
    if (rule && colon > 0) rule.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

interface NotFoundRedirect {
  readonly pattern: RegExp;
  /** The 404 document's path, e.g. `/api/404.json`. */
  readonly to: string;
}

/** The pattern of a `_headers`/`_redirects` path: `*` matches anything (the splat). */
function pathPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

/** The status-404 rules of a Netlify/Cloudflare `_redirects` file (`from  to  404`), in order. */
export function parseNotFoundRules(text: string): NotFoundRedirect[] {
  const rules: NotFoundRedirect[] = [];
  for (const line of text.split(/\r?\n/)) {
    const [from, to, status] = line.trim().split(/\s+/);
    if (from === undefined || from.startsWith('#') || to?.startsWith('/') !== true || status !== '404') continue;
    rules.push({ pattern: pathPattern(from), to });
  }
  return rules;
}

/** The dialect of each project of the build, from manifest.json (absent: cqa), and an elmapi3 tree's project uuid. */
function projectDialects(root: string): { dialects: Map<string, DialectName>; v3Project?: string } {
  const dialects = new Map<string, DialectName>();
  let v3Project: string | undefined;
  try {
    const manifest = JSON.parse(readFileSync(resolve(root, 'manifest.json'), 'utf8')) as {
      projects?: { id: string; dialect?: DialectName }[];
      elmapi3?: string;
    };
    for (const p of manifest.projects ?? []) if (p.dialect !== undefined) dialects.set(p.id, p.dialect);
    // An elmapi3 tree (cqa build --project): every API path is that project's.
    if (typeof manifest.elmapi3 === 'string') v3Project = manifest.elmapi3;
  } catch {
    // No or unreadable manifest: every project answers in the cqa dialect.
  }
  return v3Project === undefined ? { dialects } : { dialects, v3Project };
}

/** A request header's value, repeated ones joined. */
function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * The decoded path of a request, or null when it must not reach the file system: malformed
 * percent-encoding, a `.`/`..` or empty segment, an encoded `/` or `\`, a NUL byte.
 */

export function safePathname(url: string): string | null {
  const q = url.search(/[?#]/);
  const raw = q === -1 ? url : url.slice(0, q);
  if (!raw.startsWith('/') || raw.length > 8192) return null;
  const segments = raw.split('/').slice(1);
  const decoded: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as string;
    if (s === '' && i === segments.length - 1) {
      decoded.push('');
      continue;
    }
    let d: string;
    try {
      d = decodeURIComponent(s);
    } catch {
      return null;
    }
    if (d === '' || d === '.' || d === '..' || /[/\\\0]/.test(d)) return null;
    decoded.push(d);
  }
  return `/${decoded.join('/')}`;
}

/** A non-empty query string (`/api/p/posts?` alone asks nothing). */
function hasQuery(url: string): boolean {
  const q = url.indexOf('?');
  if (q === -1) return false;
  const hash = url.indexOf('#', q);
  return (hash === -1 ? url.slice(q + 1) : url.slice(q + 1, hash)) !== '';
}

/** A file that is no part of what a host publishes: its configuration (`_headers`, `_redirects`) or a dot file. */
function unpublished(rel: string): boolean {
  return rel.split('/').some((s) => s.startsWith('_') || s.startsWith('.'));
}

/**
 * The .br/.gz siblings of API documents (`index.json.gz`, `404.json.br`) are sent in place of the
 * document, never asked for by their own name. Checked on the file a path names, not on the path:
 * an entry or media id `404.json.gz` is the folder of its own document (found from outside: a 404).
 */
const asksForSibling = (rel: string) => /^(api\/(.*\/)?(index|404)|openapi|manifest)\.json\.(br|gz)$/.test(rel);

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Not Found\n');
}

/**
 * The files that may answer `pathname`, most specific first. API paths are folders with an
 * index.json (the `_redirects` rewrite); media files are served as they are.
 */
function candidates(pathname: string): string[] {
  const rel = pathname.slice(1);
  // A file has no trailing slash: `/media/p/a.svg/` is a 404, as on cqa serve and the hosts (found from outside: the file).
  if (rel.startsWith('media/') || rel.startsWith('thumbs/')) return rel.endsWith('/') ? [] : [rel];
  if (rel === '' || rel.endsWith('/')) return [`${rel}index.json`];
  return [rel, `${rel}/index.json`, `${rel}.json`];
}

export function previewHandler(dir: string): (req: IncomingMessage, res: ServerResponse) => void {
  const root = new ServedRoot(resolve(dir));
  void root.realRoot(); // pinned now: a dist/ replaced by a link later serves nothing new
  const headersPath = resolve(root.path, '_headers');
  const rules = existsSync(headersPath) ? parseHeadersFile(readFileSync(headersPath, 'utf8')) : [];
  const redirectsPath = resolve(root.path, '_redirects');
  const notFoundRules = existsSync(redirectsPath) ? parseNotFoundRules(readFileSync(redirectsPath, 'utf8')) : [];
  const { dialects, v3Project } = projectDialects(root.path);

  // The first candidate that opens as a published file inside dist, with its precompressed
  // sibling (.br, .gz) when the client accepts that coding and the sibling exists.
  const find = async (pathname: string, acceptEncoding: string | undefined) => {
    const api = !pathname.startsWith('/media/') && !pathname.startsWith('/thumbs/');
    const codings = api ? (['br', 'gzip'] as const).filter((c) => negotiateEncoding(acceptEncoding, [c]) === c) : [];
    for (const rel of candidates(pathname)) {
      if (asksForSibling(rel)) continue;
      for (const coding of [...codings, undefined]) {
        const file = await openInside(root, coding ? `${rel}.${coding === 'br' ? 'br' : 'gz'}` : rel);
        if (!file) continue;
        if (unpublished(file.real)) {
          await file.handle.close();
          continue;
        }
        return { file, rel, coding, api };
      }
    }
    return undefined;
  };

  // Headers as a host sends them: by the request path, whichever file answers it.
  const headersFor = (pathname: string, found: { rel: string; coding: string | undefined; api: boolean }) => {
    const headers: Record<string, string> = {
      'content-type': mimeType(found.rel),
      'cache-control': 'no-cache',
    };
    if (found.api) headers.vary = 'Accept-Encoding';
    if (found.coding) headers['content-encoding'] = found.coding;
    for (const rule of rules) if (rule.pattern.test(pathname)) for (const [k, v] of rule.headers) headers[k.toLowerCase()] = v;
    // Media as cqa serve sends them (sandboxed, downloads for active types), whatever _headers says.
    if (!found.api) Object.assign(headers, mediaHeaders(mimeType(found.rel)));
    return headers;
  };

  const answer = async (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    const acceptEncoding = one(req.headers['accept-encoding']);
    const found = await find(pathname, acceptEncoding);
    if (!found) return answerNotFound(req, res, pathname, acceptEncoding);
    if (res.destroyed) return void found.file.handle.close();
    sendFile(req, res, found.file, headersFor(pathname, found));
  };

  // The first `_redirects` 404 rule matching the path, answered with its document and status 404.
  const answerNotFound = async (req: IncomingMessage, res: ServerResponse, pathname: string, acceptEncoding: string | undefined) => {
    const rule = notFoundRules.find((r) => r.pattern.test(pathname));
    const found = rule && (await find(rule.to, acceptEncoding));
    if (!found) return notFound(res);
    let body: Buffer;
    try {
      body = await found.file.handle.readFile();
    } finally {
      await found.file.handle.close();
    }
    if (res.destroyed) return;
    res.writeHead(404, { ...headersFor(pathname, found), 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  // A query string on an API path: 400 in the project's dialect (queryRefused()).
  const refuseQuery = (res: ServerResponse, pathname: string) => {
    const project = pathname.split('/')[2] ?? '';
    const dialect = dialectOf({ dialect: v3Project !== undefined ? 'elmapi3' : dialects.get(project) });
    const e = queryRefused(dialect);
    const body = Buffer.from(e.body);
    res.writeHead(400, { 'content-type': e.contentType, 'content-length': String(body.length), 'cache-control': 'no-cache' });
    res.end(body);
  };

  return (req, res) => {
    closeAfterBody(req, res);
    // Every answer, 400/404/405 included, can be read by a page of another origin: else a
    // cross-origin page sees a CORS failure instead of the problem that says what to change.
    res.setHeader('access-control-allow-origin', '*');
    // And none is read as another type than it says (found from outside: the text 404/405 and the 400 were not).
    res.setHeader('x-content-type-options', 'nosniff');
    if (req.method === 'OPTIONS') {
      // The preflight of a cross-origin If-None-Match (or any header a client adds).
      res.writeHead(204, Object.fromEntries(PREFLIGHT_HEADERS));
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed\n');
      return;
    }
    const pathname = safePathname(req.url ?? '/');
    if (pathname === null) return notFound(res);
    // Never published, answered as a path no file has (the JSON 404 under /api/, found from outside).
    const hidden = unpublished(pathname.slice(1));
    const api = !hidden && (pathname === '/api' || pathname.startsWith('/api/'));
    // An elmapi3 tree: a project-id header naming another project gets v3's 404 (none or empty: served, as nginx can only).
    const projectId = one(req.headers['project-id']);
    if (api && v3Project !== undefined && projectId && projectId !== v3Project) {
      res.writeHead(404, { 'content-type': JSON_TYPE, 'cache-control': 'no-cache' });
      res.end(req.method === 'HEAD' ? undefined : WRONG_PROJECT);
      return;
    }
    if (api && hasQuery(req.url ?? '/')) return refuseQuery(res, pathname);
    (hidden ? answerNotFound(req, res, pathname, one(req.headers['accept-encoding'])) : answer(req, res, pathname)).catch(() => {
      if (!res.headersSent) notFound(res);
      else res.destroy();
    });
  };
}

/** The folder given is not the output of `cqa build` (the command exits 2 with this message). */
export class NotABuildError extends Error {
  override name = 'NotABuildError';
}

/**
 * What to run instead, as commands that work when pasted: a content folder is built beside itself
 * (an output inside the content is refused), and ./content into the folder if it is empty, or else
 * beside it (a build replaces only a folder it wrote).
 */
function buildFirst(given: string, dir: string): string {
  const projects = projectFiles(dir);
  const content = projects.length > 0;
  const source = content ? shellWord(given) : existsSync('content') ? 'content' : '<content folder>';
  const out = !content && isEmptyFolder(dir) ? shellWord(given) : shellWord(besides(dir));
  // A build refuses projects that need a token unless told (found from outside: the sample's did).
  const tokens = (content ? projects : projectFiles(resolve('content'))).some(
    (file) => !/^public:[ \t]*true[ \t]*(#.*)?$/m.test(readFileSync(file, 'utf8')),
  );
  const build = `\`cqa build ${source} --out ${out}${tokens ? ' --include-private' : ''}\``;
  const why = tokens ? ' (--include-private: the projects that need a token are published there; for a local preview)' : '';
  return content
    ? `it looks like a content folder: run ${build}, then \`cqa preview ${out}\`${why}`
    : `run ${build} first, then \`cqa preview ${out}\`${why}`;
}

/** The project.yaml of each project folder under `dir` (what `cqa build` takes): none, for no content folder. */
function projectFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(dir, d.name, 'project.yaml'))
      .filter((file) => existsSync(file));
  } catch {
    return [];
  }
}

/** ./dist, or `<dir>-dist` where ./dist is `dir` or inside it, or holds what no build wrote (a build would refuse it). */
function besides(dir: string): string {
  const dist = resolve('dist');
  const taken = existsSync(dist) && !isEmptyFolder(dist) && !isBuildManifest(join(dist, 'manifest.json'));
  return dist === dir || dist.startsWith(dir + sep) || taken ? relative('.', `${dir}-dist`) : 'dist';
}

function isEmptyFolder(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}

/** Starts the preview server; `port: 0` picks a free port (the real one is in `url`). */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const dir = resolve(options.dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new NotABuildError(`${options.dir} is not a directory; run cqa build first`);
  // Any other folder (the content itself, a project's source) would be served as if it were a build.
  const manifest = resolve(dir, 'manifest.json');
  if (!existsSync(manifest)) {
    throw new NotABuildError(`${options.dir} has no manifest.json, so it is not the output of cqa build: ${buildFirst(options.dir, dir)}`);
  }
  // A web app's public/ has a manifest.json of its own (found from outside: it was served).
  if (!isBuildManifest(manifest)) {
    throw new NotABuildError(
      `${options.dir}: its manifest.json is not one cqa build wrote (a web app's manifest?), so it is not the output of cqa build: ${buildFirst(options.dir, dir)}`,
    );
  }
  const host = options.host ?? '127.0.0.1';
  // As in cqa serve: Node enforces the timeouts below only when it checks (timeouts.ts).
  // Requests read and not answered yet are bounded, as in cqa serve (connect.ts, thresholds.ts).
  const handler = boundUnanswered(
    previewHandler(dir),
    (req, res, why) => {
      closeAfterBody(req, res);
      const body = `Service Unavailable: ${why}\n`;
      res.writeHead(503, {
        'content-type': 'text/plain; charset=utf-8',
        'x-content-type-options': 'nosniff',
        'access-control-allow-origin': '*',
        'retry-after': '1',
        'content-length': Buffer.byteLength(body),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
    new Unanswered(MAX_WAITING_PER_CONNECTION, MAX_WAITING),
  );
  const allowed = options.allowedHosts ?? [];
  // DNS rebinding: a loopback preview answers only requests for a loopback name or an address (host-check.ts).
  const checked = (req: IncomingMessage, res: ServerResponse): void => {
    const named = req.headers.host;
    if (named === undefined || hostAllowed(named, allowed)) {
      handler(req, res);
      return;
    }
    closeAfterBody(req, res);
    const body = `Forbidden: ${hostRefusal(named, host, 'run cqa preview with --allowed-host NAME')}\n`;
    res.writeHead(403, {
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'content-length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECK_MS }, isLoopback(host) ? checked : handler);
  server.on(
    'connect',
    refuseConnect(() => ({
      status: 405,
      headers: {
        allow: 'GET, HEAD',
        'content-type': 'text/plain; charset=utf-8',
        'x-content-type-options': 'nosniff',
        'access-control-allow-origin': '*',
      },
      body: 'Method Not Allowed\n',
    })),
  );
  server.on('clientError', answerClientError);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 4173, host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
