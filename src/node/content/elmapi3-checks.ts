// What `cqa check` (and every load) says of an `elmapi3` project beyond the field checks: a
// collection that today's ElmapiCMS could never answer because one of its own routes comes first,
// a singleton with several entries in one locale (v3 answers the first only), assets that share
// a file name (`/api/files/name/<name>` answers the first only).
import type { ProjectRecord } from '../../core/model/model.js';
import type { IssueList } from './issues.js';

/** First path segments that ElmapiCMS v3 routes before `/api/{collection}`. */
const ROUTED = new Set(['collections', 'files']);

export function checkElmapi3(project: ProjectRecord, folder: string, issues: IssueList): void {
  for (const c of project.collections) {
    const where = `${folder}/${c.slug}`;
    if (ROUTED.has(c.slug)) {
      issues.error(
        where,
        `a collection of an elmapi3 project cannot be called '${c.slug}': ElmapiCMS answers /api/${c.slug} with its own route, so no client could read it; rename the folder (e.g. '${c.slug}-items')`,
      );
    } else if (c.slug === 'webhooks') {
      issues.warn(
        where,
        'ElmapiCMS answers /api/webhooks with its own (admin) route, so the real API never serves this collection; the mock does: rename the folder to keep them alike',
      );
    }
    if (c.singleton) {
      const seen = new Map<string, string>();
      for (const e of c.entries) {
        const first = seen.get(e.locale);
        if (first === undefined) seen.set(e.locale, e.file);
        else
          issues.warn(
            e.file,
            `'${c.slug}' is a singleton: in locale '${e.locale}' ElmapiCMS answers one entry (${first} here); this one is only reachable by its uuid`,
          );
      }
    }
  }
  const names = new Map<string, string>();
  for (const m of project.media) {
    const first = names.get(m.file_name);
    if (first === undefined) names.set(m.file_name, m.id);
    else
      issues.warn(
        `${folder}/media/${m.id}`,
        `another asset has the file name '${m.file_name}' (media/${first}): /api/files/name/${m.file_name} answers that one only; rename one of them`,
      );
  }
}
