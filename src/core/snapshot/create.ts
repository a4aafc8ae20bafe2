// Content model → snapshot: serialise every entry and media item once, index them, and expose the
// static documents. No Node imports, so a snapshot can be built in any runtime.
import {
  ownValue,
  type CollectionRecord,
  type ContentModel,
  type EntryRecord,
  type FieldDef,
  type FieldValue,
  type MediaRecord,
  type ProjectRecord,
} from '../model/model.js';
import { compactProjects, entriesFromParts, type CompactParts } from './compact.js';
import { dialectOf, type Dialect } from '../dialects/index.js';
import { idsAreIntegers } from './order.js';
import { openapiJson } from '../describe/openapi.js';
import { entryJson } from './serialize.js';
import { hasThumb, thumbUrl } from './thumbs.js';
import type { CollectionSnapshot, EntrySnapshot, MediaSnapshot, ProjectSnapshot, Snapshot } from '../model/types.js';

export interface SnapshotOptions {
  /** Prefix of media `full_url`s, e.g. 'https://cdn.example.com' (no trailing slash). Default ''. */
  readonly baseUrl?: string;
  /**
   * Keep each entry's serialisation for the next createSnapshot of the same records (what
   * `--watch` rebuilds reuse). Default true; false for a one-off snapshot (loadSnapshot), where
   * the cache only costs time: a third of loading 10,000 entries.
   */
  readonly reuse?: boolean;
  /**
   * Keep one copy of each entry, its text: what a long-running server wants (src/core/snapshot/compact.ts).
   * Implies reuse: false. Default false.
   */
  readonly compact?: boolean;
}

export const MEDIA_SEGMENT = 'project-media';

export function mediaUrl(baseUrl: string, projectId: string, mediaId: string): string {
  return `${baseUrl}/media/${encodeURIComponent(projectId)}/${mediaId.split('/').map(encodeURIComponent).join('/')}`;
}

function mediaSnapshot(m: MediaRecord, projectId: string, baseUrl: string, dialect: Dialect): MediaSnapshot {
  const full_url = mediaUrl(baseUrl, projectId, m.id);
  // Without a written thumbnail (not an image over 600 px high, or a dialect without thumbs), `thumb` is the full URL.
  const thumb = dialect.thumbnails && hasThumb(m);
  const json = dialect.mediaJson(m, full_url, thumb ? thumbUrl(baseUrl, projectId, m.id) : full_url);
  return thumb ? { record: m, full_url, json, thumb } : { record: m, full_url, json };
}

interface EntryText {
  readonly json: string;
  readonly offsets: readonly number[];
}

/**
 * Serialisations kept across snapshots, keyed by record identity: the incremental loader hands
 * back the same EntryRecord for an unchanged file, so a rebuild under `--watch` serialises only
 * what changed. A cached text is reused only while everything it was made from is unchanged: the
 * collection's fields, the project's media, and the related entries (expanded texts: their texts;
 * shallow texts: which of their ids are published).
 */
interface CachedText extends EntryText {
  readonly fieldsKey: string;
  readonly mediaKey: string;
  readonly deps: readonly (string | undefined)[];
}
const shallowCache = new WeakMap<EntryRecord, CachedText>();
const expandedCache = new WeakMap<
  EntryRecord,
  CachedText & { readonly timestamps: string; readonly hash: string; readonly withTimestamps?: EntryText }
>();

/**
 * The keys (a collection's fields, a project's media) of the last snapshot that kept texts: an
 * equal key of the next one is taken from there, the same string, so that checking each cached
 * text compares a pointer instead of the key's text. Compared by content, the media's JSON was
 * read once per entry at every rebuild: ~2 KB at 10,000 entries here, and it grows with every
 * media file (docs/benchmarks.md#p4-where-a-builds-time-goes).
 */
let lastKeys = new Map<string, string>();

/** A function that returns an earlier snapshot's string equal to the key given, if there is one (see lastKeys). */
function keyInterner(): (key: string) => string {
  const earlier = lastKeys;
  const now = new Map<string, string>();
  lastKeys = now;
  return (key) => {
    const kept = earlier.get(key) ?? now.get(key) ?? key;
    now.set(kept, kept);
    return kept;
  };
}

