// The `cqa` dialect (SPEC §4): `{"data":…,"meta":…}` envelopes, string ids, ISO timestamps, every
// visible field present (null or [] when empty), RFC 9457 problem documents. No Node imports.
import { PROBLEM_CONTENT_TYPE, problemJson } from '../http/problem.js';
import type { FieldValue } from '../model/model.js';
import { compareCodePoints } from '../snapshot/order.js';
import { countJson, itemJson, listJson, projectJson } from '../snapshot/serialize.js';
import type { Dialect } from './types.js';

function asList(value: FieldValue | undefined): FieldValue[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

export const cqa: Dialect = {
  name: 'cqa',
  query: {
    foldText: false,
    sortNeedsDirection: false,
    offsetNeedsLimit: false,
    flagsByPresence: false,
    timestampsByDay: false,
    relationContains: false,
    mediaIdsAreNumbers: false,
  },

  idJson: (id) => JSON.stringify(id),
  entryHead: (e) => `{"id":${JSON.stringify(e.id)},"locale":${JSON.stringify(e.locale)}`,
  entryTimestamps: (e) =>
    `,"created_at":${JSON.stringify(e.created_at)},"updated_at":${JSON.stringify(e.updated_at)},"published_at":${JSON.stringify(e.published_at)}`,
  timestampsFirst: false,
  fieldPart: (name, json) => `,${JSON.stringify(name)}:${json ?? 'null'}`,
  fieldJson(f, value, media) {
    if (f.type === 'media') {
      if (f.multiple)
        return `[${asList(value)
          .map((id) => media(String(id)))
          .filter((s) => s !== undefined)
          .join(',')}]`;
      return (value !== undefined && value !== null && media(String(value))) || 'null';
    }
    if (f.multiple) return JSON.stringify(asList(value));
    return value === undefined ? 'null' : JSON.stringify(value);
  },
  relationJson: (f, _present, items) => (f.multiple ? `[${items.join(',')}]` : (items[0] ?? 'null')),

  thumbnails: false,
  mediaJson: (m, fullUrl) =>
    JSON.stringify({
      id: m.id,
      file_name: m.file_name,
      full_url: fullUrl,
      mime_type: m.mime_type,
      size: m.size,
      width: m.width,
      height: m.height,
      caption: m.caption,
      alt: m.alt,
    }),
  mediaKeys: (m) => [m.id],
  compareMedia: (a, b) => compareCodePoints(a.id, b.id),

  projectJson,
  list: listJson,
  item: itemJson,
  count: countJson,

  error: (p) => ({ status: p.status, contentType: PROBLEM_CONTENT_TYPE, body: problemJson(p) }),
};
