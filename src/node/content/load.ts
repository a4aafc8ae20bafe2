// Orchestrates loading: list the tree, read and parse every file (cached per file for watch
// mode), then build and check each project. Loading never throws for bad content: every problem
// becomes an issue, and the model holds whatever could be built.
import { checkElmapi3 } from './elmapi3-checks.js';
import { stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import type { ContentIssue, ContentModel, MediaRecord, ProjectRecord } from '../../core/model/model.js';
import { compareCodePoints } from '../../core/snapshot/order.js';
import { FileCache, mapLimit } from './cache.js';
import { buildCollection, createCollectionMemo, type BuiltCollection, type CollectionMemo } from './collection.js';
import { byPath, layoutTree, listFiles, updateListing, type FileInfo, type ProjectLayout } from './files.js';
import { EntryTimes } from './entry-times.js';
import type { CommitTimes, GitTimes, TimestampSource } from './git-times.js';
import { IssueList, sortIssues } from './issues.js';
import { checkMediaNumbers, mediaRecord, mimeType, readDimensions, readMediaMeta, type Dimensions } from './media.js';
import { readEntryOnce, readFailure, readYamlOnce, type FileParser, type Outcome, type ParseJob } from './file-parser.js';
import type { ParseCache } from './parse-cache.js';
import { EMPTY_YAML, type ParsedEntry, type ParsedYaml } from './parse.js';
import { readProject, settingsRead, type ProjectConfig } from './project.js';
import { MarkedNotLoaded, renderRichtext, richtextReady } from './richtext.js';
import { readCollectionConfig } from './schema.js';
import { Embedded, resolveReferences } from './resolve.js';
import { mediaUuid } from './uuid.js';
import { windowsNameProblem } from './windows-names.js';

export interface LoadOptions {
  /** Treat drafts as published (`cqa build --drafts`). */
  readonly drafts?: boolean;
  /** Called as files are read: `done` of `total` entry and media files. */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Reads and parses the files that need it, on other threads (see parse-thread.ts); a file it
   * leaves out is read and parsed in this thread as usual.
   */
  readonly parser?: FileParser;
  /** What earlier runs parsed, kept in the tree (see parse-cache.ts); saved at the end of each load. */
  readonly parseCache?: ParseCache;
  /**
   * Where created_at/updated_at come from when an entry sets none: `git` (the file's first and
   * last commit), `mtime` (its modification time). Default: git inside a git work tree, else mtime.
   */
  readonly timestamps?: TimestampSource;
  /**
   * git's times for the first full load, read already: started before this module was imported,
   * git has answered by the time the tree is listed (load-path.ts). Else the load reads git itself.
   */
  readonly gitTimes?: Promise<GitTimes | undefined>;
}

export interface LoadResult {
  readonly model: ContentModel;
  /** Errors; when there are any, the model may be incomplete. Sorted by file and line. */
  readonly issues: ContentIssue[];
  readonly warnings: ContentIssue[];
}

export interface ContentLoader {
  /**
   * Loads the tree as it is now, re-reading only files whose mtime or size changed.
   * `changes`: when the caller watches the tree, the paths that changed since the last load
   * (absolute, or relative to the content root; files or folders; added, edited or deleted). Then
   * only those paths are looked at again instead of listing the whole tree, which is what makes a
   * reload at 10,000 entries fast. Without it (or on the first load) the whole tree is listed.
   */
  load(changes?: readonly string[]): Promise<LoadResult>;
}

const READ_CONCURRENCY = 64;

/**
 * How long what a loader makes lives. `once`: the loader loads one time, so it remembers nothing
 * for a next load (no file cache, no built entries). `detach`: copy each entry's values out of
 * its file's text, for a model the caller keeps (or that leaves the load process); a job whose
 * model ends with it (`cqa build`) keeps the texts instead for as long as it runs.
 */
interface LoaderLife {
  readonly once: boolean;
  readonly detach: boolean;
}

export function createContentLoader(root: string, options: LoadOptions = {}): ContentLoader {
  return contentLoader(root, options, { once: false, detach: true });
}

function contentLoader(root: string, options: LoadOptions, life: LoaderLife): ContentLoader {
  const cache = createCaches(life.once);
  const memo = createCollectionMemo(!life.once);
  let listing: Map<string, FileInfo> | undefined;
  let order: string[] = [];
  let running: Promise<unknown> = Promise.resolve();
  let lastTimes: EntryTimes | undefined;
  let gitStarted = options.gitTimes;

  const loadOnce = async (changed: readonly string[] | undefined): Promise<LoadResult> => {
    // A link's own path does not change when the file it leads to does (found from outside: an
    // entry linked to another kept the old text): the listed links to a changed file change with it.
    const changes = changed && listing ? [...changed, ...linksTo(root, listing, changed)] : changed;
    const started = gitStarted;
    gitStarted = undefined;
    await richtextReady();
    const issues = new IssueList();
    const rootStat = await stat(root).catch(() => undefined);
    if (!rootStat?.isDirectory()) {
      listing = undefined;
      issues.error(root, rootStat ? 'the content path is not a folder' : 'content folder not found');
      return { model: { projects: [] }, issues: issues.errors, warnings: [] };
    }
    // A full load reads git (entry-times.ts) while it lists the tree; a reload after edits does not.
    const gitRead =
      changes && lastTimes ? undefined : (started ?? EntryTimes.readGit(root, options.timestamps, options.parseCache?.gitTimes));
    if (listing && changes) {
      listing = await updateListing(root, listing, changes);
      for (const path of changes) {
        const abs = resolve(root, path);
        for (const c of [cache.yaml, cache.entries, cache.media]) c.forgetPath(abs);
      }
    } else {
      listing = new Map((await listFiles(root)).map((f) => [f.rel, f]));
    }
    // Re-sorting is needed only when files were added or removed.
    let files: FileInfo[];
    const current = listing;
    if (changes && order.length === current.size && order.every((rel) => current.has(rel))) {
      files = order.map((rel) => current.get(rel) as FileInfo);
    } else {
      files = [...current.values()].sort(byPath);
      order = files.map((f) => f.rel);
    }

    const layouts = layoutTree(files, issues);
    // git is read on every full load; a reload after edits (`changes`) keeps what it read and
    // takes the edited files as uncommitted, as they are until someone commits them.
    const times =
      changes && lastTimes
        ? lastTimes.edited(changes.map((p) => relOf(root, p)))
        : await EntryTimes.open(root, options.timestamps, issues, current, gitRead, options.parseCache?.gitTimes);
    lastTimes = times;
    const jobs = options.parser ? staleFiles(layouts, cache) : [];
    const prepared = options.parser && jobs.length > 0 ? await options.parser.parse(jobs) : undefined;
    const ctx: ReadContext = {
      cache,
      issues,
      done: 0,
      total: 0,
      onProgress: options.onProgress,
      prepared,
      parseCache: options.parseCache,
      embedded: new Embedded(),
    };
    ctx.total = layouts.reduce((n, p) => n + p.media.length + p.collections.reduce((m, c) => m + c.entries.length, 0), 0);

    const projects: ProjectRecord[] = [];
    const seenIds = new Map<string, string>();
    const parseCache = options.parseCache;
    const render = parseCache ? (markdown: string) => parseCache.html(markdown, renderRichtext) : renderRichtext;
    for (const layout of layouts) {
      const project = await loadProject(layout, ctx, {
        drafts: options.drafts === true,
        render,
        memo,
        timesOf: times.of,
        detach: life.detach,
      });
      const other = seenIds.get(project.id);
      if (other) {
        const line = readYamlFile(layout.projectFile, ctx).lineOf(['id']);
        issues.error(layout.projectFile.rel, `duplicate project id '${project.id}': ${other} has the same id`, { line, field: 'id' });
        continue;
      }
      seenIds.set(project.id, layout.projectFile.rel);
      projects.push(project);
    }
    times.report(issues);
    if (layouts.length === 0 && issues.errors.length === 0) {
      issues.error(root, 'no project found: a project is a folder with a project.yaml (e.g. content/demo/project.yaml)');
    }
    cache.yaml.sweep();
    cache.entries.sweep();
    cache.media.sweep();
    parseCache?.save();
    projects.sort((a, b) => compareCodePoints(a.id, b.id));
    return { model: { projects }, issues: sortIssues(issues.errors), warnings: sortIssues(issues.warnings) };
  };

  return {
    load(changes) {
      // A load that met a runtime where marked cannot be required imports it and runs again (the
      // files it read are in the cache); it happens once per process.
      const loadRendering = () =>
        loadOnce(changes).catch(async (err: unknown) => {
          if (!(err instanceof MarkedNotLoaded)) throw err;
          await richtextReady(true);
          return loadOnce(changes);
        });
      // Loads run one at a time: they share the cache and the listing.
      const result = running.then(loadRendering, loadRendering);
      running = result.catch(() => undefined);
      return result;
    },
  };
}

/** A changed path (absolute, or relative to the root) as the listing names it: root-relative, '/'-separated. */
export const relOf = (root: string, path: string): string => relative(root, resolve(root, path)).split(sep).join('/');

/** The paths of the listed links whose target is one of `changes`. */
function linksTo(root: string, listing: ReadonlyMap<string, FileInfo>, changes: readonly string[]): string[] {
  const rels = new Set(changes.map((p) => relOf(root, p)));
  const links: string[] = [];
  for (const f of listing.values()) if (f.target !== undefined && rels.has(f.target)) links.push(f.abs);
  return links;
}

/** Loads and validates the content tree at `root` once. */
export function loadContent(root: string, options: LoadOptions = {}): Promise<LoadResult> {
  return contentLoader(root, options, { once: true, detach: true }).load();
}

/**
 * loadContent() for a job whose model ends with it (`cqa build`, in this thread or the load
 * process): the entries keep their file's text and their values as the parser made them. Never
 * for a model handed on (a library result, one the load process sends back): those values are
 * not the detached ones loadContent() gives (-0 stays -0, an aliased YAML value stays shared).
 */
export function loadForJob(root: string, options: LoadOptions = {}): Promise<LoadResult> {
  return contentLoader(root, options, { once: true, detach: false }).load();
}

interface Caches {
  readonly yaml: FileCache<ParsedYaml>;
  readonly entries: FileCache<ParsedEntry>;
  readonly media: FileCache<Promise<Dimensions>>;
}

/** `once`: caches that keep nothing (a loader that loads one time reads each file once anyway). */
function createCaches(once: boolean): Caches {
  const cache = <T>() => (once ? new FileCache<T>(false) : new FileCache<T>());
  return { yaml: cache(), entries: cache(), media: cache() };
}

interface ReadContext {
  readonly cache: Caches;
  readonly issues: IssueList;
  done: number;
  total: number;
  readonly onProgress: ((done: number, total: number) => void) | undefined;
  /** What options.parser made of the files this load needs and the cache has no result for. */
  readonly prepared: ReadonlyMap<string, Outcome> | undefined;
  readonly parseCache: ParseCache | undefined;
  /** What the documents embed of related entries, over every project of this load. */
  readonly embedded: Embedded;
}

const UNREADABLE: ParsedYaml = { ...EMPTY_YAML, value: undefined };

const parseJob = ({ abs, rel, target, dev, ino }: FileInfo, kind: ParseJob['kind']): ParseJob => ({ abs, rel, kind, target, dev, ino });

/** The files of `layouts` that the cache has no result for, as they are now. */
function staleFiles(layouts: readonly ProjectLayout[], cache: Caches): ParseJob[] {
  const jobs: ParseJob[] = [];
  const yaml = (file: FileInfo | undefined) => {
    if (file && !cache.yaml.holds(file)) jobs.push(parseJob(file, 'yaml'));
  };
  for (const layout of layouts) {
    yaml(layout.projectFile);
    yaml(layout.mediaMeta);
    for (const col of layout.collections) {
      yaml(col.config);
      for (const f of col.entries) if (!cache.entries.holds(f)) jobs.push(parseJob(f, 'entry'));
    }
  }
  return jobs;
}

/** The outcome options.parser had for `file`, if any (a failed read throws). */
function prepared(ctx: ReadContext, file: FileInfo): Outcome | undefined {
  const outcome = ctx.prepared?.get(file.abs);
  if (outcome && 'failed' in outcome) throw outcome.failed;
  return outcome;
}

function reportReadFailure(ctx: ReadContext, file: FileInfo, err: unknown): void {
  const { message, line } = readFailure(err);
  ctx.issues.error(file.rel, message, { line });
}

// Sync reads: for thousands of small files they are several times faster than fs.promises, and a
// reload reads only the changed ones. A file that cannot be read is not cached, so the next load
// tries again.

function readYamlFile(file: FileInfo, ctx: ReadContext): ParsedYaml {
  try {
    return ctx.cache.yaml.get(file, () => {
      const outcome = prepared(ctx, file);
      return outcome && 'yaml' in outcome ? outcome.yaml : readYamlOnce(file, ctx.parseCache);
    });
  } catch (err) {
    reportReadFailure(ctx, file, err);
    return UNREADABLE;
  }
}

function readEntryFile(file: FileInfo, ctx: ReadContext): ParsedEntry {
  let parsed: ParsedEntry;
  try {
    parsed = ctx.cache.entries.get(file, () => {
      const outcome = prepared(ctx, file);
      return outcome && 'entry' in outcome ? outcome.entry : readEntryOnce(file, ctx.parseCache);
    });
  } catch (err) {
    reportReadFailure(ctx, file, err);
    parsed = { data: undefined, problems: [], lines: new Map() };
  }
  ctx.onProgress?.(++ctx.done, ctx.total);
  return parsed;
}

async function readMediaFile(file: FileInfo, ctx: ReadContext): Promise<Dimensions> {
  let dims: Dimensions;
  const mime = mimeType(file.rel);
  try {
    dims = await ctx.cache.media.get(file, () => readDimensions(file, mime, file.size, ctx.parseCache));
    const windows = windowsNameProblem(file.rel);
    if (windows) ctx.issues.warn(file.rel, windows);
    // An empty media file is a copy that failed, or a placeholder never replaced: served, it is nothing.
    if (file.size === 0)
      ctx.issues.warn(file.rel, 'empty file (0 bytes): it would be served with nothing in it; replace it with the real file, or remove it');
    // An SVG may well have no size of its own (a viewBox only); any other image has one.
    else if (dims.width === null && mime.startsWith('image/') && mime !== 'image/svg+xml')
      ctx.issues.warn(
        file.rel,
        `not a readable ${mime} image: its width and height could not be read, so they are served as null; replace the file, or give it the extension of what it holds`,
      );
  } catch (err) {
    ctx.cache.media.forget(file);
    reportReadFailure(ctx, file, err);
    dims = { width: null, height: null };
  }
  ctx.onProgress?.(++ctx.done, ctx.total);
  return dims;
}

interface ProjectOptions {
  readonly drafts: boolean;
  readonly render: (md: string) => string;
  readonly memo: CollectionMemo;
  readonly timesOf: (file: FileInfo) => CommitTimes;
  readonly detach: boolean;
  /** project.yaml did not read: its locales are defaults, which entries are not checked against. */
  readonly localesUnread?: boolean;
}

async function loadProject(layout: ProjectLayout, ctx: ReadContext, options: ProjectOptions): Promise<ProjectRecord> {
  const { issues } = ctx;
  const settings = readYamlFile(layout.projectFile, ctx);
  const warned = issues.warnings.length;
  const config = readProject(settings, layout.folder, layout.projectFile.rel, issues);
  // Said against the defaults standing in for a broken project.yaml, warnings and the entries'
  // 'unknown locale' errors asked for what it already says (a locale, a token; found from outside:
  // "project 'demo' has locales en" for every German entry): they wait until it reads.
  const read = settingsRead(settings);
  const project = await loadCollections(layout, ctx, config, read ? options : { ...options, localesUnread: true });
  if (!read) issues.warnings.length = warned;
  return project;
}

async function loadCollections(
  layout: ProjectLayout,
  ctx: ReadContext,
  config: ProjectConfig,
  options: ProjectOptions,
): Promise<ProjectRecord> {
  const { issues } = ctx;

  // Media first: entries refer to them.
  const mediaPrefix = `${layout.folder}/media/`;
  const dims = await mapLimit(layout.media, READ_CONCURRENCY, (f) => readMediaFile(f, ctx));
  const mediaIds = new Set(layout.media.map((f) => f.rel.slice(mediaPrefix.length)));
  const numbered = config.dialect === 'elmapi';
  const v3 = config.dialect === 'elmapi3';
  const meta = readMediaMeta(
    layout.mediaMeta && readYamlFile(layout.mediaMeta, ctx),
    mediaIds,
    layout.mediaMeta?.rel ?? '',
    issues,
    numbered,
    v3,
  );
  const media: MediaRecord[] = layout.media
    .map((f, i) => {
      const id = f.rel.slice(mediaPrefix.length);
      const record = mediaRecord(id, f.abs, f.size, dims[i] as Dimensions, meta.get(id));
      // elmapi3 names every asset by uuid: given in _media.yaml, else derived from the path.
      return v3 && record.uuid === undefined ? { ...record, uuid: mediaUuid(config.id, id) } : record;
    })
    .sort((a, b) => compareCodePoints(a.id, b.id));
  if (numbered) checkMediaNumbers(media, layout.mediaMeta?.rel ?? `${layout.folder}/media`, issues);

  const collections: BuiltCollection[] = [];
  for (const col of layout.collections) {
    const configFile = col.config && readYamlFile(col.config, ctx);
    const colConfig = readCollectionConfig(configFile, col.folder, col.config?.rel ?? '', issues);
    const parsed = col.entries.map((f) => readEntryFile(f, ctx));
    const built = buildCollection(
      {
        projectFolder: layout.folder,
        layout: col,
        config: colConfig,
        entries: col.entries.map((file, i) => ({ file, parsed: parsed[i] as ParsedEntry })),
      },
      config,
      {
        drafts: options.drafts,
        render: options.render,
        issues,
        memo: options.memo,
        timesOf: options.timesOf,
        detach: options.detach,
        localesUnread: options.localesUnread,
      },
    );
    if (built) collections.push(built);
  }
  resolveReferences(collections, media, issues, ctx.embedded, config.dialect);

  const project: ProjectRecord = {
    ...config,
    collections: collections.map((c) => c.record).sort((a, b) => compareCodePoints(a.slug, b.slug)),
    media,
  };
  if (v3) checkElmapi3(project, layout.folder, issues);
  return project;
}
