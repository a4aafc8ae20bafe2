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
  const answer = await o.fetcher.document(path);
  // ElmapiCMS v3 (and cqa serve for such a project) names the project by a header, not the path.
  const v3 = answer.status === 404 && /project-id|The route api\//.test(answer.text);
  return readJson(answer, {
    what,
    url: o.fetcher.url(path).href,
    project: o.project,
    notFoundHint: v3
      ? `${notFoundHint}; the server answers as ElmapiCMS v3 does, where the project is named by a project-id header: pull with --dialect elmapi3`
      : notFoundHint,
    drafts: o.drafts,
  });
}
