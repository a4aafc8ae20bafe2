// `static` mode: the client answers queries itself, with the server's query engine (src/query),
// over the documents of a static tree (`cqa build`, served by `cqa preview` or any static host),
// requested by their API paths (`/api/demo/posts`, which hosts map to its index.json).
// Each document is downloaded once and revalidated on later calls (If-None-Match → 304), so a
// page pays for a collection once. Answers and problems are those of `cqa serve` for published
// content and a token without the drafts scope. No Node imports.
import { API_PROBLEMS, problemJson, type Problem } from '../http/problem.js';
import { queryEntries, queryEntry, queryMediaItem, queryMediaList } from '../query/index.js';
import { parseQuery } from '../query/parse.js';
import { ProblemError } from '../query/problems.js';
import type { QueryContext, QueryOutcome } from '../query/types.js';
import { itemJson } from '../snapshot/serialize.js';
import type { CollectionSnapshot, MediaSnapshot } from '../snapshot/types.js';
import { publishedCollection, publishedMedia, publishedProject, StaticTreeError, type CollectionInfo, type ProjectDocument, type QueryIndex } from './published.js';
import { encodePath, type Answer, type Fetch, type Source } from './source.js';

const MEDIA_SEGMENT = 'project-media';

interface Download {
  readonly etag: string | null;
  readonly text: string;
}

/** Files of a static tree by path, each fetched once and then revalidated with its ETag. */
class StaticFiles {
  private readonly files = new Map<string, Download>();
  /** Downloads under way: calls at the same time share one request. */
  private readonly pending = new Map<string, Promise<string | null>>();

  constructor(
    private readonly baseUrl: string,
    private readonly fetch: Fetch,
  ) {}

  /** The file's text, or null when the tree has no such file. */
  text(path: string): Promise<string | null> {
    let p = this.pending.get(path);
    if (!p) {
      p = this.download(path).finally(() => this.pending.delete(path));
      this.pending.set(path, p);
    }
    return p;
  }

  private async download(path: string): Promise<string | null> {
    const known = this.files.get(path);
    const headers: Record<string, string> = { accept: 'application/json' };
    // Only when the host let us read the ETag (same origin, or exposed by CORS): a cross-origin
    // If-None-Match needs a preflight that static hosts may not answer.
    if (known?.etag) headers['if-none-match'] = known.etag;
    const res = await this.fetch(this.baseUrl + encodePath(path), { headers });
    if (res.status === 304 && known) return known.text;
    if (res.status === 404 || res.status === 403) {
      this.files.delete(path);
      return null;
    }
    if (res.status !== 200) throw new StaticTreeError(`${this.baseUrl}${path}: the static host answered ${res.status}`);
    const text = await res.text();
    this.files.set(path, { etag: res.headers.get('etag'), text });
    return text;
  }
}

function problem(p: Problem): Answer {
  return { status: p.status, body: problemJson(p) };
}

function outcome(o: QueryOutcome): Answer {
  return o.ok ? { status: 200, body: o.body } : problem(o.problem);
}

/** Relation fields named by `whereRelation[…]` in a raw query (their targets must be loaded). */
function relationsNamed(rawQuery: string): string[] {
  try {
    const node = parseQuery(rawQuery).entries.get('whereRelation');
    return node?.kind === 'map' ? [...node.entries.keys()] : [];
  } catch (e) {
    if (e instanceof ProblemError) return []; // the engine reports it
    throw e;
  }
}

interface Built {
  readonly list: string;
  readonly index: string;
  readonly col: CollectionSnapshot;
}

export class StaticSource implements Source {
  private readonly files: StaticFiles;
  private readonly ctx: QueryContext;
  /**
   * Collections built so far from one version of the tree. The engine caches plans per
   * collection, and a `whereRelation` plan holds on to its target's tables: when any document
   * changes, the whole set is built anew rather than mixing versions.
   */
  private built: { project: string; cols: Map<string, Built> } = { project: '', cols: new Map() };
  private builtMedia: { list: string; media: MediaSnapshot[] } | undefined;

  constructor(
    baseUrl: string,
    private readonly projectId: string,
    fetch: Fetch,
    /** Largest `limit` accepted, as `cqa serve --max-limit` (default 1000; 0 = no cap). */
    maxLimit = 1000,
  ) {
    this.files = new StaticFiles(baseUrl, fetch);
    this.ctx = { scopes: new Set(['read']), maxLimit };
  }

