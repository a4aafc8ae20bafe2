// operationIds of the OpenAPI documents: one camelCase style, a verb then a noun (`listPosts`,
// `getPost`, `getProject`, `listMedia`), so that generated clients read like hand-written ones.
// Unique in each document: see uniqueOperationIds. No Node imports.
import type { Obj } from './openapi-parts.js';
import { pascalCase, singular } from '../model/names.js';

/** The operations every project has, and the service ones. */
export const OPERATION_IDS = {
  project: 'getProject',
  mediaList: 'listMedia',
  mediaItem: 'getMediaItem',
  mediaByName: 'getMediaItemByName',
  mediaFile: 'getMediaFile',
  health: 'getHealth',
  openapi: 'getOpenApi',
} as const;
const FIXED: ReadonlySet<string> = new Set(Object.values(OPERATION_IDS));

/** `posts` → `listPosts`; a collection whose name is taken (`media`) → `listMediaEntries`. */
export function listEntriesId(slug: string): string {
  const id = `list${pascalCase(slug)}`;
  return FIXED.has(id) ? `${id}Entries` : id;
}

/** `posts` → `getPost`, `categories` → `getCategory`; `projects` → `getProjectEntry`. */
export function getEntryId(slug: string): string {
  const id = `get${singular(pascalCase(slug))}`;
  return FIXED.has(id) ? `${id}Entry` : id;
}

/**
 * Makes every operationId of `paths` unique, in place. An id that several projects of the document
 * share (every project has `getProject`; two may both have `authors`) gets the project id after
 * its verb: `getDemoProject`, `listDemoAuthors`. The ids depend only on the projects the document
 * describes, so a document shows nothing of the projects its reader may not see; a document of one
 * project (what a token gets) keeps the short ids. Anything still repeated (`blog-posts` and
 * `blog_posts` in one project) is numbered in document order: `listBlogPosts2`.
 */
export function uniqueOperationIds(paths: Obj): void {
  const ops = Object.values(paths).map((item) => (item as { get: Obj }).get);
  const projectOf = (op: Obj): string | undefined => (op.tags as string[] | undefined)?.[0];
  // The projects that use each id.
  const users = new Map<string, Set<string | undefined>>();
  for (const op of ops) {
    const id = op.operationId as string;
    users.set(id, (users.get(id) ?? new Set()).add(projectOf(op)));
  }
  for (const op of ops) {
    const project = projectOf(op);
    const id = op.operationId as string;
    if (project === undefined || (users.get(id) as Set<string | undefined>).size < 2) continue;
    const verb = /^[a-z]+/.exec(id)?.[0] ?? '';
    op.operationId = `${verb}${pascalCase(project)}${id.slice(verb.length)}`;
  }
  const count = new Map<string, number>();
  for (const op of ops) {
    const id = op.operationId as string;
    const n = (count.get(id) ?? 0) + 1;
    count.set(id, n);
    if (n > 1) op.operationId = `${id}${n}`;
  }
}
