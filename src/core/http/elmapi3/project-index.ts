// What the v3 routes look up in a project, built once per project snapshot: collections by slug,
// entries by uuid and by file name (relations may name either), translation groups, assets by
// uuid / number / original name, the default ("newest first") order. No Node imports.
import { mediaNumber } from '../../dialects/media-number.js';
import type { CollectionSnapshot, EntrySnapshot, MediaSnapshot, ProjectSnapshot } from '../../model/types.js';

export interface CollectionIndex {
  readonly snap: CollectionSnapshot;
  readonly byUuid: ReadonlyMap<string, EntrySnapshot>;
  /** uuid or file name without extension → entry (what relation values may say). */
  readonly byRef: ReadonlyMap<string, EntrySnapshot>;
  /** Newest first: created_at descending, then file path descending (v3: `ORDER BY id DESC`). */
  readonly newestFirst: readonly EntrySnapshot[];
  /** v3's integer `id` (`content_entries.id`): 1 for the oldest entry, in the reverse of newestFirst. */
  readonly dbId: ReadonlyMap<EntrySnapshot, number>;
  /** Translation group key (file name without locale and extension) → its entries. */
  readonly groups: ReadonlyMap<string, readonly EntrySnapshot[]>;
  readonly groupOf: ReadonlyMap<EntrySnapshot, string>;
}

export interface ProjectIndex {
  readonly project: ProjectSnapshot;
  readonly collections: ReadonlyMap<string, CollectionIndex>;
  /** Assets newest first (v3 `created_at DESC`; ours: by path, as files carry no upload time). */
  readonly assets: readonly MediaSnapshot[];
  readonly assetsByKey: ReadonlyMap<string, MediaSnapshot>;
  readonly assetsByName: ReadonlyMap<string, MediaSnapshot>;
  readonly assetByMediaId: ReadonlyMap<string, MediaSnapshot>;
}

const cache = new WeakMap<ProjectSnapshot, ProjectIndex>();

/** `posts/hello.fr.md` → `hello` when `fr` is a locale of the project; the stem without extension otherwise. */
function stems(file: string, locales: readonly string[]): { stem: string; group: string } {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const inner = stem.lastIndexOf('.');
  const group = inner > 0 && locales.includes(stem.slice(inner + 1)) ? stem.slice(0, inner) : stem;
  return { stem, group };
}

function collectionIndex(snap: CollectionSnapshot, locales: readonly string[]): CollectionIndex {
  const byUuid = new Map<string, EntrySnapshot>();
  const byRef = new Map<string, EntrySnapshot>();
  const groups = new Map<string, EntrySnapshot[]>();
  const groupOf = new Map<EntrySnapshot, string>();
  for (const e of snap.entries) {
    byUuid.set(e.record.id, e);
    byRef.set(e.record.id, e);
    const { stem, group } = stems(e.record.file, locales);
    if (!byRef.has(stem)) byRef.set(stem, e);
    const members = groups.get(group) ?? [];
    members.push(e);
    groups.set(group, members);
    groupOf.set(e, group);
  }
  const newestFirst = [...snap.entries].sort(
    (a, b) => compare(b.record.created_at, a.record.created_at) || compare(b.record.file, a.record.file),
  );
  const dbId = new Map(newestFirst.map((e, i) => [e, newestFirst.length - i]));
  return { snap, byUuid, byRef, newestFirst, dbId, groups, groupOf };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function projectIndex(project: ProjectSnapshot): ProjectIndex {
  let index = cache.get(project);
  if (index) return index;
  const collections = new Map([...project.collections].map(([slug, c]) => [slug, collectionIndex(c, project.record.locales)]));
  const assets = [...project.media].sort((a, b) => compare(a.record.id, b.record.id));
  const assetsByKey = new Map<string, MediaSnapshot>();
  const assetsByName = new Map<string, MediaSnapshot>();
  const assetByMediaId = new Map<string, MediaSnapshot>();
  for (const m of assets) {
    assetsByKey.set(m.record.uuid ?? m.record.id, m);
    assetsByKey.set(String(mediaNumber(m.record)), m);
    if (!assetsByName.has(m.record.file_name)) assetsByName.set(m.record.file_name, m);
    assetByMediaId.set(m.record.id, m);
  }
  index = { project, collections, assets, assetsByKey, assetsByName, assetByMediaId };
  cache.set(project, index);
  return index;
}
