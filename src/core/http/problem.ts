// RFC 9457 problem documents: `{"type":"about:blank","title","status","code","detail","param"?}`.
import type { Situation } from '../query/types.js';

export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The longest request target (path and query) answered; past it a 414 (SPEC §4.4). */
export const MAX_TARGET = 8192;

/**
 * The 414's detail, the same from the core (up to Node's 16 KiB), from the raw socket (past it)
 * and from the static client (src/core/client/static.ts): what to change.
 */
export const TARGET_TOO_LONG = `the request target is longer than ${MAX_TARGET} bytes: send fewer or shorter query parameters`;

export interface Problem {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly param?: string;
  /** For dialects that word some errors their own way; not part of the problem document. */
  readonly situation?: Situation;
}

/**
 * The API's own 404s and 400s, worded once: the server's core answers them, and the static client
 * (src/core/client/static.ts) must answer them byte for byte the same.
 */
export const API_PROBLEMS = {
  projectNotFound: (project: string): Problem => ({
    status: 404,
    code: 'not_found',
    detail: `project '${project}' not found`,
    situation: { kind: 'project_not_found' },
  }),
  collectionNotFound: (project: string, collection: string, known: readonly string[]): Problem => ({
    status: 404,
    code: 'not_found',
    detail: `no collection '${collection}' in project '${project}'; collections: ${known.join(', ')}`,
    situation: { kind: 'collection_not_found' },
  }),
  entryNotFound: (id: string, collection?: string): Problem => ({
    status: 404,
    code: 'not_found',
    detail: `no published entry '${id}'${collection === undefined ? '' : ` in collection '${collection}'`}`,
    situation: { kind: 'entry_not_found' },
  }),
  mediaItemNotFound: (project: string, id: string): Problem => ({
    status: 404,
    code: 'not_found',
    detail: `no media item '${id}' in project '${project}'`,
    situation: { kind: 'media_not_found' },
  }),
  queryOnProject: (): Problem => ({
    status: 400,
    code: 'unknown_parameter',
    detail: 'the project document accepts no query parameters; query a collection instead (/api/<project_id>/<collection>?…)',
  }),
} as const;

export function problemJson(p: Problem): string {
  return JSON.stringify({
    type: 'about:blank',
    title: STATUS_TITLES[p.status] ?? 'Error',
    status: p.status,
    code: p.code,
    detail: p.detail,
    ...(p.param !== undefined ? { param: p.param } : {}),
  });
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';
