// RFC 9457 problem documents: `{"type":"about:blank","title","status","code","detail","param"?}`.
import type { Situation } from '../query/types.js';

export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  414: 'URI Too Long',
  500: 'Internal Server Error',
};

export interface Problem {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly param?: string;
  /** For dialects that word some errors their own way; not part of the problem document. */
  readonly situation?: Situation;
}

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
