// The portable snapshot: everything the query API needs (the content model with drafts, schema,
// token hashes and media metadata, plus the base URL) as one JSON document, and back. Written by
// `cqa build --snapshot` / writeSnapshot(); read by loadSnapshot() in any JavaScript runtime — no
// Node imports, no file system. Loading re-runs createSnapshot on the model: serialising the model
// rather than the finished snapshot keeps the file about as small as the content (no per-entry
// JSON texts, offsets or static documents) and makes the answers exactly those of `cqa serve`.
import { assembleSnapshot } from './create.js';
import type { CollectionRecord, ContentModel, EntryRecord, MediaRecord, ProjectRecord } from '../model/model.js';
import type { Snapshot } from '../model/types.js';

export const SNAPSHOT_FORMAT = 'cqa-snapshot';
export const SNAPSHOT_VERSION = 1;

/** A project as the file holds it: the model's records minus what only the build machine has. */
export type PortableProject = Omit<ProjectRecord, 'collections' | 'media'> & {
  readonly collections: readonly (Omit<CollectionRecord, 'entries'> & {
    readonly entries: readonly (Omit<EntryRecord, 'file'> & { readonly file?: string })[];
  })[];
  readonly media: readonly Omit<MediaRecord, 'source'>[];
};

/** The file's top level (version 1). */
export interface SnapshotFile {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly version: number;
  /** The snapshot's hash, as `/healthz` and dist/manifest.json show it (for telling files apart). */
  readonly hash: string;
  readonly base_url: string;
  readonly projects: readonly PortableProject[];
  /**
   * The OpenAPI documents a server answers, by the sorted ids of the projects each describes
   * (`,`-joined): all projects (for the hash), the public ones, and the public ones plus each
   * token's project. Carried so that a worker needs no OpenAPI generator.
   */
  readonly openapi: Readonly<Record<string, string>>;
}

/** A file that is not a snapshot this version can read. */
export class SnapshotFormatError extends Error {
  override readonly name = 'SnapshotFormatError';
}

// What only the build machine has stays out of the file: an entry's `file` (its path in the content
// tree, for build messages) and a media item's `source` (an absolute path there). Everything else of
// the records is kept, in the model's key order, so the same content always gives the same bytes.
// An elmapi3 project keeps its entries' `file`: its answers read it (a relation may name its target
// by file name, translations are the files of one name, and it breaks ties in the newest-first order).
function portableProject(p: ProjectRecord): PortableProject {
  const keepFile = p.dialect === 'elmapi3';
  return {
    ...p,
    collections: p.collections.map((c) => ({ ...c, entries: c.entries.map(({ file, ...e }) => (keepFile ? { ...e, file } : e)) })),
    media: p.media.map(({ source: _source, ...m }) => m),
  };
}

/** The snapshot as the text of a snapshot file (deterministic: same content, same bytes). */
export function snapshotText(snapshot: Snapshot): string {
  const file: SnapshotFile = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    hash: snapshot.hash,
    base_url: snapshot.baseUrl,
    projects: [...snapshot.projects.values()].map((p) => portableProject(p.record)),
    openapi: openapiDocuments(snapshot),
  };
  return `${JSON.stringify(file)}\n`;
}

const idsKey = (ids: Iterable<string>) => [...ids].sort().join(',');

/** The sets of projects a server of the snapshot describes: all, the public ones, the public ones and each other. */
function audiences(all: readonly ProjectRecord[]): string[][] {
  const publicIds = all.filter((p) => p.public).map((p) => p.id);
  return [all.map((p) => p.id), publicIds, ...all.map((p) => [...new Set([...publicIds, p.id])])];
}

/** Every OpenAPI document a server of this snapshot can answer, by idsKey (see SnapshotFile.openapi). */
function openapiDocuments(snapshot: Snapshot): Record<string, string> {
  const docs: Record<string, string> = {};
  for (const ids of audiences([...snapshot.projects.values()].map((p) => p.record))) docs[idsKey(ids)] ??= snapshot.openapiOf(ids);
  return docs;
}

const decoder = new TextDecoder();

function parse(data: string | ArrayBuffer | ArrayBufferView | SnapshotFile): unknown {
  if (typeof data === 'string') return JSON.parse(data);
  if (data instanceof ArrayBuffer) return JSON.parse(decoder.decode(data));
  if (ArrayBuffer.isView(data)) return JSON.parse(decoder.decode(data));
  return data;
}

function fail(why: string): never {
  throw new SnapshotFormatError(
    `not a snapshot this version of content-query-api can load: ${why} (make it with \`cqa build <content> --snapshot <file>\`)`,
  );
}

/**
 * A Snapshot from a snapshot file's contents: its text, its bytes (an ArrayBuffer or a
 * Uint8Array, e.g. from a KV or R2 binding), or the parsed object. Media records get
 * `source` = `<project id>/<media id>`, the file's path under a build's `media/` folder, which is
 * the key a `readMedia` can look the bytes up by.
 */
export function loadSnapshot(data: string | ArrayBuffer | ArrayBufferView | SnapshotFile): Snapshot {
  let file: unknown;
  try {
    file = parse(data);
  } catch (e) {
    fail(`the text is not JSON (${(e as Error).message})`);
  }
  if (typeof file !== 'object' || file === null) fail('expected a JSON object');
  const f = file as Partial<SnapshotFile>;
  if (f.format !== SNAPSHOT_FORMAT) fail(`"format" is ${JSON.stringify(f.format)}, expected "${SNAPSHOT_FORMAT}"`);
  if (f.version !== SNAPSHOT_VERSION) fail(`format version ${JSON.stringify(f.version)}, this version reads ${SNAPSHOT_VERSION}`);
  if (!Array.isArray(f.projects)) fail('"projects" is not a list');
  if (typeof f.base_url !== 'string') fail('"base_url" is not a string');
  const docs = f.openapi;
  if (typeof docs !== 'object' || docs === null) fail('"openapi" is not an object');
  const model: ContentModel = { projects: f.projects.map(project) };
  const described = (ids: readonly string[]): string => {
    const key = idsKey(ids);
    const doc = Object.hasOwn(docs, key) ? docs[key] : undefined;
    if (typeof doc !== 'string') fail(`no OpenAPI document for the projects ${key || '(none)'}`);
    return doc;
  };
  // A snapshot describes its projects when first asked: a file that lacks a description fails here, not at a request.
  for (const ids of audiences(model.projects)) described(ids);
  return assembleSnapshot(model, { baseUrl: f.base_url, reuse: false }, (projects) => described(projects.map((p) => p.id)));
}

function project(p: PortableProject): ProjectRecord {
  if (typeof p?.id !== 'string' || !Array.isArray(p.collections) || !Array.isArray(p.media) || !Array.isArray(p.tokens)) {
    fail('a project lacks its id, collections, media or tokens');
  }
  return {
    ...p,
    collections: p.collections.map(collection),
    media: p.media.map((m): MediaRecord => ({ ...m, source: `${p.id}/${m.id}` })),
  };
}

function collection(c: PortableProject['collections'][number]): CollectionRecord {
  if (typeof c?.slug !== 'string' || !Array.isArray(c.fields) || !Array.isArray(c.entries) || !Array.isArray(c.sort)) {
    fail('a collection lacks its slug, fields, sort or entries');
  }
  return { ...c, entries: c.entries.map((e): EntryRecord => ({ ...e, file: typeof e.file === 'string' ? e.file : '' })) };
}
