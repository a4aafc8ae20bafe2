// Entries and assets as ElmapiCMS v3 shows them (sheet §2.4, §5.1): `{uuid, locale, published_at,
// fields: {…}}`, groups first, absent values absent, `fields: []` when nothing is left; relations
// embedded at any depth with cycle stubs; assets with uuid, formatted size and metadata. Published
// mode shows stored values (numbers as numbers, dates `Y-m-d H:i:s`); draft mode the live column
// formats (numbers `"25.000000"`, dates `…T00:00:00.000000Z`). No Node imports.
import { ownValue, type FieldDef, type FieldValue } from '../../model/model.js';
import type { EntrySnapshot, MediaSnapshot } from '../../model/types.js';
import { fieldValue } from '../../query/table.js';
import type { ProjectIndex } from './project-index.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface RenderOptions {
  readonly draft: boolean;
  readonly timestamps: boolean;
  readonly exclude: ReadonlySet<string>;
  /** Absolute origin for relative asset URLs (`http://host`). */
  readonly origin: string;
  /** Called once when an answer reaches the embedding bounds and the rest of its relations are stubs. */
  readonly onStubbed?: () => void;
}

/**
 * How much one answer may embed: a relation web grows with entries × fan-out × entry size (30
 * entries related to each other made 68 MB, with long bodies over V8's longest string). Past
 * either bound, the rest of the relations are stubs; past twice the characters, relations and media
 * are left out. `depth`: relations nested deeper are stubs too (found by fuzzing: a chain of 3,000
 * entries each related to the next embedded 3,000 levels and overflowed the stack, a 500 for every
 * list that held its first entry).
 */
export const EMBED_BOUNDS = { entries: 20_000, chars: 8 * 1024 * 1024, depth: 100 };
/** A stub's characters, roughly: `{"uuid":"…36…","locale":"en","published_at":"…","fields":[]}`. */
const STUB_CHARS = 110;
/** An asset's object, roughly (uuid, filename, mime type, size, urls, metadata). */
const ASSET_CHARS = 700;

/** Characters a value adds to an answer, roughly; a json field's object measured once. */
function sizeOf(v: FieldValue): number {
  if (typeof v === 'string') return v.length;
  if (v === null || typeof v !== 'object') return 8;
  if (Array.isArray(v)) return v.reduce<number>((n, x) => n + sizeOf(x), 2);
  let size = objectSizes.get(v);
  if (size === undefined) objectSizes.set(v, (size = JSON.stringify(v)?.length ?? 0));
  return size;
}
const objectSizes = new WeakMap<object, number>();

export class Renderer {
  private embedded = 0;
  private chars = 0;
  private stubbed = false;
  /** The entries being embedded, outermost first: one of them again is a cycle (a stub). */
  private readonly path = new Set<EntrySnapshot>();

  constructor(
    private readonly index: ProjectIndex,
    private readonly o: RenderOptions,
  ) {}

  entry(e: EntrySnapshot, slug: string): Json {
    const r = e.record;
    const head: { [key: string]: Json } = { uuid: r.id, locale: r.locale, published_at: iso8601(r.published_at) };
    const col = this.index.collections.get(slug);
    // Published mode shows the published snapshot: an entry never published has none.
    let fields: { [key: string]: Json } = {};
    if (this.o.draft || !r.draft) {
      this.path.add(e);
      try {
        fields = this.fields(e, col?.snap.record.fields ?? []);
      } finally {
        this.path.delete(e);
      }
    }
    head.fields = Object.keys(fields).length === 0 ? [] : fields;
    if (this.o.timestamps) {
      head.created_at = iso8601(r.created_at);
      head.updated_at = iso8601(r.updated_at);
    }
    return head;
  }

  /** Past twice the bound even stubs and assets are left out: a page of entries holding 100,000 media or stubs each. */
  private full(): boolean {
    if (this.chars <= 2 * EMBED_BOUNDS.chars) return false;
    this.reachedBound();
    return true;
  }

  private reachedBound(): void {
    if (!this.stubbed) this.o.onStubbed?.();
    this.stubbed = true;
  }

  private stub(e: EntrySnapshot): Json {
    this.chars += STUB_CHARS; // counted too: 20,000 entries with 250 relations each are 5 million stubs
    return { uuid: e.record.id, locale: e.record.locale, published_at: iso8601(e.record.published_at), fields: [] };
  }

  private fields(e: EntrySnapshot, defs: readonly FieldDef[]): { [key: string]: Json } {
    const out: { [key: string]: Json } = {};
    const ordered = [...defs.filter((f) => f.type === 'group'), ...defs.filter((f) => f.type !== 'group')];
    for (const f of ordered) {
      if (f.hidden || f.type === 'password' || this.o.exclude.has(f.name)) continue;
      const v = this.value(f, fieldValue(e, f.name));
      if (v !== undefined) out[f.name] = v;
    }
    return out;
  }