function sameDeps(a: readonly (string | undefined)[], b: readonly (string | undefined)[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A collection's fields that answers show, and of those the ones that relate to other entries (relations, groups). */
interface ShownFields {
  readonly visible: readonly FieldDef[];
  readonly linked: readonly FieldDef[];
}

/** Serialises entries of one project: relations expand to the target's shallow JSON (ids only). */
class EntryWriter {
  private readonly collections: ReadonlyMap<string, { record: CollectionRecord; fieldsKey: string; byId: Map<string, EntryRecord> }>;
  private readonly mediaKey: string;
  private readonly fieldsOf = new Map<CollectionRecord, ShownFields>();

  private readonly mediaJson: (id: string) => string | undefined;

  constructor(
    project: ProjectRecord,
    media: ReadonlyMap<string, MediaSnapshot>,
    private readonly d: Dialect,
    /** Keep texts in the module caches for the next snapshot (--watch); false for one-off loads. */
    private readonly reuse: boolean,
    intern: (key: string) => string = (key) => key,
  ) {
    // The dialect is part of the key: a text made for another dialect is never reused.
    this.mediaKey = intern([d.name, ...[...media.values()].map((m) => m.json)].join('\n'));
    this.mediaJson = (id) => media.get(id)?.json;
    this.collections = new Map(
      project.collections.map((c) => [
        c.slug,
        { record: c, fieldsKey: intern(JSON.stringify(c.fields)), byId: new Map(c.entries.filter((e) => !e.draft).map((e) => [e.id, e])) },
      ]),
    );
  }

  /** Shallow texts made by this writer: an entry related from many others is looked up once. */
  private readonly shallowMade = new Map<EntryRecord, EntryText>();

  /**
   * Shallow JSON of a published entry (its own relations stay ids: the published ones); with
   * `timestamps`, as embedded in an entry asked for with them (dialects with timestampsFirst).
   */
  private shallowJson(slug: string, id: string, timestamps = false): string | undefined {
    const col = this.collections.get(slug);
    const e = col?.byId.get(id);
    if (!col || !e) return undefined;
    let text = this.shallowMade.get(e);
    if (text === undefined) {
      let json: EntryText;
      const deps: (string | undefined)[] = [];
      for (const f of this.fields(col.record).linked) {
        if (f.type === 'group') this.group(f, ownValue(e.values, f.name), deps);
        else append(deps, this.publishedIds(f, ownValue(e.values, f.name)));
      }
      const hit = this.reuse ? shallowCache.get(e) : undefined;
      if (hit && hit.fieldsKey === col.fieldsKey && hit.mediaKey === this.mediaKey && sameDeps(deps, hit.deps)) {
        json = hit;
      } else {
        json = this.entryText(col.record, e);
        if (this.reuse) shallowCache.set(e, { ...json, fieldsKey: col.fieldsKey, mediaKey: this.mediaKey, deps });
      }
      text = { json: json.json, offsets: json.offsets };
      this.shallowMade.set(e, text);
    }
    if (!timestamps) return text.json;
    const at = text.offsets[0] as number;
    return `${text.json.slice(0, at)}${this.d.entryTimestamps(e)}${text.json.slice(at)}`;
  }

  /**
   * A relation value's ids, each one undefined unless it is a published entry: an answer never
   * names a draft, not even as an id in an embedded entry.
   */
  private publishedIds(field: FieldDef, value: FieldValue | undefined): (string | undefined)[] {
    const byId = this.collections.get(field.collection as string)?.byId;
    return asList(value).map((id) => (byId?.has(String(id)) ? String(id) : undefined));
  }

  /**
   * A group's value with its relation children naming published entries only, as a relation
   * field does: a draft is null, or left out of a list (found from outside: a group named it).
   * `deps` gets each child's ids, undefined unless published: what the group's text depends on.
   */
  private group(group: FieldDef, value: FieldValue | undefined, deps: (string | undefined)[] = []): FieldValue | undefined {
    const relations = (group.fields ?? []).filter((c) => c.type === 'relation' && c.collection);
    if (relations.length === 0 || value === undefined || value === null) return value;
    const one = (item: FieldValue): FieldValue => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
      const out: Record<string, FieldValue> = { ...item };
      for (const c of relations) {
        const ids = this.publishedIds(c, ownValue(out, c.name));
        append(deps, ids);
        if (ids.length > 0) out[c.name] = c.multiple ? ids.filter((id) => id !== undefined) : (ids[0] ?? null);
      }
      return out;
    };
    return Array.isArray(value) ? value.map(one) : one(value);
  }

  /** The shallow texts a relation field's value expands to, in order (undefined: not published). */
  private relationTargets(field: FieldDef, value: FieldValue | undefined, timestamps = false): (string | undefined)[] {
    if (value === undefined || value === null) return [];
    const ids = Array.isArray(value) ? value : [value];
    return ids.map((id) => this.shallowJson(field.collection as string, String(id), timestamps));
  }

  /** A collection's ShownFields, found once per collection rather than per entry. */
  private fields(col: CollectionRecord): ShownFields {
    let fields = this.fieldsOf.get(col);
    if (fields === undefined) {
      const visible = col.fields.filter((f) => !f.hidden);
      const linked = visible.filter((f) => (f.type === 'relation' && f.collection) || f.type === 'group');
      fields = { visible, linked };
      this.fieldsOf.set(col, fields);
    }
    return fields;
  }

  /**
   * `deps`, when given, collects the relation targets' texts: the entry is expanded.
   * `timestamps`: the text with timestamps in place (dialects with timestampsFirst).
   */
  private entryText(col: CollectionRecord, e: EntryRecord, deps?: (string | undefined)[], timestamps = false): EntryText {
    const d = this.d;
    const visible = this.fields(col).visible;
    // Parts joined once: the text is flat, not a tree of concatenations kept alive with it. A small
    // array of offsets costs far less than a typed array (with its buffer) per entry.
    const parts = [timestamps ? d.entryHead(e) + d.entryTimestamps(e) : d.entryHead(e)];
    const offsets = new Array<number>(visible.length + 1); // exact size: no spare capacity
    let length = (parts[0] as string).length;
    for (let i = 0; i < visible.length; i++) {
      const f = visible[i] as FieldDef;
      offsets[i] = length;
      const value = ownValue(e.values, f.name);
      let json: string | undefined;
      if (f.type === 'relation' && f.collection) {
        const present = value !== undefined && value !== null;
        if (deps) {
          const targets = this.relationTargets(f, value, timestamps);
          append(deps, targets);
          json = d.relationJson(
            f,
            present,
            targets.filter((t) => t !== undefined),
          );
        } else {
          json = d.relationJson(
            f,
            present,
            this.publishedIds(f, value)
              .filter((id) => id !== undefined)
              .map(d.idJson),
          );
        }
      } else if (f.type === 'group') {
        json = d.fieldJson(f, this.group(f, value, deps), this.mediaJson);
      } else {
        json = d.fieldJson(f, value, this.mediaJson);
      }
      const part = d.fieldPart(f.name, json);
      parts.push(part);
      length += part.length;
    }
    offsets[visible.length] = length;
    parts.push('}');
    return { json: parts.join(''), offsets };
  }

  /** The entry as served: relations and media expanded, with its timestamps text and hash. */
  entry(col: CollectionRecord, e: EntryRecord, rank: number): EntrySnapshot {
    const fieldsKey = (this.collections.get(col.slug) as { fieldsKey: string }).fieldsKey;
    const both = this.d.timestampsFirst;
    const hit = this.reuse ? expandedCache.get(e) : undefined;
    if (hit && hit.fieldsKey === fieldsKey && hit.mediaKey === this.mediaKey) {
      // What entryText pushes, in its order (twice with timestampsFirst).
      const deps: (string | undefined)[] = [];
      const linked = this.fields(col).linked;
      const pass = (timestamps: boolean) => {
        for (const f of linked) {
          if (f.type === 'group') this.group(f, ownValue(e.values, f.name), deps);
          else append(deps, this.relationTargets(f, ownValue(e.values, f.name), timestamps));
        }
      };
      pass(false);
      if (both) pass(true);
      if (sameDeps(deps, hit.deps)) return snapshotOf(e, rank, hit);
    }
    const deps: (string | undefined)[] = [];
    const text = this.entryText(col, e, deps);
    const timestamps = this.d.entryTimestamps(e);
    // With timestampsFirst, the timestamped text is made alongside (its targets' texts go into deps after the plain ones).
    const withTimestamps = both ? this.entryText(col, e, deps, true) : undefined;
    const hashed = [e.draft ? 'D' : 'P', text.json, timestamps];
    if (withTimestamps) hashed.push(withTimestamps.json);
    const hash = hashStrings(hashed);
    const made = { ...text, timestamps, hash, fieldsKey, mediaKey: this.mediaKey, deps, ...(withTimestamps ? { withTimestamps } : {}) };
    if (this.reuse) expandedCache.set(e, made);
    return snapshotOf(e, rank, made);
  }
}

function asList(value: FieldValue | undefined): FieldValue[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

function snapshotOf(
  e: EntryRecord,
  rank: number,
  t: EntryText & { readonly timestamps: string; readonly hash: string; readonly withTimestamps?: EntryText },
): EntrySnapshot {
  const base = { record: e, rank, json: t.json, offsets: t.offsets, timestamps: t.timestamps, hash: t.hash };
  return t.withTimestamps ? { ...base, withTimestamps: t.withTimestamps } : base;
}

function collectionSnapshot(col: CollectionRecord, entries: readonly EntrySnapshot[]): CollectionSnapshot {
  return {
    record: col,
    fields: new Map(col.fields.map((f) => [f.name, f])),
    visibleFields: col.fields.filter((f) => !f.hidden),
    entries,
    byId: new Map(entries.map((e) => [e.record.id, e])),
    publishedCount: col.entries.reduce((n, e) => (e.draft ? n : n + 1), 0),
    numericIds: idsAreIntegers(col.entries),
  };
}

/** `entries` makes each collection's entry snapshots (serialised now, or from a compact snapshot's texts). */
function projectSnapshot(
  project: ProjectRecord,
  baseUrl: string,
  entries: (
    col: CollectionRecord,
    index: number,
    dialect: Dialect,
    mediaById: ReadonlyMap<string, MediaSnapshot>,
  ) => readonly EntrySnapshot[],
): ProjectSnapshot {
  const dialect = dialectOf(project);
  const media = [...project.media].sort(dialect.compareMedia).map((m) => mediaSnapshot(m, project.id, baseUrl, dialect));
  const mediaById = new Map(media.map((m) => [m.record.id, m]));
  const mediaByKey = new Map<string, MediaSnapshot>();
  // First come, first kept: two files of one name answer /name/<file> with the one listed first.
  for (const m of media) for (const k of dialect.mediaKeys(m.record)) if (!mediaByKey.has(k)) mediaByKey.set(k, m);
  return {
    record: project,
    dialect,
    collections: new Map(project.collections.map((c, i) => [c.slug, collectionSnapshot(c, entries(c, i, dialect, mediaById))])),
    media,
    mediaById,
    mediaByKey,
    tokens: new Map(project.tokens.map((t) => [t.sha256, t])),
  };
}

function serialisedProject(
  project: ProjectRecord,
  baseUrl: string,
  reuse: boolean,
  intern: ((key: string) => string) | undefined,
): ProjectSnapshot {
  let writer: EntryWriter | undefined;
  return projectSnapshot(project, baseUrl, (col, _i, dialect, mediaById) => {
    writer ??= new EntryWriter(project, mediaById, dialect, reuse, intern);
    return col.entries.map((record, rank) => (writer as EntryWriter).entry(col, record, rank));
  });
}

/**
 * Adds `items` to `list` one by one: push(...items) passes each as an argument, and an entry
 * relating to 100,000s of entries is more arguments than the stack holds (found from outside:
 * `cqa build` stopped with "Maximum call stack size exceeded").
 */
function append<T>(list: T[], items: readonly T[]): void {
  for (const item of items) list.push(item);
}

/** A fast non-cryptographic 2×53-bit string hash (cyrb53), enough to tell snapshots apart. */
function hashStrings(parts: Iterable<string>): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const s of parts) {
    for (let i = 0; i < s.length; i++) {
      const ch = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ 0x1f, 2654435761); // separator, so ['ab','c'] ≠ ['a','bc']
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  // Joined, not concatenated: a flat string rather than a pair kept per entry.
  return [(h2 >>> 0).toString(16).padStart(8, '0'), (h1 >>> 0).toString(16).padStart(8, '0')].join('');
}

/** A project's record as the OpenAPI description reads it: all but its entries and media. */
function describedPart(p: ProjectRecord): unknown {
  return { ...p, media: undefined, collections: p.collections.map((c) => ({ ...c, entries: undefined })) };
}

/**
 * What the hash covers: every answer's text, and what the OpenAPI description is made of (each
 * project's settings and schemas, and the base URL) rather than the description itself, which is
 * made when first asked for, not in every cold start (docs/performance.md#start-up).
 */
function* hashInput(model: ContentModel, projects: ReadonlyMap<string, ProjectSnapshot>, baseUrl: string): Generator<string> {
  yield baseUrl;
  for (const p of model.projects) yield JSON.stringify(describedPart(p));
  for (const p of projects.values()) {
    yield p.dialect.projectJson(p);
    yield String(p.record.public);
    for (const t of p.record.tokens) yield `${t.name}\n${t.sha256}\n${t.scopes.join(',')}`;
    for (const m of p.media) yield m.json;
    for (const c of p.collections.values()) {
      for (const e of c.entries) yield e.hash;
    }
  }
}

function listPaths(projects: ReadonlyMap<string, ProjectSnapshot>): string[] {
  const paths: string[] = [];
  for (const p of projects.values()) {
    const base = `/api/${p.record.id}`;
    paths.push(base, `${base}/${MEDIA_SEGMENT}`);
    for (const k of p.mediaByKey.keys()) paths.push(`${base}/${MEDIA_SEGMENT}/${k}`);
    for (const c of p.collections.values()) {
      paths.push(`${base}/${c.record.slug}`);
      for (const e of c.entries) if (!e.record.draft) paths.push(`${base}/${c.record.slug}/${e.record.id}`);
    }
  }
  return paths.sort();
}

/**
 * The document for a path with no query, published content only. Paths are decoded
 * ('/api/demo/project-media/photos/a b.jpg'), without a trailing slash.
 */
function documentFor(projects: ReadonlyMap<string, ProjectSnapshot>, path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] !== '' || parts[1] !== 'api' || parts.length < 3) return undefined;
  const project = projects.get(parts[2] as string);
  if (!project) return undefined;
  const d = project.dialect;
  if (parts.length === 3) return d.projectJson(project);
  if (parts[3] === MEDIA_SEGMENT) {
    if (parts.length === 4)
      return d.list(
        project.media.map((m) => m.json),
        project.media.length,
        null,
        0,
      );
    const m = project.mediaByKey.get(parts.slice(4).join('/'));
    return m && d.item(m.json);
  }
  const col = project.collections.get(parts[3] as string);
  if (!col || parts.length > 5) return undefined;
  if (parts.length === 4) {
    const items: string[] = [];
    for (const e of col.entries) if (!e.record.draft) items.push(entryJson(e));
    return d.list(items, items.length, null, 0);
  }
  const e = col.byId.get(parts[4] as string);
  return e && !e.record.draft ? d.item(entryJson(e)) : undefined;
}