  private get base(): string {
    return `/api/${this.projectId}`;
  }

  /** The collections of `infos`, each from its list and query index (revalidated). */
  private async collections(projectText: string, infos: readonly CollectionInfo[]): Promise<CollectionSnapshot[]> {
    const texts = await Promise.all(
      infos.map(async (info) => {
        const path = `${this.base}/${info.slug}`;
        const [list, index] = await Promise.all([this.files.text(path), this.files.text(`${path}.query`)]);
        if (list === null || index === null) {
          throw new StaticTreeError(`${path}${list === null ? '' : '.query'} is missing from the static tree: rebuild it with cqa build`);
        }
        return { info, list, index };
      }),
    );
    const changed = (t: (typeof texts)[number]) => {
      const hit = this.built.cols.get(t.info.slug);
      return hit !== undefined && (hit.list !== t.list || hit.index !== t.index);
    };
    if (this.built.project !== projectText || texts.some(changed)) this.built = { project: projectText, cols: new Map() };
    return texts.map(({ info, list, index }) => {
      let b = this.built.cols.get(info.slug);
      if (!b) {
        b = { list, index, col: publishedCollection(info, list, JSON.parse(index) as QueryIndex) };
        this.built.cols.set(info.slug, b);
      }
      return b.col;
    });
  }

  private async media(): Promise<MediaSnapshot[]> {
    const list = await this.files.text(`${this.base}/${MEDIA_SEGMENT}`);
    if (list === null) throw new StaticTreeError(`${this.base}/${MEDIA_SEGMENT} is missing from the static tree: rebuild it with cqa build`);
    if (this.builtMedia?.list !== list) this.builtMedia = { list, media: publishedMedia(list) };
    return this.builtMedia.media;
  }

  async answer(path: string, query: string): Promise<Answer> {
    const projectText = await this.files.text(this.base);
    // The problems below are those of src/http/core.ts (API_PROBLEMS).
    if (projectText === null) return problem(API_PROBLEMS.projectNotFound(this.projectId));
    const doc = (JSON.parse(projectText) as { data?: ProjectDocument }).data;
    if (doc === undefined) {
      // An `elmapi` project's document is `{"uuid", "name", "description"}`: no schema to query with.
      throw new StaticTreeError(`${this.base} is not a cqa-dialect project document: static mode supports the cqa dialect only (yet); use mode 'server'`);
    }
    const [, name = '', ...rest] = path.split('/');
    const id = rest.join('/');
    if (name === '') {
      if (query === '') return { status: 200, body: projectText };
      return problem(API_PROBLEMS.queryOnProject());
    }
    if (name === MEDIA_SEGMENT) {
      const media = await this.media();
      const project = publishedProject(doc, [], media);
      if (id === '') return outcome(queryMediaList(project, query, this.ctx));
      const m = project.mediaById.get(id);
      if (!m) return problem(API_PROBLEMS.mediaItemNotFound(this.projectId, id));
      return query === '' ? { status: 200, body: itemJson(m.json) } : outcome(queryMediaItem(project, id, query, this.ctx));
    }
    const info = doc.collections.find((c) => c.slug === name);
    if (!info) {
      return problem(API_PROBLEMS.collectionNotFound(this.projectId, name, [...doc.collections.map((c) => c.slug), MEDIA_SEGMENT]));
    }
    // whereRelation reads the target collections: load them too.
    const targets = new Set<string>();
    if (id === '') {
      for (const rel of relationsNamed(query)) {
        const target = info.fields.find((f) => f.name === rel && f.type === 'relation')?.collection;
        if (target !== undefined && target !== name) targets.add(target);
      }
    }
    const loaded = await this.collections(projectText, [info, ...doc.collections.filter((c) => targets.has(c.slug))]);
    const col = loaded[0] as CollectionSnapshot;
    const project = publishedProject(doc, loaded, []);
    if (id !== '') {
      if (query !== '') return outcome(queryEntry(project, col, id, query, this.ctx));
      const e = col.byId.get(id);
      if (!e) return problem(API_PROBLEMS.entryNotFound(id, name));
      return { status: 200, body: itemJson(e.json) };
    }
    return outcome(queryEntries(project, col, query, this.ctx));
  }
}