  private value(f: FieldDef, v: FieldValue | undefined): Json | undefined {
    if (v === undefined || v === null || v === '') return undefined;
    // A group and a relation are counted by what they hold, media by their assets.
    if (f.type !== 'group' && f.type !== 'relation' && f.type !== 'media') this.chars += sizeOf(v);
    switch (f.type) {
      case 'group': {
        const instance = (item: FieldValue): Json => {
          const o: { [key: string]: Json } = {};
          for (const c of f.fields ?? []) {
            if (c.hidden || c.type === 'password' || this.o.exclude.has(c.name)) continue;
            const cv = this.value(
              c,
              item !== null && typeof item === 'object' && !Array.isArray(item) ? ownValue(item, c.name) : undefined,
            );
            if (cv !== undefined) o[c.name] = cv;
          }
          return Object.keys(o).length === 0 ? [] : o;
        };
        return f.repeatable ? (Array.isArray(v) ? v : [v]).map(instance) : instance(v);
      }
      case 'media': {
        const assets: Json[] = [];
        for (const id of asList(v)) {
          const m = this.index.assetByMediaId.get(String(id));
          if (!m) continue;
          if (this.full()) break;
          this.chars += ASSET_CHARS;
          assets.push(assetJson(m, this.o.origin));
        }
        return assets;
      }
      case 'relation': {
        const target = this.index.collections.get(f.collection ?? '');
        const items: Json[] = [];
        for (const ref of asList(v)) {
          const t = target?.byRef.get(String(ref));
          // v3 embeds related drafts too (as `fields: []`); cqa's promise is that no answer without drafts names one.
          if (!t || (t.record.draft && !this.o.draft)) continue;
          if (this.full()) break;
          if (this.path.has(t)) items.push(this.stub(t));
          else if (this.path.size >= EMBED_BOUNDS.depth || ++this.embedded > EMBED_BOUNDS.entries || this.chars > EMBED_BOUNDS.chars) {
            this.reachedBound();
            items.push(this.stub(t));
          } else items.push(this.entry(t, f.collection as string));
        }
        return f.multiple ? items : (items[0] ?? null);
      }
      case 'number':
        return f.multiple ? asList(v).map((n) => this.number(n)) : this.number(v);
      case 'enumeration':
        return asList(v).map(String);
      case 'json':
        return v !== null && typeof v === 'object' ? (v as Json) : [v];
      case 'date':
      case 'datetime':
        if (f.range && typeof v === 'object' && !Array.isArray(v)) {
          return { start: this.date(ownValue(v, 'start') ?? null), end: this.date(ownValue(v, 'end') ?? null) };
        }
        return f.multiple ? asList(v).map((d) => this.date(d)) : this.date(v);
      default:
        return f.multiple ? asList(v).map((x) => x as Json) : (v as Json);
    }
  }

  private number(n: FieldValue): Json {
    // The live column is decimal(…, 6): drafts show it as a string.
    return this.o.draft && typeof n === 'number' ? n.toFixed(6) : (n as Json);
  }

  private date(d: FieldValue): Json {
    if (typeof d !== 'string') return null;
    const iso = d.length === 10 ? `${d}T00:00:00.000Z` : d;
    return this.o.draft ? `${iso.slice(0, 19)}.000000Z` : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  }
}

function asList(v: FieldValue): FieldValue[] {
  return Array.isArray(v) ? v : [v];
}

/** ISO 8601 UTC with seconds and `+00:00` (Carbon's toIso8601String). */
export function iso8601(iso: string | null): string | null {
  return iso === null ? null : `${iso.slice(0, 19)}+00:00`;
}

/** Carbon's toJSON: microseconds and `Z`. */
export function carbonJson(iso: string): string {
  return `${iso.slice(0, 19)}.000000Z`;
}

/** PHP's number_format(v, 2): `1,234.56`. */
function twoDecimals(v: number): string {
  const [whole, frac] = v.toFixed(2).split('.') as [string, string];
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/** AssetService::formatBytes: `100 bytes`, `35.12 KB`, `1.50 MB`, `x.xx GB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 ** 2) return `${twoDecimals(bytes / 1024)} KB`;
  if (bytes < 1024 ** 3) return `${twoDecimals(bytes / 1024 ** 2)} MB`;
  return `${twoDecimals(bytes / 1024 ** 3)} GB`;
}

/** What v3 calls an image (it makes a thumbnail of these). */
const IMAGE = /\.(jpe?g|png|gif|webp|svg|bmp)$/i;
/** What v3 converts to WebP on upload, keeping the original (so these have an `original_url`). */
const CONVERTED = /\.(jpe?g|png|gif|webp|bmp)$/i;

export function absolute(url: string, origin: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `${origin}${url}`;
}

/** An asset (AssetResource). We serve the file as it is (no WebP conversion): see docs/dialects.md. */
export function assetJson(m: MediaSnapshot, origin: string): Json {
  const r = m.record;
  const url = absolute(m.full_url, origin);
  const image = IMAGE.test(r.file_name);
  const thumb = m.thumb ? absolute(m.full_url.replace('/media/', '/thumbs/'), origin) : url;
  const stamp = '1970-01-01T00:00:00.000000Z';
  return {
    uuid: r.uuid ?? r.id,
    filename: r.file_name,
    mime_type: r.mime_type,
    size: formatSize(r.size),
    url,
    original_url: CONVERTED.test(r.file_name) ? url : null,
    thumbnail_url: image ? thumb : null,
    pending_image_processing: false,
    metadata: image
      ? {
          width: r.width,
          height: r.height,
          duration: null,
          bitrate: null,
          framerate: null,
          channels: null,
          alt_text: r.alt ?? r.file_name.replace(/\.[^.]*$/, ''),
          title: null,
          caption: r.caption,
          description: null,
          author: null,
          copyright: null,
          metadata: null,
          created_at: stamp,
          updated_at: stamp,
        }
      : null,
  };
}

/** json_encode without flags: `/` as `\/`, everything beyond ASCII as `\uXXXX`. */
export function phpJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff/]/g, (c) =>
    c === '/' ? '\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
