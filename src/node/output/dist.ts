// Snapshot → static files (`cqa build`): every document as `P/index.json` (with .gz/.br siblings
// when asked: `precompress`),
// each collection's `<slug>.query/index.json` (for the static client), the media files,
// openapi.json, manifest.json, the 404 documents (not-found.ts), and the configuration of the static
// host it is built for (`host`: _headers/_redirects, or _nginx.conf, _Caddyfile, serve.json; hosts/).
// The tree is written into a sibling temp dir and swapped in at the end (dist-swap.ts), so a failed
// or killed build leaves the previous output; the same snapshot always gives a byte-identical tree.
import { mkdirSync, promises as fsp, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { MANIFEST, readBuildManifest, treeChange, treeRecord } from './build-manifest.js';
import { writeLargeDocument } from './dist-large.js';
import { makeFolders } from '../make-folders.js';
import { PARALLEL_DOCUMENTS, STREAM_DOCUMENT_CHARS } from '../thresholds.js';
import { workerScript } from '../content/worker-script.js';
import { brotliOptions, GZIP_LEVEL, PRECOMPRESS_CHOICES, siblingsOf, type Precompress, type Siblings } from './dist-compression.js';
import { DistPool } from './dist-pool.js';
import { newSuffix, recoverOutput, siblingName, swapIn } from './dist-swap.js';
import { documentPieces } from '../../core/snapshot/document-pieces.js';
import { pagesNotFoundMedia } from './hosts/cloudflare.js';
import { HOST_CHOICES, hostFiles, readsHeadersFile, takesNotFoundRules, type Host } from './hosts/index.js';
import { DEFAULT_CACHE_CONTROL, mediaExtension, type CacheControl } from './hosts/policy.js';
import { notFoundRules, queryRefused, type NotFoundRule } from '../../core/snapshot/not-found.js';
import { MEDIA_SEGMENT } from '../../core/snapshot/create.js';
import { collectionQueryJson } from '../../core/snapshot/serialize.js';
import { makeThumbnail, ThumbnailRefused } from './thumbnail.js';
import { whyNoThumbnail } from './thumbnail-check.js';
import { copyMedia, readMediaImage, type MediaSource } from './media-source.js';
import { mediaRoot } from '../../core/http/media-root.js';
import type { ProjectSnapshot, Snapshot } from '../../core/model/types.js';
import { elmapi3NotFound, elmapi3StaticDocument, elmapi3StaticPaths } from '../../core/http/elmapi3/static.js';
import type { MediaRecord } from '../../core/model/model.js';
import { inlineSafe, MEDIA_CSP } from '../../core/http/media-headers.js';
import { elmapi3 } from '../../core/dialects/index.js';

export interface WriteDistOptions {
  /** The output directory; replaced as a whole when the new tree is complete. */
  readonly out: string;
  /** Called after each written file (done ≤ total). */
  readonly onProgress?: (done: number, total: number) => void;
  /** Brotli quality 0–11 for every .br sibling; default 6, and 5 for documents over 1 MiB. With `precompress` only. */
  readonly brotliQuality?: number;
  /**
   * Precompressed siblings of every JSON document: `none` (default; Netlify and Cloudflare Pages
   * compress by themselves and count files), `gzip` (.gz), `br` (.br) or `all` (both).
   */
  readonly precompress?: Precompress;
  /** The host's own configuration files to write too (hosts/index.ts); default `netlify`: `_headers` and `_redirects` only. */
  readonly host?: Host;
  /** Cache-Control of API documents and of media, in `_headers` and the host files (default hosts/policy.ts). */
  readonly cacheControl?: Partial<CacheControl>;
}

export interface DistResult {
  /** Files written, siblings and media included. */
  readonly files: number;
  /** Their total size in bytes. */
  readonly bytes: number;
}

/** A build that cannot be written (unsafe path, colliding names, refused output directory). */
export class DistError extends Error {
  override readonly name = 'DistError';
}

/** Documents being compressed at once (libuv's pool has 4 threads; a few more keep it busy). */
const COMPRESS_IN_FLIGHT = 16;
const COPY_CONCURRENCY = 8;
/** Thumbnails being made at once (each one keeps a decoded image in memory). */
const THUMB_CONCURRENCY = 4;
/** Documents per batch sent to a worker (dist-pool.ts), or fewer when they reach BATCH_CHARS. */
const BATCH_DOCUMENTS = 256;
const BATCH_CHARS = 2 ** 20;
/** What the documents written in this thread hold at once before they are written. */
const HELD_CHARS = 64 * 2 ** 20;
// A function, not a constant: resolving it at import time breaks bundles for runtimes where
// import.meta.url is not a file URL (importing the main entry must evaluate no Node-only code).
const distWorker = () => workerScript('./dist-worker.js', import.meta.url);

const gzipAsync = promisify(zlib.gzip);
const brotliAsync = promisify(zlib.brotliCompress);

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

// ---------------------------------------------------------------------------------------------
// The plan: every file of the tree, decided before anything is written.

type FileJob =
  | { readonly kind: 'json'; readonly rel: string; readonly text: string }
  /** An API document, made when it is written (a million of them would not all fit in memory). */
  | { readonly kind: 'document'; readonly rel: string; readonly path: string }
  | { readonly kind: 'text'; readonly rel: string; readonly text: string }
  | { readonly kind: 'copy'; readonly rel: string; readonly source: MediaSource }
  /** A media item's thumbnail, made from its file (thumbs.ts, thumbnail.ts). */
  | { readonly kind: 'thumb'; readonly rel: string; readonly source: MediaSource; readonly media: string };

type DocumentJob = Extract<FileJob, { kind: 'json' | 'document' }>;

/** A document longer than STREAM_DOCUMENT_CHARS, streamed from its pieces. */
interface Large {
  readonly rel: string;
  readonly pieces: readonly string[];
}

/**
 * What makes each document's text when it is written: the snapshot's pieces, or an elmapi3
 * project's answer at that path. Each elmapi3 entry's document embeds the entries it relates to
 * (up to a bound per answer): a web of relations multiplies the tree by its entries (250 small
 * files made 3.2 GB), so their sum is bounded too.
 */
function documentMaker(snapshot: Snapshot): (job: DocumentJob) => readonly string[] {
  const v3 = elmapi3Project(snapshot);
  const origin = v3Origin(snapshot.baseUrl);
  let chars = 0;
  return (job) => {
    if (job.kind === 'json') return [job.text];
    if (!v3) {
      const pieces = documentPieces(snapshot, job.path);
      if (pieces === undefined) throw new DistError(`no document for ${job.path}`);
      return pieces;
    }
    const text = elmapi3StaticDocument(v3, job.path, origin);
    chars += text.length;
    if (chars > V3_TREE_CHARS)
      throw new DistError(
        `the elmapi3 tree would hold more than ${V3_TREE_CHARS / 1024 / 1024} Mi characters of documents, because each entry's document embeds the entries it relates to; relate fewer entries to each other, or serve the project with cqa serve (one answer at a time)`,
      );
    return [text];
  };
}

/** The document as one string, or undefined when it is longer than STREAM_DOCUMENT_CHARS (streamed instead). */
function joined(pieces: readonly string[]): string | undefined {
  let length = 0;
  for (const p of pieces) length += p.length;
  if (length > STREAM_DOCUMENT_CHARS) return undefined;
  return pieces.length === 1 ? pieces[0] : pieces.join('');
}

/** Rejects a relative path that could leave the output directory or is not portable. */
export function checkRelativePath(rel: string): void {
  const segments = rel.split('/');
  for (const s of segments) {
    if (s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('\0')) {
      throw new DistError(`unsafe path in build output: ${JSON.stringify(rel)}`);
    }
  }
}

/** The document file of an API path: '/api/demo/posts' → 'api/demo/posts/index.json' ('/api': an elmapi3 tree's project). */
export function documentFile(path: string): string {
  if (path === '/api') return 'api/index.json';
  if (!path.startsWith('/api/')) throw new DistError(`not an API path: ${JSON.stringify(path)}`);
  return `${path.slice(1)}/index.json`;
}

function packageVersion(): string {
  try {
    // src/node/output/dist.ts and lib/node/output/dist.js are both three levels below package.json.
    return (createRequire(import.meta.url)('../../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** version, snapshot hash, published counts (and each project's dialect when not cqa): no timestamps, so the file is deterministic. */
export function manifestJson(snapshot: Snapshot, documents: number, elmapi3?: string): string {
  const projects = treeProjects(snapshot).map((p) => ({
    id: p.record.id,
    // Only when not the default, for `cqa preview` to answer errors in the project's shape.
    ...(p.record.dialect !== undefined && p.record.dialect !== 'cqa' ? { dialect: p.record.dialect } : {}),
    collections: [...p.collections.values()].map((c) => ({ slug: c.record.slug, count: c.publishedCount })),
    media: p.media.length,
  }));
  const manifest = {
    name: 'content-query-api',
    version: packageVersion(),
    snapshot: snapshot.hash,
    base_url: snapshot.baseUrl,
    documents,
    projects,
    // An elmapi3 tree: this project's documents are at the v3 paths (/api, /api/<slug>, …).
    ...(elmapi3 !== undefined ? { elmapi3 } : {}),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * Netlify / Cloudflare Pages `_headers`: JSON content type, open CORS and Cache-Control for the
 * public API; media and thumbnails sandboxed (media-headers.ts), and each media file of an active
 * type (HTML, SVG …) a download by its exact path — as many as fit in Cloudflare's 100 rules; the
 * sandbox covers the rest.
 */
export function headersFile(
  thumbs = false,
  downloads: readonly string[] = [],
  cache: CacheControl = DEFAULT_CACHE_CONTROL,
  /** An elmapi3 tree, whose project document is /api itself: `/api/*` does not match `/api`. */
  root = false,
): string {
  const files = [
    '  Access-Control-Allow-Origin: *',
    '  X-Content-Type-Options: nosniff',
    `  Content-Security-Policy: ${MEDIA_CSP}`,
    `  Cache-Control: ${cache.media}`,
  ];
  const json = [
    `  Content-Type: ${JSON_CONTENT_TYPE}`,
    '  Access-Control-Allow-Origin: *',
    '  X-Content-Type-Options: nosniff',
    `  Cache-Control: ${cache.api}`,
  ];
  return [
    '# Generated by cqa build: response headers for static hosts (Netlify, Cloudflare Pages).',
    ...(root ? ['/api', ...json] : []),
    '/api/*',
    ...json,
    '/openapi.json',
    ...json,
    '/manifest.json',
    ...json,
    '/media/*',
    ...files,
    ...(thumbs ? ['/thumbs/*', ...files] : []),
    ...downloadRules(downloads).flatMap((path) => [path, '  Content-Disposition: attachment']),
    '',
  ].join('\n');
}

/**
 * Cloudflare Pages answers `/x/page.html` with a 308 to `/x/page`, and serves the file there: the
 * rule must name that path too, or the HTML opens inline (found from outside, in wrangler pages dev).
 * A folder's `index.html` is served at the folder (`/x/idx/`) by Pages and Netlify, and by Netlify
 * maybe at `/x/idx` too (not measured here): the rule names both.
 */
function withPrettyPath(path: string): string[] {
  if (!path.endsWith('.html')) return [path];
  if (path.endsWith('/index.html')) {
    const folder = path.slice(0, -'index.html'.length);
    return folder.endsWith('/media/') ? [path] : [path, folder, folder.slice(0, -1)];
  }
  const pretty = path.slice(0, -'.html'.length);
  return pretty.endsWith('/media/') ? [path] : [path, pretty];
}

/** Cloudflare Pages reads at most 100 `_headers` rules; 5 are the ones above. */
const MAX_DOWNLOAD_RULES = 90;

/** The download rules' paths, as many files as fit, a file's paths never split (the sandbox covers the rest). */
function downloadRules(downloads: readonly string[]): string[] {
  const rules: string[] = [];
  for (const path of downloads.filter(fitsRuleLine)) {
    const paths = withPrettyPath(path);
    if (rules.length + paths.length > MAX_DOWNLOAD_RULES) break;
    rules.push(...paths);
  }
  return rules;
}

/** The path of a media file a browser could open as a document, or undefined (an inline-safe type). */
function downloadPath(projectId: string, m: MediaRecord): string | undefined {
  return inlineSafe(m.mime_type) ? undefined : `/media/${projectId}/${m.id}`;
}

/** A `_headers` rule line is split on whitespace and `*` is a splat: such names keep only the sandbox there. */
const fitsRuleLine = (path: string) => !/[\s*#]|[\u0000-\u001f\u007f]/.test(path);

/**
 * Netlify / Cloudflare Pages `_redirects`: `/api/demo/posts` is served from its index.json; an
 * API path with no index.json falls through to the first matching 404 rule (most specific first).
 */
export function redirectsFile(notFound: readonly Pick<NotFoundRule, 'from' | 'file'>[] = [], root = false): string {
  return [
    '# Generated by cqa build: serve every API path from its index.json (a rewrite, status 200),',
    notFound.length > 0
      ? '# and unknown API paths from a JSON 404 document (status 404).'
      : '# unknown API paths answer the nearest 404.html, a JSON 404 document (Cloudflare Pages takes no 404 rule here).',
    // An elmapi3 tree's project document is /api itself (the SDK asks /api/).
    ...(root ? ['/api  /api/index.json  200', '/api/  /api/index.json  200'] : []),
    '/api/*  /api/:splat/index.json  200',
    ...notFound.map((r) => `${r.from}  /${r.file}  404`),
    '',
  ].join('\n');
}

/**
 * The one elmapi3 project of the snapshot when it is the only project (built at the v3 paths), or
 * undefined. A static host cannot read the project-id header that tells such projects apart, so
 * beside other projects an elmapi3 project is left out of the tree (`cqa build --project` builds it
 * alone; src/node/output/build-output.ts says so).
 */
function elmapi3Project(snapshot: Snapshot): ProjectSnapshot | undefined {
  const only = snapshot.projects.size === 1 ? [...snapshot.projects.values()][0] : undefined;
  return only?.record.dialect === 'elmapi3' ? only : undefined;
}

/** The projects a tree holds: all but elmapi3 ones, unless one is alone. */
function treeProjects(snapshot: Snapshot): ProjectSnapshot[] {
  const all = [...snapshot.projects.values()];
  return elmapi3Project(snapshot) ? all : all.filter((p) => p.record.dialect !== 'elmapi3');
}

/** `--base-url` as the origin of an elmapi3 tree's absolute URLs (asset urls, page links): an http(s) URL, else '' (root-relative). */
function v3Origin(baseUrl: string): string {
  return /^https?:\/\//i.test(baseUrl) ? baseUrl.replace(/\/+$/, '') : '';
}

/** What an elmapi3 project's static documents may hold together (a bound of the output's size). */
const V3_TREE_CHARS = 512 * 1024 * 1024;

function planFiles(snapshot: Snapshot, host: Host, cache: CacheControl): FileJob[] {
  const jobs: FileJob[] = [];
  const downloads: string[] = [];
  // The type each media extension has in the documents (mime_type, by extension: media.ts), for the
  // host files, whose server's own table may differ (found from outside: Debian's nginx sent .vtt,
  // .heic and .mjs as application/octet-stream where the document says text/vtt, image/heic…).
  const mediaTypes = new Map<string, string>();
  const v3 = elmapi3Project(snapshot);
  const inTree = new Set(treeProjects(snapshot).map((p) => p.record.id));
  const paths = v3
    ? elmapi3StaticPaths(v3)
    : inTree.size === snapshot.projects.size
      ? snapshot.paths
      : snapshot.paths.filter((path) => inTree.has(path.split('/')[2] as string));
  for (const path of paths) jobs.push({ kind: 'document', rel: documentFile(path), path });
  for (const p of treeProjects(snapshot)) {
    for (const m of p.media) {
      const source = { root: mediaRoot(m.record), id: m.record.id };
      jobs.push({ kind: 'copy', rel: `media/${p.record.id}/${m.record.id}`, source });
      const download = downloadPath(p.record.id, m.record);
      if (download) downloads.push(download);
      const ext = mediaExtension(m.record.id);
      if (ext !== undefined && /^[a-z0-9][\w.+-]*\/[\w.+-]+$/i.test(m.record.mime_type)) mediaTypes.set(ext, m.record.mime_type);
      if (m.thumb) jobs.push({ kind: 'thumb', rel: `thumbs/${p.record.id}/${m.record.id}`, source, media: m.record.id });
    }
    // The static client's indexes: cqa projects only (it reads no other dialect).
    if (v3) continue;
    for (const c of p.collections.values()) {
      jobs.push({ kind: 'json', rel: documentFile(`/api/${p.record.id}/${c.record.slug}.query`), text: collectionQueryJson(c) });
    }
  }
  // A static host checks no token: openapi.json describes exactly the projects whose documents
  // the tree holds (anyone can read those), not snapshot.openapi (public projects, for the server).
  const described = v3 ? new Set([v3.record.id]) : new Set(paths.map((path) => path.split('/')[2] as string));
  const documents = paths.length;
  jobs.push({ kind: 'json', rel: 'openapi.json', text: snapshot.openapiOf(described) });
  jobs.push({ kind: 'json', rel: MANIFEST, text: manifestJson(snapshot, documents + 2, v3?.record.id) });
  const notFound: NotFoundRule[] = v3
    ? elmapi3NotFound(v3).map((r) => ({
        from: r.from,
        file: r.name ? `api/${r.name}/404.json` : 'api/404.json',
        text: r.text,
        query: queryRefused(elmapi3).body,
      }))
    : notFoundRules(snapshot, described);
  // serve answers every missing file with the root 404.html (hosts/serve.ts): a 404 document there would only be a file it serves by name.
  if (host !== 'serve') for (const r of notFound) jobs.push({ kind: 'json', rel: r.file, text: r.text });
  const thumbs = jobs.some((j) => j.kind === 'thumb');
  if (readsHeadersFile(host)) {
    jobs.push({ kind: 'text', rel: '_headers', text: headersFile(thumbs, downloads, cache, v3 !== undefined) });
    jobs.push({ kind: 'text', rel: '_redirects', text: redirectsFile(takesNotFoundRules(host) ? notFound : [], v3 !== undefined) });
  }
  const depth = paths.reduce((most, p) => Math.max(most, p.split('/').length - 2), 1);
  const files = jobs.map((j) => j.rel);
  for (const f of hostFiles(host, { notFound, cache, thumbs, depth, files, downloads, mediaTypes, v3Project: v3?.record.id }))
    jobs.push({ kind: 'text', ...f });
  return jobs;
}

/** Every file name the job produces (.gz/.br siblings included). */
function outputNames(job: FileJob, siblings: Siblings): string[] {
  if (job.kind !== 'json' && job.kind !== 'document') return [job.rel];
  return [job.rel, ...(siblings.gzip ? [`${job.rel}.gz`] : []), ...(siblings.br ? [`${job.rel}.br`] : [])];
}

/**
 * Checks every path and that no file is also needed as a directory (an entry id 'index.json'
 * would need `posts/index.json/` beside the list's `posts/index.json`). Returns the directories
 * to create, parents first.
 */
function checkPlan(jobs: readonly FileJob[], siblings: Siblings, snapshot: Snapshot): string[] {
  const files = new Set<string>();
  const dirs = new Set<string>();
  for (const job of jobs) {
    for (const name of outputNames(job, siblings)) {
      checkRelativePath(name);
      if (files.has(name)) throw new DistError(`two documents would be written to ${name}`);
      files.add(name);
      for (let i = name.indexOf('/'); i !== -1; i = name.indexOf('/', i + 1)) dirs.add(name.slice(0, i));
    }
  }
  for (const d of dirs) {
    if (files.has(d)) {
      const makers = jobs.flatMap((j) => (j.rel.startsWith(`${d}/`) ? (madeBy(snapshot, j) ?? []) : []));
      const which =
        makers.length > 0
          ? `, made a folder by ${[...new Set(makers)].join(', ')}: rename it or give it another id`
          : ': rename the entry or media file whose id makes that path';
      throw new DistError(`'${d}' is needed both as a file and as a directory${which}`);
    }
  }
  return [...dirs].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Why `cqa build` would refuse to write this snapshot's tree (two ids making one path, a path
 * needed as a file and as a folder), or undefined: for `cqa check`, which validates without
 * building (found from outside: check passed what build then refused).
 */
export function treeProblem(snapshot: Snapshot, precompress: Precompress = 'none'): string | undefined {
  try {
    checkPlan(planFiles(snapshot, 'netlify', DEFAULT_CACHE_CONTROL), siblingsOf(precompress), snapshot);
    return undefined;
  } catch (err) {
    if (err instanceof DistError) return err.message;
    throw err;
  }
}

/** Cloudflare Pages would answer missing files with a media file (hosts/cloudflare.ts): refused. */
function refusePagesNotFoundMedia(snapshot: Snapshot): void {
  const problem = pagesNotFoundMedia(treeProjects(snapshot));
  if (problem !== undefined) throw new DistError(problem);
}

/** What puts `job` where it is, for a message: an entry's file, or a media item. */
function madeBy(snapshot: Snapshot, job: FileJob): string | undefined {
  if (job.kind === 'copy') return `the media file '${job.source.id}'`;
  if (job.kind !== 'document') return undefined;
  const [, , projectId, collection, ...rest] = job.path.split('/');
  const project = snapshot.projects.get(projectId ?? '');
  if (collection === MEDIA_SEGMENT) {
    const id = rest.join('/');
    return project?.media.some((m) => m.record.id === id) ? `the media file '${id}'` : undefined;
  }
  const entry = project?.collections.get(collection ?? '')?.byId.get(rest[0] ?? '');
  return entry ? `the entry ${entry.record.file}` : undefined;
}

const parentOf = (rel: string) => rel.slice(0, Math.max(0, rel.lastIndexOf('/')));

/** The folders of `dirs` that hold one document of `jobs` and nothing else (no other file, no folder). */
function ownFolders(dirs: readonly string[], jobs: readonly FileJob[]): Set<string> {
  const parents = new Set(dirs.map(parentOf));
  const files = new Map<string, number>();
  for (const j of jobs) {
    const d = parentOf(j.rel);
    files.set(d, (files.get(d) ?? 0) + 1);
  }
  const own = new Set<string>();
  for (const j of jobs) {
    const d = parentOf(j.rel);
    if ((j.kind === 'document' || j.kind === 'json') && d !== '' && files.get(d) === 1 && !parents.has(d)) own.add(d);
  }
  return own;
}

function depth(rel: string): number {
  let n = 0;
  for (let i = rel.indexOf('/'); i !== -1; i = rel.indexOf('/', i + 1)) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Writing.
//
// Measured on 10,000 entries (≈30,000 files): creating many small files is syscall-bound, and
// plain synchronous open/write/close beats promise-based fs with any concurrency (no thread-pool
// hop per call). Small trees are written by this thread while gzip/brotli run on libuv's thread
// pool, largest document first; from PARALLEL_DOCUMENTS on, one worker thread per core writes and
// compresses its share synchronously (dist-worker.ts; what it buys: docs/benchmarks.md).

/** Runs `task` over `items` with at most `limit` in flight; the first failure rejects (after the others settle). */
export async function eachLimit<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const workers = Array.from({ length: Math.min(limit, items.length) }, worker);
  const results = await Promise.allSettled(workers);
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
}

/** The siblings of one document, in a fixed order: .gz, then .br. */
function compress(buf: Buffer, quality: number | undefined, siblings: Siblings): Promise<[string, Buffer][]> {
  return Promise.all([
    ...(siblings.gzip ? [gzipAsync(buf, { level: GZIP_LEVEL }).then((gz): [string, Buffer] => ['gz', gz])] : []),
    ...(siblings.br ? [brotliAsync(buf, brotliOptions(buf.length, quality)).then((br): [string, Buffer] => ['br', br])] : []),
  ]);
}

class TreeWriter {
  files = 0;
  bytes = 0;
  /** Folders made by whoever writes the one document they hold (see mkdirs). */
  private ownFolders: ReadonlySet<string> = new Set();

  constructor(
    private readonly root: string,
    private readonly total: number,
    private readonly quality: number | undefined,
    readonly siblings: Siblings,
    private readonly onProgress?: (done: number, total: number) => void,
  ) {}

  /** The absolute target of `rel`, which must stay under the root (defence in depth). */
  target(rel: string): string {
    const abs = resolve(this.root, rel);
    if (!abs.startsWith(this.root + sep)) throw new DistError(`refusing to write outside the output directory: ${rel}`);
    return abs;
  }

  /**
   * Creates the directories, parents first — but a folder that holds one document and nothing
   * else (an entry's) is made where that document is written, on the dist workers for a large
   * tree: 10,000 mkdir calls are ~100 ms of this thread (docs/benchmarks.md).
   */
  mkdirs(dirs: readonly string[], jobs: readonly FileJob[]): void {
    this.ownFolders = ownFolders(dirs, jobs);
    for (const d of dirs) if (!this.ownFolders.has(d)) mkdirSync(this.target(d));
  }

  /** Whether the document `rel` makes its folder (see mkdirs). */
  private makesFolder(rel: string): boolean {
    return this.ownFolders.size > 0 && this.ownFolders.has(parentOf(rel));
  }

  private write(rel: string, data: Buffer | string, makeFolder = false): void {
    const abs = this.target(rel);
    if (makeFolder) mkdirSync(dirname(abs));
    writeFileSync(abs, data);
    this.count(typeof data === 'string' ? Buffer.byteLength(data) : data.length);
  }

  private count(size: number): void {
    this.files++;
    this.bytes += size;
    this.onProgress?.(this.files, this.total);
  }

  /** Adds what a worker reports (a batch's files and bytes) to the counts. */
  private progress(files: number, bytes: number): void {
    this.files += files;
    this.bytes += bytes;
    this.onProgress?.(this.files, this.total);
  }

  /**
   * JSON documents with their .gz/.br siblings (if any): in worker threads for large trees. Each
   * is made from its pieces when it is written; one longer than STREAM_DOCUMENT_CHARS is streamed instead.
   */
  async documents(jobs: readonly DocumentJob[], piecesOf: (job: DocumentJob) => readonly string[]): Promise<void> {
    const threads = Math.min(availableParallelism(), 4);
    if (jobs.length >= PARALLEL_DOCUMENTS && threads > 1) {
      return this.documentsInWorkers(jobs, piecesOf, threads);
    }
    // Written as they are made, a batch at a time: an elmapi3 tree's few documents can be large.
    let texts: { rel: string; text: string }[] = [];
    let size = 0;
    const large: Large[] = [];
    for (const job of jobs) {
      const pieces = piecesOf(job);
      const text = joined(pieces);
      if (text === undefined) {
        large.push({ rel: job.rel, pieces });
        continue;
      }
      texts.push({ rel: job.rel, text });
      size += text.length;
      if (size >= HELD_CHARS) {
        await this.documentsHere(texts);
        texts = [];
        size = 0;
      }
    }
    await this.documentsHere(texts);
    for (const doc of large) await this.large(doc);
  }

  /** Batches of documents, made as the workers take them (dist-pool.ts); the long ones streamed here meanwhile. */
  private async documentsInWorkers(
    jobs: readonly DocumentJob[],
    piecesOf: (job: DocumentJob) => readonly string[],
    threads: number,
  ): Promise<void> {
    const data = { root: this.root, quality: this.quality, siblings: this.siblings };
    const pool = new DistPool(
      distWorker(),
      threads,
      data,
      (m) => this.progress(m.files, m.bytes),
      (code) => new DistError(`writing documents failed (worker exit code ${code})`),
    );
    try {
      const large: Large[] = [];
      let batch: { rel: string; text: string; folder?: true }[] = [];
      let size = 0;
      for (const job of jobs) {
        const pieces = piecesOf(job);
        const text = joined(pieces);
        if (text === undefined) {
          large.push({ rel: job.rel, pieces }); // after the batches: the workers write those meanwhile
          continue;
        }
        batch.push(this.makesFolder(job.rel) ? { rel: job.rel, text, folder: true } : { rel: job.rel, text });
        size += text.length;
        if (batch.length >= BATCH_DOCUMENTS || size >= BATCH_CHARS) {
          await pool.send(batch);
          batch = [];
          size = 0;
        }
      }
      if (batch.length > 0) await pool.send(batch);
      for (const doc of large) await this.large(doc);
    } catch (err) {
      // Every worker has stopped writing before this returns (the temp dir may go).
      await pool.terminate();
      throw err;
    }
    await pool.close();
  }

  /** A document too long for one string, streamed from its pieces (dist-large.ts). */
  private async large({ rel, pieces }: Large): Promise<void> {
    if (this.makesFolder(rel)) mkdirSync(dirname(this.target(rel)));
    const sizes = await writeLargeDocument(this.target(rel), pieces, this.siblings, this.quality);
    for (const size of sizes) this.count(size);
  }

  /** In this thread: the text now, the compressed siblings as the thread pool delivers them. */
  private async documentsHere(jobs: readonly { rel: string; text: string }[]): Promise<void> {
    const pending = new Set<Promise<void>>();
    let failure: unknown;
    const buffers = jobs.map((j) => ({ rel: j.rel, buf: Buffer.from(j.text, 'utf8') }));
    buffers.sort((a, b) => b.buf.length - a.buf.length || (a.rel < b.rel ? -1 : 1));
    try {
      for (const { rel, buf } of buffers) {
        if (failure !== undefined) break;
        this.write(rel, buf, this.makesFolder(rel));
        if (!this.siblings.gzip && !this.siblings.br) continue;
        const done: Promise<void> = compress(buf, this.quality, this.siblings)
          .then((written) => {
            for (const [ext, data] of written) this.write(`${rel}.${ext}`, data);
          })
          .catch((err: unknown) => {
            failure ??= err;
          })
          .finally(() => pending.delete(done));
        pending.add(done);
        if (pending.size >= COMPRESS_IN_FLIGHT) await Promise.race(pending);
      }
    } finally {
      // Never leave a compression writing into the temp dir after this returns (it may be removed).
      await Promise.allSettled(pending);
    }
    if (failure !== undefined) throw failure;
  }

  async copies(jobs: readonly { rel: string; source: MediaSource }[]): Promise<void> {
    await eachLimit(jobs, COPY_CONCURRENCY, async (job) => {
      try {
        this.count(await copyMedia(job.source, this.target(job.rel)));
      } catch (err) {
        throw new DistError((err as Error).message);
      }
    });
  }

  /** Thumbnails: sharp decodes and scales on libuv's thread pool. */
  async thumbs(jobs: readonly { rel: string; source: MediaSource; media: string }[]): Promise<void> {
    await eachLimit(jobs, THUMB_CONCURRENCY, async (job) => {
      const refused = (err: unknown) =>
        new DistError(
          `cannot make the thumbnail of media '${job.media}' (${whyNoThumbnail(err)}): replace the file with a readable image within the limits (cqa check names it too)`,
        );
      let input: Buffer;
      try {
        input = await readMediaImage(job.source);
      } catch (err) {
        throw err instanceof ThumbnailRefused ? refused(err) : new DistError((err as Error).message);
      }
      let bytes: Buffer;
      try {
        bytes = await makeThumbnail(input);
      } catch (err) {
        throw refused(err);
      }
      this.write(job.rel, bytes);
    });
  }

  texts(jobs: readonly { rel: string; text: string }[]): void {
    for (const job of jobs) this.write(job.rel, job.text);
  }
}

async function writeTree(writer: TreeWriter, jobs: readonly FileJob[], dirs: readonly string[], snapshot: Snapshot): Promise<void> {
  writer.mkdirs(dirs, jobs);
  const json: DocumentJob[] = [];
  const text: { rel: string; text: string }[] = [];
  const copy: { rel: string; source: MediaSource }[] = [];
  const thumb: { rel: string; source: MediaSource; media: string }[] = [];
  let manifest: string | undefined;
  for (const j of jobs) {
    if (j.rel === MANIFEST && j.kind === 'json') manifest = j.text;
    else if (j.kind === 'json' || j.kind === 'document') json.push(j);
    else if (j.kind === 'text') text.push(j);
    else if (j.kind === 'thumb') thumb.push(j);
    else copy.push(j);
  }
  writer.texts(text);
  // Media copies (through the checked file handle: media-source.ts) and thumbnails run alongside the documents.
  const results = await Promise.allSettled([writer.documents(json, documentMaker(snapshot)), writer.copies(copy), writer.thumbs(thumb)]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  // Last, with what the tree holds besides it: the next build tells a file it did not write (checkOut).
  if (manifest !== undefined) {
    const names = jobs.flatMap((j) => (j.rel === MANIFEST ? [] : outputNames(j, writer.siblings)));
    const tree = treeRecord(names, writer.bytes);
    const text = `${JSON.stringify({ ...(JSON.parse(manifest) as object), tree }, null, 2)}\n`;
    await writer.documents([{ kind: 'json', rel: MANIFEST, text }], documentMaker(snapshot));
  }
}

// ---------------------------------------------------------------------------------------------
// The output directory: checks, temp dir, swap (dist-swap.ts).

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Refuses output directories whose replacement would destroy something else. */
async function checkOut(out: string, snapshot: Snapshot): Promise<void> {
  if (dirname(out) === out) throw new DistError(`refusing to write the build output to the root directory ${out}`);
  if (isInside(process.cwd(), out)) throw new DistError(`refusing to replace ${out}: it contains the current directory`);
  for (const p of snapshot.projects.values()) {
    for (const m of p.media) {
      if (isInside(m.record.source, out)) throw new DistError(`refusing to replace ${out}: it contains the content (${m.record.source})`);
    }
  }
  const stat = await fsp.stat(out).catch(() => null);
  if (!stat) return;
  if (!stat.isDirectory()) throw new DistError(`${out} exists and is not a directory`);
  const names = await fsp.readdir(out);
  if (names.length > 0 && !names.includes('manifest.json')) {
    throw new DistError(`refusing to replace ${out}: it is not empty and has no manifest.json, so it is not a cqa build output`);
  }
  if (names.length === 0) return;
  // A web app's public/ folder has a manifest.json too (found from outside: it was replaced).
  const manifest = readBuildManifest(join(out, MANIFEST));
  if (manifest === undefined) {
    throw new DistError(
      `refusing to replace ${out}: its manifest.json is not one cqa build wrote (a web app's manifest?), so it is not a cqa build output; give --out a new or empty folder`,
    );
  }
  // A build's manifest copied beside other files (`cp -r dist/* public/`) makes no build of them.
  const foreign = names.filter((n) => !BUILD_NAMES.has(n.replace(/\.(gz|br)$/, '')));
  if (foreign.length > 0) {
    const listed = foreign.slice(0, 5).join(', ') + (foreign.length > 5 ? ` and ${foreign.length - 5} more` : '');
    throw new DistError(
      `refusing to replace ${out}: it holds what no build writes (${listed}), which replacing it would delete; move them out, or give --out a new or empty folder`,
    );
  }
  // Below the top too: a file added under media/, lines added to _headers (found from outside).
  // A tree of an earlier version, which recorded nothing, is checked at its top only.
  const change = manifest.tree && treeChange(out, manifest.tree);
  if (change !== undefined)
    throw new DistError(`refusing to replace ${out}: ${change}; move your own files out of it (or delete ${out} to build it anew)`);
}

/** What a build writes at the top of its tree, for any host (hosts/index.ts; .gz and .br siblings too), and desktop litter. */
const BUILD_NAMES = new Set([
  'api',
  'media',
  'thumbs',
  'manifest.json',
  'openapi.json',
  '_headers',
  '_redirects',
  '_nginx.conf',
  '_Caddyfile',
  'serve.json',
  '404.html',
  '.DS_Store',
  'Thumbs.db',
]);

/**
 * Writes the snapshot as a static tree at `out` (see docs/build.md), atomically: the
 * previous tree stays as it was unless the whole new tree was written.
 */
export async function writeDist(snapshot: Snapshot, options: WriteDistOptions): Promise<DistResult> {
  const out = resolve(options.out);
  const quality = options.brotliQuality;
  if (quality !== undefined && (!Number.isInteger(quality) || quality < 0 || quality > 11)) {
    throw new DistError(`brotliQuality must be an integer 0–11, got ${quality}`);
  }
  // Without precompress there are no .br files to write (`precompress: 'none'` is a switch set elsewhere: no clash).
  if (quality !== undefined && options.precompress === undefined)
    throw new TypeError(
      "writeDist: brotliQuality is the quality of the .br siblings, and no precompress was given: add precompress: 'br' or 'all', or leave brotliQuality out",
    );
  const precompress = options.precompress ?? 'none';
  if (!PRECOMPRESS_CHOICES.includes(precompress)) {
    throw new DistError(`precompress must be one of ${PRECOMPRESS_CHOICES.join(', ')}, got ${JSON.stringify(precompress)}`);
  }
  const siblings = siblingsOf(precompress);
  await recoverOutput(out);
  await checkOut(out, snapshot);
  const host = options.host ?? 'netlify';
  if (!HOST_CHOICES.includes(host)) throw new DistError(`host must be one of ${HOST_CHOICES.join(', ')}, got ${JSON.stringify(host)}`);
  // serve answers a folder of one file with that file: a .gz/.br sibling beside index.json would
  // make it a listing. It compresses by itself.
  if (host === 'serve' && precompress !== 'none')
    throw new DistError(
      `the serve host takes no precompressed siblings (it compresses by itself): build with --precompress none for --host serve`,
    );
  const cache = { ...DEFAULT_CACHE_CONTROL, ...options.cacheControl };
  for (const [kind, value] of Object.entries(cache)) {
    // A header value on one line: a newline would end the rule in _headers and the directive in a config.
    if (typeof value !== 'string' || value === '' || /[\0-\x1f\x7f"]/.test(value))
      throw new DistError(`cacheControl.${kind} must be a Cache-Control value on one line without quotes, got ${JSON.stringify(value)}`);
  }
  const jobs = planFiles(snapshot, host, cache);
  if (host === 'cloudflare') refusePagesNotFoundMedia(snapshot);
  const dirs = checkPlan(jobs, siblings, snapshot);
  const total = jobs.reduce((n, j) => n + outputNames(j, siblings).length, 0);

  const suffix = newSuffix();
  const tmp = siblingName(out, 'tmp', suffix);
  await makeFolders(dirname(out)); // `--out new/folder/dist`, as build tools do
  await fsp.mkdir(tmp);
  try {
    const writer = new TreeWriter(tmp, total, quality, siblings, options.onProgress);
    await writeTree(writer, jobs, dirs, snapshot);
    await swapIn(tmp, out, suffix);
    return { files: writer.files, bytes: writer.bytes };
  } catch (err) {
    await fsp.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
}
