// querySerializer: the bracket query string of SPEC §4.3 for clients generated from /openapi.json.
// openapi-fetch's own serializer refuses nested objects ("Deeply nested arrays/objects aren't
// supported"), so `where: { reading_time: { gte: 5 } }` needs this one:
//   createClient<paths>({ baseUrl, querySerializer })
// It takes the query parameters as the generated types name them and refuses a key the API does
// not know (a typo would otherwise be dropped without a word). No Node imports.
import { type QueryObject, queryString } from './query-string.js';

/** The flags the API takes as a bare name (`?count`): true or '' turns one on. */
const FLAGS = ['first', 'count', 'timestamps'] as const;
const KNOWN = ['where', 'whereRelation', 'sort', 'limit', 'offset', 'state', 'locale', 'fields', 'exclude', ...FLAGS];

/** `{ where: { price: { gte: 5 } }, limit: 3 }` → `where[price][gte]=5&limit=3` (no leading `?`). */
export function querySerializer(query: Readonly<Record<string, unknown>> | undefined): string {
  if (query === undefined || query === null) return '';
  const rest: Record<string, unknown> = {};
  const flags: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (!KNOWN.includes(key)) throw new TypeError(`querySerializer: unknown query parameter '${key}'; the API takes ${KNOWN.join(', ')}`);
    if (value === undefined) continue;
    if ((FLAGS as readonly string[]).includes(key)) {
      if (value === true || value === '') flags.push(key);
      else if (value !== false)
        throw new TypeError(`querySerializer: ${key} is a flag: give true (or ''), or leave it out; got ${JSON.stringify(value)}`);
      continue;
    }
    rest[key] = value;
  }
  const text = queryString(rest as QueryObject);
  return [text, ...flags].filter((s) => s !== '').join('&');
}
