// The `elmapi` dialect: the shapes, statuses and messages of the original ElmapiCMS content API
// (/work/shared/elmapi-dialect.md; docs/dialects.md lists where we deliberately differ). Bare
// arrays and objects, integer ids, `YYYY-MM-DD HH:MM:SS` timestamps, absent fields absent,
// `{"error": …}` bodies. No Node imports.
import { STATUS_TITLES, type Problem } from '../http/problem.js';
import type { FieldValue } from '../model/model.js';
import { mediaNumber } from './media-number.js';
import type { Dialect, ErrorAnswer } from './types.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const INTEGER = /^(0|[1-9][0-9]{0,14})$/;
/** What the original calls an image (it gives these a thumb, a width and a height). */
const IMAGE = /\.(jpe?g|png|bmp|gif|webp)$/i;

export function isElmapiImage(fileName: string): boolean {
  return IMAGE.test(fileName);
}

/** `2021-11-25T10:00:00.000Z` → `2021-11-25 10:00:00` (Carbon's toDateTimeString, in UTC). */
export function elmapiTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

function idJson(id: string): string {
  return INTEGER.test(id) ? id : JSON.stringify(id);
}

function asList(value: FieldValue | undefined): FieldValue[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

const error = (status: number, message: string): ErrorAnswer => ({
  status,
  contentType: JSON_TYPE,
  body: JSON.stringify({ error: message }),
});

/** Laravel 9's default `throttle:api` limit (RouteServiceProvider): 60 requests a minute. */
const RATE_LIMIT = 60;

/**
 * A failure injected by the mock server (--fail-rate, `Prefer: status=`), as Laravel answers it:
 * the throttle middleware's 429 with its rate-limit headers, the exception handler's 500, the
 * maintenance mode's 503; other statuses say their reason phrase the same way.
 */
function injectedError(status: number, retryAfter: number): ErrorAnswer {
  if (status === 404) return error(404, 'Not found!');
  const message = status === 429 ? 'Too Many Attempts.' : status === 500 ? 'Server Error' : (STATUS_TITLES[status] ?? 'Error');
  const answer = { status, contentType: JSON_TYPE, body: JSON.stringify({ message }) };
  if (status !== 429) return answer;
  const reset = Math.floor(Date.now() / 1000) + retryAfter;
  return {
    ...answer,
    headers: { 'x-ratelimit-limit': String(RATE_LIMIT), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
  };
}

function elmapiError(p: Problem): ErrorAnswer {
  // Laravel's own answer for auth:sanctum (the original answers it with a 200, a bug no client should rely on).
  if (p.status === 401) return { status: 401, contentType: JSON_TYPE, body: '{"message":"Unauthenticated."}' };
  if (p.code === 'insufficient_scope') return error(404, "API token does'nt have the right permissions!"); // (sic)
  const s = p.situation;
  switch (s?.kind) {
    case 'injected':
      return injectedError(p.status, s.retryAfter ?? 0);
    case 'project_not_found':
      return error(404, 'Project not found!');
    case 'collection_not_found':
      return error(404, 'Collection not found!');
    case 'entry_not_found':
      return error(404, 'Not found!');
    case 'media_not_found':
      return error(404, 'File not found!');
    case 'relation_no_match':
      return error(404, 'Record not found!');
    case 'where_shape':
      return error(422, 'Incorrect where statement. See documentation: #where-clauses');
    case 'between_count':
      return error(422, 'Incorrect where statement');
    case 'unknown_field':
      return error(422, `Field not found [${s.name}]`);
    case 'relation_shape':
      return error(422, 'Incorrect whereRelation statement. See documentation: #where-through-relation');
    case 'not_a_relation':
      return error(422, 'This field is not a relation type field.');
    case 'relation_target_field':
      return error(422, `Relation field not found [${s.name}]`);
    case 'sort_direction':
      return error(422, 'Incorrect sort statement');
    case 'offset_without_limit':
      return error(422, 'Incorrect offset statement. Offset must be used with limit. Documentation: #limit');
    default:
      // Our stricter checks: in the dialect's shape, with our detail and code; a bad query is a 422 there.
      return { status: p.status === 400 ? 422 : p.status, contentType: JSON_TYPE, body: JSON.stringify({ error: p.detail, code: p.code }) };
  }
}

export const elmapi: Dialect = {
  name: 'elmapi',
  query: {
    foldText: true,
    sortNeedsDirection: true,
    offsetNeedsLimit: true,
    flagsByPresence: true,
    timestampsByDay: true,
    relationContains: true,
    mediaIdsAreNumbers: true,
  },

  idJson,
  entryHead: (e) => `{"id":${idJson(e.id)},"locale":${JSON.stringify(e.locale)}`,
  entryTimestamps: (e) =>
    `,"created_at":"${elmapiTime(e.created_at)}","updated_at":"${elmapiTime(e.updated_at)}"${e.published_at === null ? '' : `,"published_at":"${elmapiTime(e.published_at)}"`}`,
  timestampsFirst: true,
  fieldPart: (name, json) => (json === undefined ? '' : `,${JSON.stringify(name)}:${json}`),
  fieldJson(f, value, media) {
    if (value === undefined || value === null) return undefined;
    if (f.type === 'media') {
      if (f.multiple)
        return `[${asList(value)
          .map((id) => media(String(id)))
          .filter((s) => s !== undefined)
          .join(',')}]`;
      return media(String(value));
    }
    // The original stores a json field as text and returns that text; several enumeration values as one string.
    if (f.type === 'json') return JSON.stringify(JSON.stringify(value));
    if (f.type === 'enumeration' && f.multiple) return JSON.stringify(asList(value).join(','));
    if (f.multiple) return JSON.stringify(asList(value));
    return JSON.stringify(value);
  },
  relationJson: (f, present, items) => (!present ? undefined : f.multiple ? `[${items.join(',')}]` : items[0]),

  thumbnails: true,
  mediaJson(m, fullUrl, thumbUrl) {
    const image = isElmapiImage(m.file_name);
    return JSON.stringify({
      id: mediaNumber(m),
      file_name: m.file_name,
      full_url: fullUrl,
      ...(image ? { thumb: thumbUrl } : {}),
      caption: m.caption,
      size: m.size,
      ...(image ? { width: m.width, height: m.height } : {}),
    });
  },
  mediaKeys: (m) => [String(mediaNumber(m)), `name/${m.file_name}`],
  compareMedia: (a, b) => mediaNumber(a) - mediaNumber(b),

  projectJson: (p) => JSON.stringify({ uuid: p.record.id, name: p.record.name, description: p.record.description }),
  list: (items) => `[${items.join(',')}]`,
  item: (json) => json,
  count: (n) => String(n),

  error: elmapiError,
};