/** The OpenAPI document describing `projects` (with media URLs under `baseUrl`). */
export type Describe = (projects: readonly ProjectRecord[], baseUrl: string) => string;

export function createSnapshot(model: ContentModel, options: SnapshotOptions = {}): Snapshot {
  return assembleSnapshot(
    model,
    options,
    (projects, baseUrl) => openapiJson({ projects }, baseUrl),
    options.compact ? compactProjects : undefined,
  );
}

/**
 * createSnapshot with the OpenAPI writer given: loadSnapshot passes the documents its file carries,
 * so that a worker importing content-query-api/edge does not bundle the OpenAPI generator (nor the
 * compact form, `compact`, which only `cqa serve` uses).
 */
export function assembleSnapshot(
  model: ContentModel,
  options: SnapshotOptions,
  describe: Describe,
  compact?: typeof compactProjects,
): Snapshot {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const reuse = compact ? false : (options.reuse ?? true);
  const intern = reuse ? keyInterner() : undefined;
  let projects = new Map(model.projects.map((p) => [p.id, serialisedProject(p, baseUrl, reuse, intern)]));
  const hash = hashStrings(hashInput(model, projects, baseUrl));
  // From here on, only the kept records: the full ones are left to the garbage collector.
  if (compact) ({ model, projects } = compact(projects));
  return finishSnapshot(model, projects, hash, baseUrl, describe);
}

