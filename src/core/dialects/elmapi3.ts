// The `elmapi3` dialect: today's ElmapiCMS (v3 / 4.0) read API (/work/shared/elmapi3-dialect.md).
// Its answers are made per request by src/core/http/elmapi3/ (the project comes from the `project-id`
// header, entries nest their fields); this object is what the shared snapshot code asks of every
// dialect: the precomputed documents use the `elmapi` shapes and are never served under the v3
// routes. Errors are worded as v3 words them (`{"message": …}`). No Node imports.
import { STATUS_TITLES, type Problem } from '../http/problem.js';
import { elmapi } from './elmapi.js';
import type { Dialect, ErrorAnswer } from './types.js';

const JSON_TYPE = 'application/json';

export const message = (status: number, text: string): ErrorAnswer => ({
  status,
  contentType: JSON_TYPE,
  body: JSON.stringify({ message: text }),
});

/** Laravel's `throttle:api` in ElmapiCMS 4.0 (config `app.api_rate_limit_per_minute`). */
export const RATE_LIMIT = 300;

/** The field types ElmapiCMS v3 names in `/api/collections/{slug}` (OpenAPI describes them; `cqa pull` reads them). */
export const V3_FIELD_TYPES: readonly string[] = [
  'text',
  'longtext',
  'richtext',
  'slug',
  'email',
  'password',
  'number',
  'enumeration',
  'boolean',
  'color',
  'date',
  'time',
  'media',
  'relation',
  'json',
  'group',
];

/** The v3 type a cqa field type is served as (v3 has no markdown or datetime: its richtext and date, with a time). */
export const v3FieldType = (type: string): string => (type === 'markdown' ? 'richtext' : type === 'datetime' ? 'date' : type);

function elmapi3Error(p: Problem): ErrorAnswer {
  if (p.status === 401) return message(401, 'Unauthenticated.');
  if (p.status === 403) return message(403, 'Forbidden.');
  switch (p.situation?.kind) {
    case 'injected': // --fail-rate, `Prefer: status=`: the throttle's 429 and the handler's 5xx below
      if (p.status !== 429 && p.status < 500) return message(p.status, STATUS_TITLES[p.status] ?? 'Error');
      break;
    case 'project_not_found':
      return message(404, 'Project not found.');
    case 'collection_not_found':
      return message(404, 'Collection not found.');
    case 'entry_not_found':
      return message(404, 'Content not found.');
    case 'media_not_found':
      return { status: 404, contentType: JSON_TYPE, body: '{"error":"Asset not found"}' };
    default:
      break;
  }
  if (p.status === 429) {
    const reset = Math.floor(Date.now() / 1000) + (p.situation?.kind === 'injected' ? (p.situation.retryAfter ?? 0) : 0);
    return {
      ...message(429, 'Too Many Attempts.'),
      headers: { 'x-ratelimit-limit': String(RATE_LIMIT), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    };
  }
  if (p.status >= 500) return message(p.status, p.status === 500 ? 'Server Error' : (STATUS_TITLES[p.status] ?? 'Error'));
  // Our own checks (a too long target, a bad path): Laravel's shape, our words.
  return message(p.status, p.detail);
}

export const elmapi3: Dialect = {
  ...elmapi,
  name: 'elmapi3',
  query: {
    ...elmapi.query,
    foldText: false,
    sortNeedsDirection: false,
    offsetNeedsLimit: false,
    timestampsByDay: false,
    relationContains: false,
  },
  mediaKeys: (m) => [m.uuid ?? m.id],
  compareMedia: (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  error: elmapi3Error,
};
