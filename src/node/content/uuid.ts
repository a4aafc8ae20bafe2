// Uuids of the `elmapi3` dialect: project, entry and media ids are `Str::uuid()` strings there.
// Ids a file does not give are derived (RFC 9562 version 5, SHA-1 in a namespace), so the same
// content tree gives the same uuids on every machine and every build.
import { createHash } from 'node:crypto';

/** 36 characters, lower-case hex, hyphenated 8-4-4-4-12 (what ElmapiCMS stores and matches exactly). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** The version-5 uuid of `name` in the namespace `namespace` (itself a uuid). */
export function uuidV5(namespace: string, name: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An entry's uuid when its file gives none: from the project uuid, the collection slug and the file name. */
export function entryUuid(projectUuid: string, collection: string, fileName: string): string {
  return uuidV5(projectUuid, `entry:${collection}/${fileName}`);
}

/** A media item's uuid when _media.yaml gives none: from the project uuid and its path under media/. */
export function mediaUuid(projectUuid: string, mediaId: string): string {
  return uuidV5(projectUuid, `media:${mediaId}`);
}

export const UUID_HINT =
  'a uuid: 36 characters, lower-case hex, hyphenated like 550e8400-e29b-41d4-a716-446655440000 (make one with `node -e "console.log(crypto.randomUUID())"`)';

/** `; write it in lower case: id: 3f6c…` (`as`: 'id: ') for a uuid written in capitals, as some tools print them; else ''. */
export function lowerCaseHint(value: unknown, as: string): string {
  const lower = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return value !== lower && UUID.test(lower) ? `; write it in lower case: ${as}${lower}` : '';
}
