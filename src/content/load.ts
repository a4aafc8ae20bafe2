// Orchestrates loading: list the tree, read and parse every file (cached per file for watch
// mode), then build and check each project. Loading never throws for bad content: every problem
// becomes an issue, and the model holds whatever could be built.
import { readFile, stat } from 'node:fs/promises';
import type { ContentIssue, ContentModel, MediaRecord, ProjectRecord } from '../snapshot/model.js';
import { compareCodePoints } from '../snapshot/order.js';
import { FileCache, mapLimit } from './cache.js';
import { buildCollection, type BuiltCollection } from './collection.js';
import { layoutTree, listFiles, type FileInfo, type ProjectLayout } from './files.js';
import { IssueList, sortIssues } from './issues.js';
import { mediaRecord, mimeType, readDimensions, readMediaMeta, type Dimensions } from './media.js';
import { entryFormat, parseEntry, parseYaml, type ParsedEntry, type ParsedYaml } from './parse.js';
import { readProject } from './project.js';
import { renderRichtext } from './richtext.js';
import { readCollectionConfig } from './schema.js';
import { resolveReferences } from './resolve.js';

export interface LoadOptions {
  /** Treat drafts as published (`cqa build --drafts`). */
  readonly drafts?: boolean;
  /** Called as files are read: `done` of `total` entry and media files. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface LoadResult {
  readonly model: ContentModel;
  /** Errors; when there are any, the model may be incomplete. Sorted by file and line. */
  readonly issues: ContentIssue[];
  readonly warnings: ContentIssue[];
}

export interface ContentLoader {
  /** Loads the tree as it is now, re-reading only files whose mtime or size changed. */
  load(): Promise<LoadResult>;
}

const READ_CONCURRENCY = 64;

export function createContentLoader(root: string, options: LoadOptions = {}): ContentLoader {
  const cache = new FileCache();
  let html = new Map<string, string>();
  let running: Promise<unknown> = Promise.resolve();

  const loadOnce = async (): Promise<LoadResult> => {
    const issues = new IssueList();
    // Rendered richtext is memoised by source across loads; only what this load used is kept.
    const previousHtml = html;
    const nextHtml = new Map<string, string>();
    const render = (md: string): string => {
      let out = nextHtml.get(md) ?? previousHtml.get(md);
      if (out === undefined) out = renderRichtext(md);
      nextHtml.set(md, out);
      return out;
    };

    const rootStat = await stat(root).catch(() => undefined);
    if (!rootStat?.isDirectory()) {
      issues.error(root, rootStat ? 'the content path is not a folder' : 'content folder not found');
      return { model: { projects: [] }, issues: issues.errors, warnings: [] };
    }

    const layouts = layoutTree(await listFiles(root), issues);
    const ctx: ReadContext = { cache, issues, done: 0, total: 0, onProgress: options.onProgress };
    ctx.total = layouts.reduce((n, p) => n + p.media.length + p.collections.reduce((m, c) => m + c.entries.length, 0), 0);

    const projects: ProjectRecord[] = [];
    const seenIds = new Map<string, string>();
    for (const layout of layouts) {
      const project = await loadProject(layout, ctx, { drafts: options.drafts === true, render });
      if (!project) continue;
      const other = seenIds.get(project.id);
      if (other) {
        issues.error(layout.projectFile.rel, `duplicate project id '${project.id}': ${other} has the same id`, { field: 'id' });
        continue;
      }
      seenIds.set(project.id, layout.projectFile.rel);
      projects.push(project);
    }
    if (layouts.length === 0 && issues.errors.length === 0) {
      issues.error(root, 'no project found: a project is a folder with a project.yaml (e.g. content/demo/project.yaml)');
    }
    cache.sweep();
    html = nextHtml;
    projects.sort((a, b) => compareCodePoints(a.id, b.id));
    return { model: { projects }, issues: sortIssues(issues.errors), warnings: sortIssues(issues.warnings) };
  };

  return {
    load() {
      // Loads run one at a time: they share the cache.
      const result = running.then(loadOnce, loadOnce);
      running = result.catch(() => undefined);
      return result;
    },
  };
}

