// The keys each client method reads from its query object. A key it does not know would otherwise
// be dropped without a word (`entries('posts', { first: true })` returned a whole page): it is a
// TypeError naming the method to use instead, in JavaScript as in TypeScript. No Node imports.

const LIST = ['where', 'whereRelation', 'sort', 'limit', 'offset', 'locale', 'state', 'timestamps', 'fields', 'exclude'] as const;

/** The keys of each method's query object (types.ts: Query, ItemQuery, MediaQuery). */
export const QUERY_KEYS = {
  entries: LIST,
  first: LIST.filter((k) => k !== 'limit'),
  count: ['where', 'whereRelation', 'locale', 'state'],
  entry: ['state', 'timestamps', 'fields', 'exclude'],
  media: ['where', 'sort', 'limit', 'offset', 'fields', 'exclude'],
} as const satisfies Record<string, readonly string[]>;

export type QueryMethod = keyof typeof QUERY_KEYS;

/** Keys of other APIs and of the query string that another method stands for. */
function methodFor(key: string, method: QueryMethod): string | undefined {
  const k = key.toLowerCase();
  if ((k === 'first' || k === 'findone' || k === 'single') && method !== 'first')
    return 'first(collection, query) for the first match (null when none)';
  if ((k === 'count' || k === 'total') && method !== 'count') return 'count(collection, query) for the number of matches';
  if (k === 'limit' && method === 'first') return 'entries(collection, { limit }) for several entries; first() returns one';
  if (method === 'count' && (QUERY_KEYS.entries as readonly string[]).includes(key))
    return `entries(collection, { ${key} }) for entries; count() takes ${QUERY_KEYS.count.join(', ')}`;
  if (method === 'entry' && (QUERY_KEYS.entries as readonly string[]).includes(key))
    return `entries(collection, { ${key} }) to query a list; entry() fetches one id`;
  return undefined;
}

/** What an elmapi3 project reads besides: on its entry route (R5) a locale or the entry's translation in another; on a list, Laravel's pages. */
const V3_KEYS: Partial<Record<QueryMethod, readonly string[]>> = {
  entry: [...QUERY_KEYS.entry, 'locale', 'translation_locale'],
  entries: [...QUERY_KEYS.entries, 'paginate', 'page'],
};

/** Throws a TypeError for a key `method` does not read; `query` may be undefined or a string (sent as is). */
export function checkQueryKeys(method: QueryMethod, query: unknown, dialect = 'cqa'): void {
  if (query === undefined || query === null || typeof query !== 'object') return;
  const known: readonly string[] = (dialect === 'elmapi3' && V3_KEYS[method]) || QUERY_KEYS[method];
  for (const key of Object.keys(query)) {
    if (known.includes(key) || (query as Record<string, unknown>)[key] === undefined) continue;
    const instead = methodFor(key, method);
    throw new TypeError(`${method}(): unknown query key '${key}'; ${instead ? `use ${instead}` : `the keys are ${known.join(', ')}`}`);
  }
}
