// The 404 answers of a static build: JSON documents in each project's dialect, and the
// `_redirects` rules (Netlify syntax, status 404) that send unknown API paths to them. A static
// host cannot tell an unknown project from an unknown entry the way `cqa serve` does, so the rules
// go by path prefix, most specific first: in an elmapi project an unknown entry, media item or
// collection gets the original's own message; everything else under /api/ gets a `cqa` problem
// document. No Node imports.
import { cqa, dialectOf, type Dialect } from '../dialects/index.js';
import type { Snapshot } from '../model/types.js';

export interface NotFoundRule {
  /** The `_redirects` source pattern, e.g. `/api/*`. */
  readonly from: string;
  /** The document's file in the build output, e.g. `api/404.json`. */
  readonly file: string;
  /** Its bytes. */
  readonly text: string;
  /** The 400 to a query string on these paths, in the same dialect (queryRefused()). */
  readonly query: string;
}

const STATIC_HOST =
  'a static host does not evaluate queries: Netlify or Cloudflare Pages would ignore this query string and answer the whole document. ';
const QUERY_DETAIL =
  STATIC_HOST +
  "Run `cqa serve` on the content for queries, or use the static client (createClient({ baseUrl, project, mode: 'static' }) from content-query-api/client), which evaluates them over this build";
// The static client reads no elmapi3 build: the SDK's queries need cqa serve.
const V3_QUERY_DETAIL = `${STATIC_HOST}Run \`cqa serve\` on the content for the SDK's queries (where, sort, paginate, with…); a static elmapi3 build answers each path without one`;

/**
 * The 400 that cqa preview, and the nginx and Caddy files, answer to a query string on an API path
 * of a static build: a static host would answer the whole document, as if the query were applied.
 */
export function queryRefused(dialect: Dialect): { body: string; contentType: string } {
  const detail = dialect.name === 'elmapi3' ? V3_QUERY_DETAIL : QUERY_DETAIL;
  return dialect.error({ status: 400, code: 'query_not_supported', detail });
}

const DETAIL =
  'no document at this path in this static build (cqa build writes a file for every published project, collection, entry and media item, and nothing else); check the project, collection and id, and that the entry is not a draft';

/**
 * The 404 documents of the projects in `published` (the ids whose documents the tree holds),
 * most specific rule first; the last one (`/api/*`) catches every other API path.
 */
export function notFoundRules(snapshot: Snapshot, published: ReadonlySet<string>): NotFoundRule[] {
  const rules: NotFoundRule[] = [];
  for (const p of snapshot.projects.values()) {
    const id = p.record.id;
    const dialect = dialectOf(p.record);
    // A cqa project's 404 is the catch-all's; only other dialects need their own documents.
    if (!published.has(id) || dialect.name === 'cqa') continue;
    const doc = (kind: 'entry_not_found' | 'media_not_found' | 'collection_not_found') =>
      `${dialect.error({ status: 404, code: 'not_found', detail: DETAIL, situation: { kind } }).body}`;
    const query = queryRefused(dialect).body;
    for (const slug of p.collections.keys()) {
      rules.push({ from: `/api/${id}/${slug}/*`, file: `api/${id}/${slug}/404.json`, text: doc('entry_not_found'), query });
    }
    rules.push({ from: `/api/${id}/project-media/*`, file: `api/${id}/project-media/404.json`, text: doc('media_not_found'), query });
    rules.push({ from: `/api/${id}/*`, file: `api/${id}/404.json`, text: doc('collection_not_found'), query });
  }
  const text = `${cqa.error({ status: 404, code: 'not_found', detail: DETAIL }).body}`;
  rules.push({ from: '/api/*', file: 'api/404.json', text, query: queryRefused(cqa).body });
  return rules;
}
