// `static` mode: the client answers queries itself, with the server's query engine (src/query),
// over the documents of a static tree (`cqa build`, served by `cqa preview` or any static host),
// requested by their API paths (`/api/demo/posts`, which hosts map to its index.json).
// Each document is downloaded once and revalidated on later calls (If-None-Match → 304), so a
// page pays for a collection once. Answers and problems are those of `cqa serve` for published
// content and a token without the drafts scope. No Node imports.
import { API_PROBLEMS, MAX_TARGET, problemJson, TARGET_TOO_LONG, type Problem } from '../http/problem.js';
import { queryEntries, queryEntry, queryMediaItem, queryMediaList } from '../query/index.js';
import { parseQuery } from '../query/parse.js';
import { ProblemError } from '../query/problems.js';
import type { QueryContext, QueryOutcome } from '../query/types.js';
import { itemJson } from '../snapshot/serialize.js';
import type { CollectionSnapshot, MediaSnapshot } from '../model/types.js';
import {
  publishedCollection,
  publishedMedia,
  publishedProject,
  StaticTreeError,
  type CollectionInfo,
  type ProjectDocument,
  type QueryIndex,
} from './published.js';
import { encodePath, PAGELESS, pageless, sendable, type Answer, type Fetch, type Source } from './source.js';

const MEDIA_SEGMENT = 'project-media';

/**
 * When a document the client already holds is asked for again: `always` (default) revalidates it
 * on every call, `never` keeps the first copy for the client's life, a number revalidates copies
 * older than that many milliseconds.
 */
export type Revalidate = 'always' | 'never' | number;

interface Download {
  readonly etag: string | null;
  readonly text: string;
  /** Date.now() when the host last gave or confirmed it. */
  checked: number;
}

/** Files of a static tree by path, each fetched once and then revalidated with its ETag. */
class StaticFiles {
  private readonly files = new Map<string, Download>();
  /** Downloads under way: calls at the same time share one request. */
  private readonly pending = new Map<string, Promise<string | null>>();
  /**
   * False once a revalidation with If-None-Match failed and the same request without it worked:
   * the host exposes ETag cross-origin but refuses the preflight that header needs (nginx answers
   * OPTIONS with 405). Then documents are downloaded whole rather than failing twice each time.
   */
  private conditional = true;

  constructor(
    private readonly baseUrl: string,
    private readonly fetch: Fetch,
    private readonly revalidate: Revalidate,
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

  private fresh(known: Download): boolean {
    if (this.revalidate === 'never') return true;
    if (this.revalidate === 'always') return false;
    return Date.now() - known.checked < this.revalidate;
  }

  private async download(path: string): Promise<string | null> {
    const known = this.files.get(path);
    if (known && this.fresh(known)) return known.text;
    const url = this.baseUrl + encodePath(path);
    // Only when the host let us read the ETag (same origin, or exposed by CORS): a cross-origin
    // If-None-Match needs a preflight that static hosts may not answer.
    const etag = this.conditional ? known?.etag : undefined;
    let res: Response;
    try {
      res = await this.get(url, etag);
    } catch (first) {
      if (etag) {
        // Perhaps only the If-None-Match preflight was refused: the plain GET needs none.
        try {
          res = await this.get(url, undefined);
          this.conditional = false;
        } catch {
          if (known) return known.text; // the host is out of reach: the copy we have is the best answer
          throw unreachable(url, first);
        }
      } else if (known) {
        return known.text;
      } else {
        throw unreachable(url, first);
      }
    }
    if (res.status === 304 && known) {
      known.checked = Date.now();
      return known.text;
    }
    if (res.status === 404 || res.status === 403) {
      this.files.delete(path);
      return null;
    }
    if (res.status !== 200) {
      // A host failing for a moment (5xx, 429): answer from the copy we have, when we have one.
      if (known) return known.text;
      if (res.status === 401) {
        // Not a moment's failure: a static tree needs no token, an API server does.
        throw new StaticTreeError(
          `${url}: the host answered 401 (it asks for a token): a static tree needs none, so this looks like an API server (cqa serve, startServer(), an edge worker) — ` +
            "use mode 'server' with a token there; mode 'static' reads a tree that cqa build wrote, on a static host or cqa preview",
        );
      }
      throw new StaticTreeError(
        `${url}: the static host answered ${res.status}${res.status === 304 ? ' to a request without If-None-Match' : ''}; try again later, or check the host's logs`,
      );
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      // The connection dropped mid-body: as for a failed request.
      if (known) return known.text;
      throw unreachable(url, err);
    }
    this.files.set(path, { etag: res.headers.get('etag'), text, checked: Date.now() });
    return text;
  }

  private get(url: string, etag: string | null | undefined): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (etag) headers['if-none-match'] = etag;
    return this.fetch(url, { headers });
  }
}