/** Loads and validates the content tree at `root` once. */
export function loadContent(root: string, options: LoadOptions = {}): Promise<LoadResult> {
  return createContentLoader(root, options).load();
}

interface ReadContext {
  readonly cache: FileCache;
  readonly issues: IssueList;
  done: number;
  total: number;
  readonly onProgress: ((done: number, total: number) => void) | undefined;
}

const UNREADABLE: ParsedYaml = { value: undefined, problems: [], lineOf: () => undefined };

function readError(err: unknown): string {
  return `cannot read the file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
}

async function readYamlFile(file: FileInfo, ctx: ReadContext): Promise<ParsedYaml> {
  return ctx.cache
    .get('yaml', file, async () => {
      const text = await readFile(file.abs, 'utf8');
      return parseYaml(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    })
    .catch((err: unknown) => {
      ctx.issues.error(file.rel, readError(err));
      return UNREADABLE;
    });
}

async function readEntryFile(file: FileInfo, ctx: ReadContext): Promise<ParsedEntry> {
  const parsed = await ctx.cache
    .get('entry', file, async () => parseEntry(entryFormat(file.rel) ?? 'yaml', await readFile(file.abs, 'utf8')))
    .catch((err: unknown): ParsedEntry => {
      ctx.issues.error(file.rel, readError(err));
      return { data: undefined, problems: [], lines: new Map() };
    });
  ctx.onProgress?.(++ctx.done, ctx.total);
  return parsed;
}

async function readMediaFile(file: FileInfo, ctx: ReadContext): Promise<Dimensions> {
  const dims = await ctx.cache
    .get('media', file, () => readDimensions(file.abs, mimeType(file.rel), file.size))
    .catch((err: unknown) => {
      ctx.issues.error(file.rel, readError(err));
      return { width: null, height: null };
    });
  ctx.onProgress?.(++ctx.done, ctx.total);
  return dims;
}

async function loadProject(
  layout: ProjectLayout,
  ctx: ReadContext,
  options: { drafts: boolean; render: (md: string) => string },
): Promise<ProjectRecord | undefined> {
  const { issues } = ctx;
  const config = readProject(await readYamlFile(layout.projectFile, ctx), layout.folder, layout.projectFile.rel, issues);

  // Media first: entries refer to them.
  const mediaPrefix = `${layout.folder}/media/`;
  const dims = await mapLimit(layout.media, READ_CONCURRENCY, (f) => readMediaFile(f, ctx));
  const mediaIds = new Set(layout.media.map((f) => f.rel.slice(mediaPrefix.length)));
  const meta = readMediaMeta(layout.mediaMeta && (await readYamlFile(layout.mediaMeta, ctx)), mediaIds, layout.mediaMeta?.rel ?? '', issues);
  const media: MediaRecord[] = layout.media
    .map((f, i) => {
      const id = f.rel.slice(mediaPrefix.length);
      return mediaRecord(id, f.abs, f.size, dims[i] as Dimensions, meta.get(id));
    })
    .sort((a, b) => compareCodePoints(a.id, b.id));

  const collections: BuiltCollection[] = [];
  for (const col of layout.collections) {
    const configFile = col.config && (await readYamlFile(col.config, ctx));
    const colConfig = readCollectionConfig(configFile, col.folder, col.config?.rel ?? '', issues);
    const parsed = await mapLimit(col.entries, READ_CONCURRENCY, (f) => readEntryFile(f, ctx));
    const built = buildCollection(
      { projectFolder: layout.folder, layout: col, config: colConfig, entries: col.entries.map((file, i) => ({ file, parsed: parsed[i] as ParsedEntry })) },
      config,
      { drafts: options.drafts, render: options.render, issues },
    );
    if (built) collections.push(built);
  }
  resolveReferences(collections, media, issues);

  return {
    ...config,
    collections: collections.map((c) => c.record).sort((a, b) => compareCodePoints(a.slug, b.slug)),
    media,
  };
}
