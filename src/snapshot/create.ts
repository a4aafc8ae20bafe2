// Content model → snapshot: serialise every entry and media item once, index them, and expose the
// static documents. No Node imports, so a snapshot can be built in any runtime.
import type { CollectionRecord, ContentModel, EntryRecord, FieldDef, FieldValue, MediaRecord, ProjectRecord } from './model.js';
import { idsAreIntegers } from './order.js';
import { openapiJson } from './openapi.js';
import { entryJson, itemJson, listJson, mediaListJson, projectJson } from './serialize.js';
import type { CollectionSnapshot, EntrySnapshot, MediaSnapshot, ProjectSnapshot, Snapshot } from './types.js';

export interface SnapshotOptions {
  /** Prefix of media `full_url`s, e.g. 'https://cdn.example.com' (no trailing slash). Default ''. */
  readonly baseUrl?: string;
}

export const MEDIA_SEGMENT = 'project-media';

export function mediaUrl(baseUrl: string, projectId: string, mediaId: string): string {
  return `${baseUrl}/media/${encodeURIComponent(projectId)}/${mediaId.split('/').map(encodeURIComponent).join('/')}`;
}

function mediaSnapshot(m: MediaRecord, projectId: string, baseUrl: string): MediaSnapshot {
  const full_url = mediaUrl(baseUrl, projectId, m.id);
  const json = JSON.stringify({
    id: m.id,
    file_name: m.file_name,
    full_url,
    mime_type: m.mime_type,
    size: m.size,
    width: m.width,
    height: m.height,
    caption: m.caption,
    alt: m.alt,
  });
  return { record: m, full_url, json };
}

/** Serialises entries of one project: relations expand to the target's shallow JSON (ids only). */
class EntryWriter {
  private readonly shallow = new Map<string, Map<string, string>>();

  constructor(
    private readonly project: ProjectRecord,
    private readonly media: ReadonlyMap<string, MediaSnapshot>,
  ) {}

  /** Shallow JSON of a published entry (its own relations stay ids), memoised per collection. */
  private shallowJson(slug: string, id: string): string | undefined {
    let byId = this.shallow.get(slug);
    if (!byId) {
      byId = new Map();
      const col = this.project.collections.find((c) => c.slug === slug);
      for (const e of col?.entries ?? []) {
        if (!e.draft) byId.set(e.id, this.entryText(col as CollectionRecord, e, false).json);
      }
      this.shallow.set(slug, byId);
    }
    return byId.get(id);
  }

  private valueJson(field: FieldDef, value: FieldValue | undefined, expand: boolean): string {
    const list = field.multiple ? (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]) : null;
    if (field.type === 'media') {
      const one = (id: FieldValue) => this.media.get(String(id))?.json;
      if (list) return `[${list.map(one).filter((s) => s !== undefined).join(',')}]`;
      return (value !== undefined && value !== null && one(value)) || 'null';
    }
    if (field.type === 'relation' && expand && field.collection) {
      const one = (id: FieldValue) => this.shallowJson(field.collection as string, String(id));
      if (list) return `[${list.map(one).filter((s) => s !== undefined).join(',')}]`;
      return (value !== undefined && value !== null && one(value)) || 'null';
    }
    if (list) return JSON.stringify(list);
    return value === undefined ? 'null' : JSON.stringify(value);
  }

  entryText(col: CollectionRecord, e: EntryRecord, expand: boolean): { json: string; offsets: Uint32Array } {
    const visible = col.fields.filter((f) => !f.hidden);
    const offsets = new Uint32Array(visible.length + 1);
    let json = `{"id":${JSON.stringify(e.id)},"locale":${JSON.stringify(e.locale)}`;
    visible.forEach((f, i) => {
      offsets[i] = json.length;
      json += `,${JSON.stringify(f.name)}:${this.valueJson(f, e.values[f.name], expand)}`;
    });
    offsets[visible.length] = json.length;
    return { json: `${json}}`, offsets };
  }
}

function timestampsText(e: EntryRecord): string {
  return `,"created_at":${JSON.stringify(e.created_at)},"updated_at":${JSON.stringify(e.updated_at)},"published_at":${JSON.stringify(e.published_at)}`;
}

function collectionSnapshot(col: CollectionRecord, writer: EntryWriter): CollectionSnapshot {
  const entries: EntrySnapshot[] = col.entries.map((record, rank) => ({
    record,
    rank,
    ...writer.entryText(col, record, true),
    timestamps: timestampsText(record),
  }));
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

function projectSnapshot(project: ProjectRecord, baseUrl: string): ProjectSnapshot {
  const media = project.media.map((m) => mediaSnapshot(m, project.id, baseUrl));
  const mediaById = new Map(media.map((m) => [m.record.id, m]));
  const writer = new EntryWriter(project, mediaById);
  return {
    record: project,
    collections: new Map(project.collections.map((c) => [c.slug, collectionSnapshot(c, writer)])),
    media,
    mediaById,
    tokens: new Map(project.tokens.map((t) => [t.sha256, t])),
  };
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
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

function* hashInput(projects: ReadonlyMap<string, ProjectSnapshot>, openapi: string): Generator<string> {
  yield openapi;
  for (const p of projects.values()) {
    yield projectJson(p);
    yield String(p.record.public);
    for (const t of p.record.tokens) yield `${t.name}\n${t.sha256}\n${t.scopes.join(',')}`;
    for (const m of p.media) yield m.json;
    for (const c of p.collections.values()) {
      for (const e of c.entries) yield `${e.record.draft ? 'D' : 'P'}${e.json}${e.timestamps}`;
    }
  }
}

function listPaths(projects: ReadonlyMap<string, ProjectSnapshot>): string[] {
  const paths: string[] = [];
  for (const p of projects.values()) {
    const base = `/api/${p.record.id}`;
    paths.push(base, `${base}/${MEDIA_SEGMENT}`);
    for (const m of p.media) paths.push(`${base}/${MEDIA_SEGMENT}/${m.record.id}`);
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
  if (parts.length === 3) return projectJson(project);
  if (parts[3] === MEDIA_SEGMENT) {
    if (parts.length === 4) return mediaListJson(project.media);
    const m = project.mediaById.get(parts.slice(4).join('/'));
    return m && itemJson(m.json);
  }
  const col = project.collections.get(parts[3] as string);
  if (!col || parts.length > 5) return undefined;
  if (parts.length === 4) {
    const items: string[] = [];
    for (const e of col.entries) if (!e.record.draft) items.push(entryJson(e));
    return listJson(items, items.length, null, 0);
  }
  const e = col.byId.get(parts[4] as string);
  return e && !e.record.draft ? itemJson(entryJson(e)) : undefined;
}

export function createSnapshot(model: ContentModel, options: SnapshotOptions = {}): Snapshot {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const projects = new Map(model.projects.map((p) => [p.id, projectSnapshot(p, baseUrl)]));
  const openapi = openapiJson(model, baseUrl);
  return Object.freeze({
    hash: hashStrings(hashInput(projects, openapi)),
    baseUrl,
    projects,
    paths: listPaths(projects),
    document: (path: string) => documentFor(projects, path),
    openapi,
  });
}