/** A fetch that failed before any answer (fetch gives a bare TypeError): what it means, and what to change. */
function unreachable(url: string, err: unknown): StaticTreeError {
  const why = err instanceof Error ? err.message : String(err);
  if (pageless(url)) return new StaticTreeError(`could not fetch ${url} (${why}): ${PAGELESS}`);
  return new StaticTreeError(
    `could not fetch ${url} (${why}): the host is unreachable, or, from a page on another origin, it refused the cross-origin request — ` +
      "the host must send `Access-Control-Allow-Origin: *` on the API documents (cqa build writes it into _headers; docs/hosting.md has each host's recipe)",
  );
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
  private readonly baseUrl: string;
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
    revalidate: Revalidate = 'always',
  ) {
    this.files = new StaticFiles(baseUrl, fetch, revalidate);
    this.baseUrl = baseUrl;
    this.ctx = {
      scopes: new Set(['read']),
      maxLimit,
      noDrafts:
        "a static tree holds no drafts (cqa build writes published entries, or with --drafts all as published; no token helps); use state=published, or mode 'server' against cqa serve or startServer() with a token with scopes [read, drafts]",
    };
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
          throw new StaticTreeError(
            `${path}${list === null ? '' : '.query'} is missing from the static tree: rebuild it with cqa build` +
              (list === null
                ? ''
                : `; or, if ${this.baseUrl} is an API server (cqa serve, startServer(), an edge worker) rather than a static tree, use mode 'server'`),
          );
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
    if (list === null)
      throw new StaticTreeError(`${this.base}/${MEDIA_SEGMENT} is missing from the static tree: rebuild it with cqa build`);
    if (this.builtMedia?.list !== list) this.builtMedia = { list, media: publishedMedia(list) };
    return this.builtMedia.media;
  }

  async answer(path: string, query: string): Promise<Answer> {
    try {
      return await this.answerFromTree(path, query);
    } catch (err) {
      if (err instanceof StaticTreeError) throw err;
      // A document that does not parse or has not the shape of a build's (a host's HTML page or
      // directory listing served for an API path): say so rather than let a SyntaxError through.
      throw new StaticTreeError(
        `the documents under ${this.baseUrl}${this.base} are not those of a cqa build (${err instanceof Error ? err.message : String(err)}): ` +
          'the host must answer each API path with its index.json (the rewrite in docs/hosting.md), not with a page or a directory listing',
      );
    }
  }

  private async answerFromTree(path: string, query: string): Promise<Answer> {
    // The server's first check: the request target a server client would send (what fetch's URL
    // parser makes of it: UTF-8 percent-encoded) past 8 KiB is a 414 (found from outside: a long
    // `in` list answered here and was refused by cqa serve).
    // (`http://h` is 8 characters: the rest of the address is the path and the query.)
    if (new URL(`http://h${this.base}${encodePath(path)}?${sendable(query)}`).href.length > MAX_TARGET + 8)
      return problem({ status: 414, code: 'uri_too_long', detail: TARGET_TOO_LONG });
    const projectText = await this.files.text(this.base);
    // The problems below are those of src/core/http/core.ts (API_PROBLEMS).
    if (projectText === null) {
      // Every build has a manifest.json: without one there, the host serves no tree at this
      // address (found from outside: vite preview's empty 404 read as "project not found").
      if ((await this.files.text('/manifest.json')) === null)
        throw new StaticTreeError(
          `no cqa build at ${this.baseUrl || 'this site'}: ${this.base} and /manifest.json answered 404 — check baseUrl, and that the host answers each API path with its index.json (docs/hosting.md)`,
        );
      return problem(API_PROBLEMS.projectNotFound(this.projectId));
    }
    const doc = (JSON.parse(projectText) as { data?: ProjectDocument }).data;
    if (doc === undefined) {
      // An `elmapi` project's document is `{"uuid", "name", "description"}`: no schema to query with.
      throw new StaticTreeError(
        `${this.base} is not a cqa-dialect project document: static mode supports the cqa dialect only (yet); use mode 'server'`,
      );
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