/** The compact snapshot whose data the load process sent (see CompactParts). */
export function snapshotFromParts(parts: CompactParts): Snapshot {
  const { model, baseUrl, texts } = parts;
  const projects = new Map(
    model.projects.map((p, i) => [
      p.id,
      projectSnapshot(p, baseUrl, (col, k, dialect) =>
        entriesFromParts(
          col,
          col.fields.filter((f) => !f.hidden),
          texts[i]![k]!,
          dialect,
        ),
      ),
    ]),
  );
  const describe: Describe = (ps, url) => openapiJson({ projects: ps }, url);
  return finishSnapshot(model, projects, parts.hash, baseUrl, describe);
}

function finishSnapshot(
  model: ContentModel,
  projects: ReadonlyMap<string, ProjectSnapshot>,
  hash: string,
  baseUrl: string,
  describe: Describe,
): Snapshot {
  const openapiOf = (ids: Iterable<string>): string => {
    const wanted = new Set(ids);
    return describe(
      model.projects.filter((p) => wanted.has(p.id)),
      baseUrl,
    );
  };
  // What is served without a token describes the public projects.
  const publicIds = model.projects.filter((p) => p.public).map((p) => p.id);
  let paths: readonly string[] | undefined; // one string per entry: made when asked for (dist/)
  let openapi: string | undefined; // made when first asked for (see hashInput)
  return Object.freeze({
    hash,
    baseUrl,
    projects,
    get paths() {
      return (paths ??= listPaths(projects));
    },
    document: (path: string) => documentFor(projects, path),
    get openapi() {
      return (openapi ??= openapiOf(publicIds));
    },
    openapiOf,
  });
}
