// R4 `GET /api/{slug}` and R5 `GET /api/{slug}/{uuid}` (sheet §2.5, §2.6, §4): state, locale,
// where, singleton, count, limit/offset, sort, paginate, first, translation_locale. No Node imports.
import { ownValue, type FieldDef } from '../../model/model.js';
import type { EntrySnapshot } from '../../model/types.js';
import { fieldValue } from '../../query/table.js';
import { paginated, phpInt, readPage } from './paginate.js';
import { flatten, list, str, type PhpArray } from './php-query.js';
import type { CollectionIndex, ProjectIndex } from './project-index.js';
import { EMBED_BOUNDS, Renderer, type Json } from './render.js';
import type { Warnings } from './warnings.js';
import { whereTest } from './where.js';
import { closestName } from '../../suggest.js';

export type Answer = { readonly status: number; readonly json: Json } | { readonly status: number; readonly message: string };

const notFound: Answer = { status: 404, message: 'Content not found.' };
const CORE_SORT = ['id', 'created_at', 'updated_at', 'published_at'];

export interface ListRequest {
  readonly index: ProjectIndex;
  readonly col: CollectionIndex;
  readonly params: PhpArray;
  readonly draft: boolean;
  readonly warn: Warnings;
  readonly origin: string;
  /** The request path without the query, for page links. */
  readonly path: string;
}

/** What ElmapiCMS reads on a list (sheet §2.5) and on one entry (§2.6; the list's are said to be ignored there). */
const LIST_PARAMS = new Set([
  'state',
  'locale',
  'where',
  'sort',
  'limit',
  'offset',
  'paginate',
  'page',
  'count',
  'first',
  'exclude',
  'timestamps',
]);
const ONE_PARAMS = new Set(['state', 'locale', 'translation_locale', 'exclude', 'timestamps']);

/**
 * The parameters of an entry route that v3 reads otherwise than a client may expect, said out
 * loud (the SDK's own typed `state` values and `timestamps: false` among them).
 */
export function warnEntryParams(params: PhpArray, index: ProjectIndex, warn: Warnings, one: boolean): void {
  const known = one ? ONE_PARAMS : LIST_PARAMS;
  for (const name of params.keys())
    if (!known.has(name) && !LIST_PARAMS.has(name) && name !== 'fields' && name !== 'with' && !name.startsWith('_'))
      warn.add(name, `ElmapiCMS has no parameter '${name}' here and ignores it; it reads ${[...known].join(', ')}`);
  const state = str(params, 'state');
  if (typeof state === 'string' && state !== 'draft' && state !== 'published')
    warn.add(
      'state',
      `state=${state}: ElmapiCMS knows only state=draft (drafts alone); any other value lists published entries only — there is no mode with both`,
    );
  for (const flag of one ? ['timestamps'] : ['timestamps', 'first', 'count']) {
    const value = str(params, flag);
    if (typeof value === 'string' && /^(false|0|no|off)$/i.test(value.trim()))
      warn.add(flag, `${flag}=${value} turns ${flag} on (ElmapiCMS looks only at whether it is sent): leave it out`);
  }
  const locale = str(params, 'locale');
  const locales = index.project.record.locales;
  if (typeof locale === 'string' && locale !== '0' && locales.length > 0 && !locales.includes(locale))
    warn.add('locale', `locale '${locale}' is none of this project's (${locales.join(', ')}): ElmapiCMS matches no entry`);
  if (params.has('fields'))
    warn.add('fields', 'ElmapiCMS has no fields parameter and answers every field: leave out the ones you do not want with exclude=a,b');
  if (params.has('with')) warn.add('with', 'ElmapiCMS reads with only on /api (the project); related entries are always embedded here');
}

