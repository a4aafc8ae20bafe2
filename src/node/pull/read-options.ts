// What both readers (read-cqa.ts, read-elmapi.ts) are given.
import { readJson } from './answers.js';
import type { Fetcher } from './fetch.js';
import type { PullLimits } from './limits.js';

export interface ReadOptions {
  readonly fetcher: Fetcher;
  readonly project: string;
  /** --collections: only these (elmapi: required, its project answer lists none). */
  readonly collections: readonly string[] | undefined;
  /** --drafts: also the drafts (state=only_draft). */
  readonly drafts: boolean;
  /** Items asked per page of a list. */
  readonly pageSize: number;
  /** Pages and items per list (see limits.ts). */
  readonly limits: PullLimits;
  /** Something the person should look at; the pull goes on. */
  readonly warn: (message: string) => void;
  /** Where the pull is, for the progress line. */
  readonly progress: (line: string) => void;
}

/** Whether the project answers without a token (`public: true`): one request without it. */
export async function isPublic(o: ReadOptions, path: string): Promise<boolean> {
  const { status, text } = await o.fetcher.withoutToken(path);
  // The original elmapi API answers a missing token with a 200 {"message":"Unauthenticated."}.
  return status >= 200 && status <= 299 && !text.includes('"Unauthenticated."');
}

/** The JSON of the document at `path` (a PullError naming what to fix when it is not a 2xx). */
export async function readDocument(o: ReadOptions, path: string, what: string, notFoundHint: string): Promise<unknown> {
  o.progress(`reading ${what}`);
  return readJson(await o.fetcher.document(path), {
    what,
    url: o.fetcher.url(path).href,
    project: o.project,
    notFoundHint,
    drafts: o.drafts,
  });
}
