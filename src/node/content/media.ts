// Project media: every file under media/ (SPEC §2.5), with caption/alt from media/_media.yaml and
// the pixel size of images read from the first bytes of the file.
import { closeSync, readSync } from 'node:fs';
import { lookup } from 'mrmime';
import { mediaNumber } from '../../core/dialects/media-number.js';
import type { MediaRecord } from '../../core/model/model.js';
import type { ParseCache } from './parse-cache.js';
import { describe, isPlainObject, type IssueList } from './issues.js';
import type { ParsedYaml } from './parse.js';
import { openListed, type ListedFile } from './open-content.js';
import { isUuid, lowerCaseHint, UUID_HINT } from './uuid.js';
import { imageSizePackage } from './image-size-package.js';

export interface Dimensions {
  readonly width: number | null;
  readonly height: number | null;
}

const NO_SIZE: Dimensions = { width: null, height: null };
// Most formats put their size in the first few hundred bytes; JPEG may come after a large EXIF
// block, so a second, larger read covers that.
const HEAD_BYTES = [16 * 1024, 1024 * 1024];

export function mimeType(fileName: string): string {
  return lookup(fileName) ?? 'application/octet-stream';
}

/** Width and height of an image file (null for other files and unreadable images). */
export async function readDimensions(file: ListedFile, mime: string, size: number, cache?: ParseCache): Promise<Dimensions> {
  if (!mime.startsWith('image/') || size === 0) return NO_SIZE;
  // As in read.ts: only the file the listing saw (not a link or FIFO put in its place since).
  // Sync reads, as for the other files (load.ts): a promise-based handle cost several times more.
  const { fd } = openListed(file);
  try {
    for (const limit of HEAD_BYTES) {
      const length = Math.min(size, limit);
      const bytes = new Uint8Array(length);
      readSync(fd, bytes, 0, length, 0);
      const first = limit === HEAD_BYTES[0];
      const known = first ? cache?.dimensions(bytes) : undefined;
      if (known) return known;
      // Loaded by the first image not in the cache (~20 ms of a cold start).
      const { imageSize } = imageSizePackage();
      try {
        const r = imageSize(bytes);
        // EXIF orientations 5–8 are rotated by a quarter turn: report the size as displayed.
        const turned = r.orientation !== undefined && r.orientation >= 5;
        const dimensions = { width: (turned ? r.height : r.width) ?? null, height: (turned ? r.width : r.height) ?? null };
        if (first) cache?.keepDimensions(bytes, dimensions);
        return dimensions;
      } catch {
        if (length === size) break;
      }
    }
    return NO_SIZE;
  } finally {
    closeSync(fd);
  }
}

export interface MediaMeta {
  readonly caption: string | null;
  readonly alt: string | null;
  /** `id:` — the item's integer id in the `elmapi` dialect. */
  readonly number?: number;
  /** `uuid:` — the item's uuid in the `elmapi3` dialect. */
  readonly uuid?: string;
}

/**
 * Reads media/_media.yaml: `<media id>: { caption, alt }`, plus `id` (an integer) in a project of
 * the `elmapi` dialect. Unknown ids are reported.
 */
export function readMediaMeta(
  parsed: ParsedYaml | undefined,
  mediaIds: ReadonlySet<string>,
  file: string,
  issues: IssueList,
  numbered = false,
  withUuid = false,
): Map<string, MediaMeta> {
  const meta = new Map<string, MediaMeta>();
  if (!parsed) return meta;
  for (const p of parsed.problems) issues.error(file, p.message, { line: p.line, frame: p.frame });
  if (parsed.problems.length > 0 || parsed.value === null || parsed.value === undefined) return meta;
  if (!isPlainObject(parsed.value)) {
    issues.error(file, `expected a mapping of media ids to { caption, alt }, got ${describe(parsed.value)}`, { line: 1 });
    return meta;
  }
  for (const [id, value] of Object.entries(parsed.value)) {
    const err = (path: string[], message: string) => issues.error(file, message, { line: parsed.lineOf([id, ...path]), field: id });
    if (!mediaIds.has(id)) {
      err([], `no media file '${id}' under media/ (keys are paths under media/, like images/cover.jpg)`);
      continue;
    }
    if (!isPlainObject(value)) {
      err([], `expected { caption, alt }, got ${describe(value)}`);
      continue;
    }
    const text = (key: 'caption' | 'alt'): string | null => {
      const v = value[key];
      if (v === undefined || v === null) return null;
      if (typeof v === 'string' || typeof v === 'number') return String(v);
      err([key], `${key}: expected text, got ${describe(v)}`);
      return null;
    };
    for (const key of Object.keys(value)) {
      if (key !== 'caption' && key !== 'alt' && !(numbered && key === 'id') && !(withUuid && key === 'uuid')) {
        err([key], `unknown key '${key}'; media keys are caption, alt${numbered ? ', id' : ''}${withUuid ? ', uuid' : ''}`);
      }
    }
    let number: number | undefined;
    if (numbered && value.id !== undefined && value.id !== null) {
      if (typeof value.id === 'number' && Number.isSafeInteger(value.id) && value.id > 0) number = value.id;
      else err(['id'], `id: expected a positive integer (the media item's id in the elmapi dialect), got ${describe(value.id)}`);
    }
    let uuid: string | undefined;
    if (withUuid && value.uuid !== undefined && value.uuid !== null) {
      if (isUuid(value.uuid)) uuid = value.uuid;
      else err(['uuid'], `uuid: expected ${UUID_HINT}, got ${describe(value.uuid)}${lowerCaseHint(value.uuid, 'uuid: ')}`);
    }
    meta.set(id, {
      caption: text('caption'),
      alt: text('alt'),
      ...(number !== undefined ? { number } : {}),
      ...(uuid !== undefined ? { uuid } : {}),
    });
  }
  return meta;
}

export function mediaRecord(id: string, source: string, size: number, dims: Dimensions, meta: MediaMeta | undefined): MediaRecord {
  const fileName = id.slice(id.lastIndexOf('/') + 1);
  return {
    id,
    file_name: fileName,
    mime_type: mimeType(fileName),
    size,
    width: dims.width,
    height: dims.height,
    caption: meta?.caption ?? null,
    alt: meta?.alt ?? null,
    source,
    ...(meta?.number !== undefined ? { number: meta.number } : {}),
    ...(meta?.uuid !== undefined ? { uuid: meta.uuid } : {}),
  };
}

/**
 * Two media files of a project with the same integer id (given twice in _media.yaml, or a derived
 * one that happens to equal another): an error naming both, with the fix.
 */
export function checkMediaNumbers(media: readonly MediaRecord[], file: string, issues: IssueList): void {
  const seen = new Map<number, string>();
  for (const m of media) {
    const n = mediaNumber(m);
    const other = seen.get(n);
    if (other !== undefined) {
      issues.error(file, `media '${m.id}' and '${other}' have the same id ${n}; give one of them another 'id:' in media/_media.yaml`, {
        field: m.id,
      });
    } else seen.set(n, m.id);
  }
}