function renderer(r: ListRequest): Renderer {
  return new Renderer(r.index, {
    draft: r.draft,
    timestamps: r.params.has('timestamps'),
    exclude: new Set(list(r.params.get('exclude'))),
    origin: r.origin,
    onStubbed: () =>
      r.warn.add(
        'relations',
        `this answer reached cqa's bound on embedded entries (${EMBED_BOUNDS.entries.toLocaleString('en')} entries, ${EMBED_BOUNDS.chars / 1024 / 1024} Mi characters of values, or relations ${EMBED_BOUNDS.depth} levels deep): the rest are stubs {uuid, locale, published_at, fields: []}, and past twice that relations and media are left out, where ElmapiCMS embeds every one`,
      ),
  });
}

/** Entries of the mode: drafts only (draft mode) or published only. */
function inMode(e: EntrySnapshot, draft: boolean): boolean {
  return draft ? e.record.draft : !e.record.draft;
}

type Cmp = (a: EntrySnapshot, b: EntrySnapshot) => number;
const byText = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** PHP 8 comparison of two scalar values (numeric strings numerically). */
function phpCompare(a: unknown, b: unknown): number {
  const num = (x: unknown) =>
    typeof x === 'number'
      ? x
      : typeof x === 'boolean'
        ? Number(x)
        : typeof x === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(x)
          ? Number(x)
          : undefined;
  const na = num(a);
  const nb = num(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * What reads the value v3 sorts an entry by, made once per sort rather than per comparison: its
 * value row's column for the field's type (saveFieldValue in ElmapiCMS 4.0's Api/ContentController.php). Enumeration, json, relation and media values are kept
 * in json_value only, which neither sort reads: no value. A date keeps date_value (a range its
 * start), a date with time datetime_value, which the paginated ORDER BY does not read (it reads
 * date_value for every date) and the draft sort in memory does (text ?? number ?? boolean ?? date
 * ?? datetime).
 */
function sortValueOf(f: FieldDef, inMemory: boolean): (e: EntrySnapshot) => unknown {
  if (/^(enumeration|json|relation|media)$/.test(f.type) || (f.type === 'datetime' && !inMemory)) return () => undefined;
  return (e) => {
    const v = fieldValue(e, f.name);
    const value = f.range && v && typeof v === 'object' && !Array.isArray(v) ? ownValue(v, 'start') : v;
    return value === null || value === '' || typeof value === 'object' ? undefined : value;
  };
}

export function listEntries(r: ListRequest): Answer {
  const { col, params, draft, warn } = r;
  const slug = col.snap.record.slug;
  const locale = str(params, 'locale');
  const test = whereTest(params.get('where'), col, r.index, warn, draft);
  // "Newest first" is the default; the rest of the work keeps that (DB insertion) order in reverse.
  const insertion = [...col.newestFirst].reverse();
  let rows = insertion.filter((e) => inMode(e, draft) && (!locale || locale === '0' || e.record.locale === locale) && test(e));

  if (col.snap.record.singleton) {
    const wanted = locale && locale !== '0' ? locale : r.index.project.record.default_locale;
    for (const p of ['count', 'paginate', 'first', 'limit', 'sort'])
      if (params.has(p)) warn.add(p, `'${slug}' is a singleton collection: ElmapiCMS ignores ${p} and answers its one entry`);
    const one = rows.find((e) => e.record.locale === wanted);
    return one ? { status: 200, json: renderer(r).entry(one, slug) } : notFound;
  }
  if (params.has('count')) return { status: 200, json: { count: rows.length } };

  const perPage = phpInt(params.get('paginate'));
  const paginate = params.has('paginate') && perPage > 0;
  if (params.has('paginate') && !paginate)
    warn.add(
      'paginate',
      perPage < 0
        ? // (int) ≠ 0 pages in v3, with a negative size Laravel's paginator was not made for (sheet §2.5: unconfirmed).
          `paginate=${str(params, 'paginate') ?? ''} is below 1: ElmapiCMS pages with it in a way this mock does not copy (a page size Laravel does not expect), and the mock answers the whole list, not paginated; send paginate=N (N ≥ 1)`
        : `paginate=${str(params, 'paginate') ?? ''} is not a positive number: ElmapiCMS does not paginate; send paginate=N (N ≥ 1)`,
    );
  const sort = params.get('sort');
  const limit = phpInt(params.get('limit'));
  const offset = phpInt(params.get('offset'));
  if (!paginate && params.has('page'))
    warn.add(
      'page',
      'page without paginate is ignored by ElmapiCMS, which answers the whole list: send paginate=N too (e.g. paginate=25&page=2)',
    );
  if (!paginate && params.has('limit') && limit <= 0)
    warn.add(
      'limit',
      `limit=${str(params, 'limit') ?? ''} is not a positive number: ElmapiCMS ignores it and answers the whole list; send limit=N (N ≥ 1)`,
    );
  // offset=0 alone changes nothing (the SDK sends it so with limit undefined): not a quirk to name.
  if (!paginate && params.has('offset') && limit <= 0 && offset !== 0)
    warn.add('offset', `offset without limit is ignored by ElmapiCMS: send limit too (e.g. limit=10&offset=${offset})`);
  else if (!paginate && params.has('offset') && offset < 0)
    warn.add(
      'offset',
      `offset=${str(params, 'offset') ?? ''} is below 0: ElmapiCMS starts at the first entry; send offset=0 or leave it out`,
    );
  if (paginate && (params.has('limit') || params.has('offset') || params.has('first')))
    warn.add(params.has('first') ? 'first' : 'limit', 'with paginate, ElmapiCMS ignores limit, offset and first: page with page=N');

  // state=draft sorts in memory by the first sort item when it is no column; with first, v3 calls
  // sortBy on the one model first() returned (or on null): a BadMethodCallException, a 500.
  const firstSortName = typeof sort === 'string' ? ((sort.split(',')[0] as string).split(':')[0] as string) : '';
  if (draft && !paginate && params.has('first') && typeof sort === 'string' && sort !== '0' && !CORE_SORT.includes(firstSortName)) {
    warn.add(
      'sort',
      `with state=draft, first and sort=${sort} (no column first), ElmapiCMS sorts the one entry first() returned as if it were a list: a 500; leave first out and take the list's first entry (the list is sorted), or sort by a column (${CORE_SORT.join(', ')})`,
    );
    return { status: 500, message: 'Server Error' };
  }
  let inMemory: { f: FieldDef; desc: boolean } | undefined;
  const id = (e: EntrySnapshot) => col.dbId.get(e) ?? 0;
  if (sort instanceof Map) {
    warn.add('sort', 'sort must be one string like sort=price:desc (an array is a 500 in ElmapiCMS)');
    return { status: 500, message: 'Server Error' };
  }
  // `if ($sortParam)`: PHP reads '0' as false, as if no sort were sent.
  if (typeof sort === 'string' && sort !== '0') {
    const cmps: Cmp[] = [];
    // A name sorted by again can change no order (its ties are equal on it), and 1,000 repeats
    // would cost 1,000 comparisons per pair: each name counts once.
    const seen = new Set<string>();
    // The custom field whose id tie-break already decides every pair, when paging.
    let decided: string | undefined;
    const items = sort.split(',');
    for (let i = 0; i < items.length; i++) {
      // v3: explode(',') and explode(':') with no trim, `strtoupper($dir) === 'DESC'`: a space
      // makes another name (no such field: ignored) or another direction (ascending).
      const [name = '', dir] = (items[i] as string).split(':');
      if (name.trim() !== name && (CORE_SORT.includes(name.trim()) || col.snap.fields.has(name.trim())))
        warn.add(
          'sort',
          `sort item '${name}' has a space around the name: ElmapiCMS looks up '${name}', which is no column or field, and ignores it; write sort=${name.trim()}${dir === undefined ? '' : `:${dir.trim()}`} without spaces`,
        );
      if (dir !== undefined && dir !== dir.trim() && /^desc$/i.test(dir.trim()))
        warn.add(
          'sort',
          `sort item '${name}:${dir}' has a space around the direction: ElmapiCMS compares '${dir}' with DESC and sorts ascending; write ${name.trim()}:desc without spaces`,
        );
      if (seen.has(name)) {
        warn.add('sort', `sort names '${name}' more than once: only its first place counts (ElmapiCMS ignores the others)`);
        continue;
      }
      seen.add(name);
      if (decided !== undefined) {
        warn.add(
          'sort',
          `'${name}' comes after custom field '${decided}' in sort: ElmapiCMS breaks ties on '${decided}' by id, so '${name}' changes no order; put it first`,
        );
        continue;
      }
      const desc = /^desc$/i.test(dir ?? '');
      const sign = desc ? -1 : 1;
      if (name === 'id') {
        cmps.push((a, b) => sign * (id(a) - id(b)));
        continue;
      }
      if (CORE_SORT.includes(name)) {
        const key = name as 'created_at' | 'updated_at' | 'published_at';
        cmps.push((a, b) => sign * byText(a.record[key], b.record[key]));
        continue;
      }
      const f = col.snap.fields.get(name);
      if (!f || f.hidden || f.type === 'password') {
        const shown = [...col.snap.fields.values()].filter((x) => !x.hidden && x.type !== 'password').map((x) => x.name);
        const near = closestName(name, [...shown, ...CORE_SORT]);
        warn.add('sort', `no field '${name}' in collection '${slug}': ElmapiCMS ignores it${near ? `; did you mean '${near}'?` : ''}`);
        continue;
      }
      if (paginate) {
        // v3's ORDER BY: entries without a value last in both directions, then by value, then
        // `content_entries.id` in the same direction, also among those without a value. The id
        // is unique, so a sort item after this one never changes the order.
        const sortValue = sortValueOf(f, false);
        cmps.push((a, b) => {
          const va = sortValue(a);
          const vb = sortValue(b);
          if (va === undefined || vb === undefined) return va === vb ? sign * (id(a) - id(b)) : va === undefined ? 1 : -1;
          return sign * phpCompare(va, vb) || sign * (id(a) - id(b));
        });
        decided = name;
      } else if (draft) {
        // v3 sorts by the first item of sort alone (none if it is a column), whatever follows.
        // With drafts it loads no value of an excluded field (its `with`), so it has none to sort by.
        if (i === 0 && list(r.params.get('exclude')).includes(name))
          warn.add(
            'sort',
            `ElmapiCMS loads no value of an excluded field for drafts, so sort=${name} leaves them unsorted: exclude it after sorting, client-side`,
          );
        else if (i === 0) inMemory = { f, desc };
        else warn.add('sort', `without paginate, ElmapiCMS sorts drafts by the first sort item only: '${name}' is ignored`);
      } else
        warn.add(
          'sort',
          `without paginate, ElmapiCMS ignores sort on custom field '${name}' (and then lists oldest first): add paginate=N to sort by it`,
        );
    }
    if (cmps.length > 0) rows = [...rows].sort((a, b) => cmps.reduce((acc, c) => acc || c(a, b), 0));
  } else rows = rows.reverse();

  const render = renderer(r);
  if (paginate) {
    const page = readPage(params.get('page'), warn);
    const slice = rows.slice((page - 1) * perPage, page * perPage);
    return {
      status: 200,
      json: paginated(
        slice.map((e) => render.entry(e, slug)),
        rows.length,
        perPage,
        page,
        r.path,
        params,
      ),
    };
  }
  if (limit > 0) rows = rows.slice(Math.max(0, offset), Math.max(0, offset) + limit);
  if (inMemory) {
    const { f, desc } = inMemory;
    const sortValue = sortValueOf(f, true);
    // Entries without a value first for ASC, last for DESC.
    rows = [...rows].sort((a, b) => {
      const va = sortValue(a);
      const vb = sortValue(b);
      const c = va === undefined || vb === undefined ? (va === vb ? 0 : va === undefined ? -1 : 1) : phpCompare(va, vb);
      return desc ? -c : c;
    });
  }
  if (params.has('first')) return rows[0] ? { status: 200, json: render.entry(rows[0], slug) } : notFound;
  return { status: 200, json: rows.map((e) => render.entry(e, slug)) };
}

export function oneEntry(r: ListRequest, uuid: string): Answer {
  const { col, params, draft, warn } = r;
  const slug = col.snap.record.slug;
  const locale = str(params, 'locale');
  const e = col.byUuid.get(uuid);
  // ContentController@show: `$request->filled('translation_locale')` drops the state filter of the
  // entry's lookup (an array is filled; '' is null by then and is not), and only then
  // `if ($translationLocale = $request->query('translation_locale'))` looks for the translation —
  // PHP's truthiness, so '0' answers the entry itself.
  const asked = params.get('translation_locale');
  if (asked === null)
    warn.add(
      'translation_locale',
      'translation_locale has no value: ElmapiCMS reads it as absent and answers the entry named in the path; send translation_locale=<locale> (e.g. fr) or leave it out',
    );
  if (asked !== undefined && asked !== null) {
    // v3 looks the named entry up in any state, but with `locale` (ContentController@show filters
    // the entry's query by it before the translation is looked for); a draft is named only to a
    // drafts reader here.
    if (!e || (e.record.draft && !draft)) return notFound;
    if (locale && locale !== '0' && e.record.locale !== locale) {
      warn.add(
        'locale',
        `with translation_locale, locale=${locale} still restricts the entry named in the path (it is in '${e.record.locale}'), so ElmapiCMS answers Content not found.: leave locale out`,
      );
      return notFound;
    }
    if (asked === '0') {
      warn.add(
        'translation_locale',
        `translation_locale=0 is false to PHP: ElmapiCMS looks the entry up in any state (the parameter is filled) but skips the translation and answers the entry itself${
          draft && !e.record.draft ? ' (here a published entry, in its draft form, which state=draft alone would not answer)' : ''
        }; send a locale code (translation_locale=fr) or leave it out`,
      );
      return { status: 200, json: renderer(r).entry(e, slug) };
    }
    // A list: where('locale', [...]) binds its first item (Laravel's flattenValue).
    const translation = asked instanceof Map ? (flatten(asked)[0] ?? null) : asked;
    if (asked instanceof Map)
      warn.add(
        'translation_locale',
        `translation_locale is a list (translation_locale[…]=…): ElmapiCMS looks for its first item, ${translation ? `'${translation}'` : 'an empty one (NULL, which no locale equals)'}, and when none is found puts the array in its message (Array to string conversion, a 500); send translation_locale=${translation ?? '<locale>'}`,
      );
    const group = col.groups.get(col.groupOf.get(e) ?? '') ?? [];
    if (group.length < 2) return { status: 404, message: 'This entry has no translations linked.' };
    const t = group.find((x) => x !== e && x.record.locale === translation && inMode(x, draft));
    if (t) return { status: 200, json: renderer(r).entry(t, slug) };
    if (asked instanceof Map) return { status: 500, message: 'Server Error' };
    return { status: 404, message: `Translation not found for locale '${translation}'.` };
  }
  if (!e || !inMode(e, draft) || (locale && locale !== '0' && e.record.locale !== locale)) return notFound;
  for (const p of ['where', 'sort', 'limit', 'offset', 'paginate', 'count', 'first'])
    if (params.has(p)) warn.add(p, `ElmapiCMS ignores ${p} on a single entry (/api/${slug}/{uuid})`);
  return { status: 200, json: renderer(r).entry(e, slug) };
}
