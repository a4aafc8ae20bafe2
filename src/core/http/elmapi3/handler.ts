// The v3 route table (sheet §2): a request whose `project-id` header names an `elmapi3` project is
// answered here; src/core/http/core.ts asks elmapi3Routes() first (when given: HttpOptions.elmapi3) and routes everything else as before.
// Auth as ProjectAccess + EnsureProjectApiAbility (§6), errors as §7. No Node imports.
import { ProblemError } from '../../query/problems.js';
import { answerTooLarge, ELMAPI3_LESS, isStringTooLong, MAX_ANSWER_CHARS } from '../../query/answer-size.js';
import type { Snapshot, ProjectSnapshot } from '../../model/types.js';
import { v3FieldType } from '../../dialects/elmapi3.js';
import { header } from '../header.js';
import { listEntries, oneEntry, warnEntryParams, type Answer, type ListRequest } from './entries.js';
import { paginated, phpInt, readPage } from './paginate.js';
import { list, parsePhpQuery, str, type PhpQuery } from './php-query.js';
import { projectIndex, type ProjectIndex } from './project-index.js';
import { assetJson, carbonJson, iso8601, phpJson, type Json } from './render.js';
import { validationBody, Warnings, type Warning } from './warnings.js';

export interface V3Request {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** As CoreRequest.origin: the scheme and host asked, when the adapter knows them. */
  readonly origin?: string;
}

export interface V3Answer {
  readonly status: number;
  readonly body: string;
  readonly warnings: readonly Warning[];
  /** The answer needed a token (not cacheable publicly). */
  readonly private: boolean;
}

type Hash = (text: string) => string;

const hasV3 = new WeakMap<Snapshot, boolean>();
function anyV3(snapshot: Snapshot): boolean {
  let yes = hasV3.get(snapshot);
  if (yes === undefined) {
    yes = [...snapshot.projects.values()].some((p) => p.record.dialect === 'elmapi3');
    hasV3.set(snapshot, yes);
  }
  return yes;
}

const v3WordsOf = new WeakMap<Snapshot, ReadonlySet<string>>();

/** First path segments after /api that a v3 route answers: collections, files, each v3 collection's slug; `` (the root) when every project is v3. */
function v3Words(snapshot: Snapshot): ReadonlySet<string> {
  let words = v3WordsOf.get(snapshot);
  if (!words) {
    const projects = [...snapshot.projects.values()];
    const v3 = projects.filter((p) => p.record.dialect === 'elmapi3');
    words = new Set([
      'collections',
      'files',
      ...v3.flatMap((p) => [...p.collections.keys()]),
      ...(v3.length === projects.length ? [''] : []),
    ]);
    v3WordsOf.set(snapshot, words);
  }
  return words;
}

const message = (status: number, text: string, warnings: readonly Warning[] = [], isPrivate = false): V3Answer => ({
  status,
  body: phpJson({ message: text }),
  warnings,
  private: isPrivate,
});

function segmentsOf(path: string): string[] | undefined {
  if (path !== '/api' && !path.startsWith('/api/')) return undefined;
  const rest = path.slice(5).replace(/\/$/, '');
  if (rest === '') return [];
  try {
    return rest.split('/').map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

/**
 * The v3 answer, or undefined: not a v3 request (no elmapi3 project in the snapshot, or the
 * path/header names a project of another dialect), so the caller routes it as today.
 */
export function elmapi3Routes(
  snapshot: Snapshot,
  req: V3Request,
  sha256Hex: Hash,
  nameKnownToday: (path: string) => boolean,
  strictAll = false,
): V3Answer | undefined {
  if (!anyV3(snapshot)) return undefined;
  const segs = segmentsOf(req.path);
  if (!segs) return undefined;
  const id = header(req.headers, 'project-id')?.trim();
  const project = id ? snapshot.projects.get(id) : undefined;
  if (project && project.record.dialect !== 'elmapi3') return undefined;
  if (!project) {
    // A path that names a project of another dialect is answered as before.
    if (nameKnownToday(req.path)) return undefined;
    // Without the header, only a path a v3 project could have meant is a v3 mistake; any other
    // (`/api/nope`) gets the 404 of the other dialects, as in a tree without v3 projects.
    if (!id && !v3Words(snapshot).has(segs[0] ?? '')) return undefined;
    return id ? message(404, 'Project not found.') : message(400, 'Project header missing.');
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const route = `api${segs.length ? `/${segs.join('/')}` : ''}`;
    const ability = writeAbility(req.method, segs);
    if (ability) {
      // v3's write routes exist: its middleware refuses a read token before any controller runs.
      const who = access(project, req, sha256Hex);
      if ('status' in who) return who;
      const why = `cqa serves content read-only: ElmapiCMS answers so to a token without the '${ability}' ability that ${req.method} /${route} needs`;
      return message(403, 'Forbidden.', [{ param: 'method', text: why }]);
    }
    return {
      status: 405,
      body: JSON.stringify(
        { message: `The ${req.method} method is not supported for route ${route}. Supported methods: GET, HEAD.` },
        null,
        4,
      ),
      warnings: [],
      private: false,
    };
  }
  return refusingCostly(() => answer(project, segs, req, sha256Hex, strictAll));
}

/**
 * v3's write routes (routes/api.php of ElmapiCMS 4.0) and the token ability each needs, tried in
 * order on `METHOD seg/seg`: the admin routes first, as Laravel registers them before `/{collection}`.
 */
const WRITE_ROUTES: readonly [RegExp, string][] = [
  [
    /^(POST (collections(\/reorder)?|webhooks|collections\/[^/]+\/fields(\/reorder)?|project\/locales)|(PUT|DELETE) (collections|webhooks|collections\/[^/]+\/fields)\/[^/]+|PUT project\/locales\/default|DELETE project\/locales\/[^/]+)$/,
    'admin',
  ],
  [
    /^POST (files(\/bulk\/upload|\/upload-url|\/upload-finalize|\/multipart\/(initiate|part-url|complete))?|bulk\/[^/]+\/entries|[^/]+)$/,
    'create',
  ],
  [
    /^(PATCH (files\/bulk\/metadata|bulk\/[^/]+\/entries|[^/]+\/[^/]+(\/versions\/\d+)?)|PUT [^/]+\/[^/]+|POST [^/]+\/[^/]+\/(link-translation|publish|unpublish|discard-draft|versions\/\d+\/revert))$/,
    'update',
  ],
  [/^DELETE (bulk\/[^/]+\/entries|[^/]+\/[^/]+)$/, 'delete'],
];

function writeAbility(method: string, segs: readonly string[]): string | undefined {
  const route = `${method} ${segs.join('/')}`;
  return WRITE_ROUTES.find(([pattern]) => pattern.test(route))?.[1];
}

interface Access {
  readonly token: boolean;
  readonly drafts: boolean;
  /** A public project was sent a token that is none of its own: ignored, as v3 does (§6.6). */
  readonly ignoredToken?: true;
}

/** ProjectAccess (§6): undefined = allowed; else the refusal. */
function access(project: ProjectSnapshot, req: V3Request, sha256Hex: Hash): Access | V3Answer {
  const auth = header(req.headers, 'authorization');
  const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  const bearer = m?.[1];
  if (bearer?.startsWith('uak_'))
    return message(401, 'Unauthenticated.', [
      { param: 'Authorization', text: 'uak_ keys are end-user API keys: ElmapiCMS never accepts them for content; send a project token' },
    ]);
  const token = bearer ? project.tokens.get(sha256Hex(bearer)) : undefined;
  if (token) {
    if (!token.scopes.includes('read')) return message(403, 'Forbidden.');
    return { token: true, drafts: token.scopes.includes('drafts') };
  }
  if (!project.record.public) {
    const why = bearer
      ? 'the token is not one of this project (tokens are per project)'
      : 'this project is not public: send Authorization: Bearer <token>';
    return message(401, 'Unauthenticated.', [{ param: 'Authorization', text: why }]);
  }
  return auth === undefined ? { token: false, drafts: false } : { token: false, drafts: false, ignoredToken: true };
}

const TOKEN_NEEDED = "API token doesn't have the right abilities!";

/** What goes before absolute URLs (asset urls, page links): the origin the client asked. */
function origin(req: V3Request): string {
  if (req.origin) return req.origin;
  const host = header(req.headers, 'host') ?? 'localhost';
  const proto = header(req.headers, 'x-forwarded-proto') === 'https' ? 'https' : 'http';
  return `${proto}://${/^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : 'localhost'}`;
}

/**
 * A query over the cost budget (where.ts spends it) is refused with a 422 in Laravel's validation
 * shape naming the fix — the real API would run it for as long as it takes; the mock never stalls.
 */
function refusingCostly(run: () => V3Answer): V3Answer {
  try {
    return run();
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err;
    const warnings = [{ param: err.problem.param ?? 'where', text: err.problem.detail }];
    return { status: 422, body: validationBody(warnings), warnings, private: false };
  }
}

/** What a route other than an entry route reads (§2.1-2.3, 2.8, 5.2-5.3): the route as said, and its parameters. */
interface RouteReads {
  readonly route: string;
  readonly params: readonly string[];
}

/** The parameters of the project, collection, file and version routes; undefined for the entry routes (entries.ts says theirs). */
function routeReads(segs: readonly string[]): RouteReads | undefined {
  const [first, second, third] = segs;
  if (first === undefined) return { route: '/api', params: ['with'] };
  if (first === 'collections' && segs.length <= 2)
    return { route: segs.length === 1 ? '/api/collections' : '/api/collections/<slug>', params: [] };
  if (first === 'files' && segs.length === 1) return { route: '/api/files', params: ['paginate', 'page', 'search', 'type'] };
  if (first === 'files' && (segs.length === 2 || (segs.length === 3 && second === 'name')))
    return { route: segs.length === 2 ? '/api/files/<id>' : '/api/files/name/<filename>', params: [] };
  if (third === 'versions') return { route: '/api/<slug>/<uuid>/versions', params: [] };
  return undefined;
}

/**
 * A parameter the route does not read is ignored by v3, and said (found by fuzzing: `/api/files?where[x]=1`,
 * `/api/collections?limit=1` were answered in full without a word, even when strict). A name
 * starting with `_` (a cache-buster) is not said, as on the entry routes.
 */
function warnUnread(q: PhpQuery, reads: RouteReads, warn: Warnings): void {
  const known = reads.params.length ? `it reads ${reads.params.join(', ')}` : 'it reads none';
  for (const name of q.params.keys())
    if (!reads.params.includes(name) && !name.startsWith('_'))
      warn.add(name, `ElmapiCMS has no parameter '${name}' on ${reads.route} and ignores it; ${known}`);
  if (reads.route !== '/api/files') return;
  for (const name of ['search', 'type'])
    if (q.params.get(name) instanceof Map)
      warn.add(name, `${name} is a list (${name}[…]=…) where ElmapiCMS reads one value: it is ignored here; send ${name}=…`);
  const type = str(q.params, 'type');
  if (typeof type === 'string' && !FILE_TYPES.has(type))
    warn.add('type', `type=${type} is none of ${[...FILE_TYPES.keys()].join(', ')}: ElmapiCMS lists every file`);
}

/** Parameters ElmapiCMS reads as one string: a list there is ignored (or, for ARRAY_REFUSED, a 500 in v3 and a 422 here). */
const ONE_VALUE = new Set(['limit', 'offset', 'paginate', 'page', 'locale', 'translation_locale', 'sort', 'state', 'with']);
const ARRAY_REFUSED = new Set(['sort', 'state', 'with']);

function answer(
  project: ProjectSnapshot,
  segs: string[],
  req: V3Request,
  sha256Hex: Hash,
  strictAll: boolean,
  given?: { who: Access; origin: string; onePage?: boolean },
): V3Answer {
  const who = given?.who ?? access(project, req, sha256Hex);
  if ('status' in who) return who;
  const index = projectIndex(project);
  const q: PhpQuery = parsePhpQuery(req.query);
  const warn = new Warnings();
  if (who.ignoredToken)
    warn.add(
      'Authorization',
      'the token is none of this project (tokens are per project): ElmapiCMS ignores it on a public project and answers as to anyone, without the drafts scope',
    );
  for (const [name, values] of q.collapsed) {
    const asList = ONE_VALUE.has(name) ? '' : ` or ${name}[]=… for a list`;
    warn.add(
      name,
      `${name} was sent ${values.length} times; PHP keeps only '${values[values.length - 1]}': send '${values.join(',')}' (one comma-separated value)${asList}`,
    );
  }
  const reads = routeReads(segs);
  if (reads) warnUnread(q, reads, warn);
  // translation_locale on an entry route: entries.ts says how v3 reads the list (its first item).
  const saidElsewhere = (name: string) => name === 'translation_locale' && !reads && segs.length === 2;
  for (const name of ONE_VALUE)
    if (q.params.get(name) instanceof Map && !ARRAY_REFUSED.has(name) && (!reads || reads.params.includes(name)) && !saidElsewhere(name))
      warn.add(name, `${name} is a list (${name}[…]=…) where ElmapiCMS reads one value: it is ignored here; send ${name}=…`);
  for (const d of q.dropped) warn.add('query', d);
  const done = (a: Answer): V3Answer => {
    // Strict: every silent quirk is a 422. An array where v3 reads one string crashes v3 (a 500):
    // here always a 422 naming the fix, as bad input gets everywhere in cqa (docs/dialects.md).
    const strict = (strictAll || project.record.strict === true || a.status >= 500) && warn.list.length > 0;
    if (strict) return { status: 422, body: validationBody(warn.list), warnings: warn.list, private: who.token };
    // An answer longer than one may be (MAX_ANSWER_CHARS) is a 400 saying to ask for less (docs/http-api.md#limits).
    const tooLarge = (chars: number | undefined) =>
      message(400, answerTooLarge(chars, 'json' in a ? itemsOf(a.json) : 1, ELMAPI3_LESS).detail, warn.list, who.token);
    let body: string;
    try {
      body =
        'json' in a ? phpJson(a.json) : a.status >= 500 ? JSON.stringify({ message: a.message }, null, 4) : phpJson({ message: a.message });
    } catch (err) {
      if (isStringTooLong(err)) return tooLarge(undefined);
      throw err;
    }
    if (body.length > MAX_ANSWER_CHARS) return tooLarge(body.length);
    return { status: a.status, body, warnings: warn.list, private: who.token };
  };
  const o = given?.origin ?? origin(req);
  const [first, second, third, fourth] = segs;

  if (first === undefined) {
    const withParam = q.params.get('with');
    if (withParam instanceof Map) warn.add('with', 'with must be one string like with=collections,fields (an array is a 500 in ElmapiCMS)');
    else
      for (const name of list(withParam))
        if (name !== 'collections' && name !== 'fields')
          warn.add(
            'with',
            `with=${withParam}: ElmapiCMS loads only collections and fields (with=collections,fields); '${name}' adds nothing`,
          );
    return done(projectAnswer(index, q));
  }
  if (first === 'collections') {
    if (segs.length === 1) return done({ status: 200, json: [...index.collections.values()].map((c) => collectionJson(c, false)) });
    if (segs.length === 2) {
      const c = index.collections.get(second as string);
      return done(c ? { status: 200, json: collectionJson(c, true) } : { status: 404, message: 'Collection not found.' });
    }
  }
  if (first === 'files' && segs.length <= 3 && !(segs.length === 3 && second !== 'name')) {
    if (!who.token)
      return message(403, TOKEN_NEEDED, [
        { param: 'Authorization', text: 'ElmapiCMS serves /files only to a project token with read, even on a public project' },
      ]);
    if (segs.length === 1) return done(filesList(index, q, o, req.path, warn, given?.onePage));
    const m = segs.length === 3 ? index.assetsByName.get(third as string) : index.assetsByKey.get(second as string);
    return m
      ? done({ status: 200, json: assetJson(m, o) })
      : { status: 404, body: '{"error":"Asset not found"}', warnings: warn.list, private: true };
  }
  const col = index.collections.get(first);
  const draftAsked = str(q.params, 'state') === 'draft';
  if (q.params.get('state') instanceof Map) {
    warn.add('state', 'state must be one string: state=draft (an array is a 500 in ElmapiCMS)');
    return done({ status: 500, message: 'Server Error' });
  }
  if (draftAsked && !who.drafts) {
    // cqa's promise: drafts need a token with the drafts scope (v3 lets any reader ask).
    return message(
      403,
      'Forbidden.',
      [
        {
          param: 'state',
          text: "state=draft needs a token with the 'drafts' scope in this mock (ElmapiCMS itself lets any reader ask): use such a token",
        },
      ],
      who.token,
    );
  }
  if (col && segs.length <= 2) warnEntryParams(q.params, index, warn, segs.length === 2);
  const lr = (c: NonNullable<typeof col>): ListRequest => ({
    index,
    col: c,
    params: q.params,
    draft: draftAsked,
    warn,
    origin: o,
    path: `${o}${req.path.replace(/\/$/, '')}`,
  });
  if (segs.length === 1) return done(col ? listEntries(lr(col)) : { status: 404, message: 'Collection not found.' });
  if (segs.length === 2) return done(col ? oneEntry(lr(col), second as string) : { status: 404, message: 'Collection not found.' });
  if (third === 'versions' && (segs.length === 3 || (segs.length === 4 && /^\d+$/.test(fourth as string)))) {
    if (!who.token)
      return message(403, TOKEN_NEEDED, [{ param: 'Authorization', text: 'ElmapiCMS serves versions only to a project token with read' }]);
    if (!col) return done({ status: 404, message: 'Collection not found.' });
    const e = col.byUuid.get(second as string);
    // Drafts have no published version; and no answer without drafts may tell that one exists.
    if (!e || e.record.draft) return done({ status: 404, message: 'Content not found.' });
    const version = versionJson(e.record, col.snap.record.slug, index);
    if (segs.length === 3) return done({ status: 200, json: version ? [version] : [] });
    return done(
      version && fourth === '1'
        ? { status: 200, json: { ...version, snapshot: { fields: {}, meta: { locale: e.record.locale, translation_group_id: null } } } }
        : { status: 404, message: 'Version not found.' },
    );
  }
  return {
    status: 404,
    body: JSON.stringify({ message: `The route ${req.path.slice(1)} could not be found.` }, null, 4),
    warnings: [],
    private: false,
  };
}

/** How many entries or assets an answer lists (a page's `data`), 1 for one item. */
function itemsOf(json: Json): number {
  if (Array.isArray(json)) return json.length;
  const data = json !== null && typeof json === 'object' ? json.data : undefined;
  return Array.isArray(data) ? data.length : 1;
}

function projectAnswer(index: ProjectIndex, q: PhpQuery): Answer {
  const p = index.project.record;
  const withParam = q.params.get('with');
  if (withParam instanceof Map) return { status: 500, message: 'Server Error' };
  const withs = (withParam ?? '').split(',');
  const json: { [k: string]: Json } = {
    uuid: p.id,
    name: p.name,
    description: p.description,
    preview_url: null,
    default_locale: p.default_locale,
    locales: [...p.locales],
  };
  if (withs.includes('collections') || withs.includes('fields'))
    json.collections = [...index.collections.values()].map((c) => collectionJson(c, withs.includes('fields')));
  return { status: 200, json };
}

const EPOCH = '1970-01-01T00:00:00.000Z';

function collectionJson(c: ProjectIndex['collections'] extends ReadonlyMap<string, infer C> ? C : never, withFields: boolean): Json {
  const r = c.snap.record;
  // From the published entries: a draft's times would tell a reader without the drafts scope
  // (and a static build, which holds none) that it exists.
  const published = r.entries.filter((e) => !e.draft);
  const created = carbonJson(published.map((e) => e.created_at).sort()[0] ?? EPOCH);
  const updated = carbonJson(
    published
      .map((e) => e.updated_at)
      .sort()
      .pop() ?? EPOCH,
  );
  const json: { [k: string]: Json } = {
    uuid: r.slug,
    name: r.name,
    slug: r.slug,
    is_singleton: r.singleton === true,
    created_at: created,
    updated_at: updated,
  };
  if (withFields) {
    const fields: Json[] = [];
    let id = 0;
    for (const [order, f] of r.fields.entries()) {
      const own = ++id;
      fields.push(fieldJson(f, own, order + 1, null));
      for (const [childOrder, child] of (f.fields ?? []).entries()) fields.push(fieldJson(child, ++id, childOrder + 1, own));
    }
    json.fields = fields;
  }
  return json;
}

function fieldJson(f: import('../../model/model.js').FieldDef, id: number, order: number, parent: number | null): Json {
  const type = v3FieldType(f.type);
  const options: { [k: string]: Json } = {};
  if (f.values) options.values = [...f.values];
  if (f.multiple) options.multiple = true;
  if (f.repeatable) options.repeatable = true;
  if (f.range) options.mode = 'range';
  if (f.hidden && f.type !== 'password') options.hiddenInAPI = true;
  if (f.collection) options.relation = { collection: f.collection, type: f.multiple ? 2 : 1 };
  // A markdown field answers its Markdown as written: v3's richtext that does so (else it is HTML).
  if (f.type === 'markdown') options.editor = { outputFormat: 'markdown' };
  // A datetime is v3's date field that keeps the time.
  if (f.type === 'datetime') options.includeTime = true;
  return {
    id,
    uuid: `${f.name}`,
    type,
    label: f.name,
    name: f.name,
    description: null,
    placeholder: null,
    options: Object.keys(options).length ? options : [],
    validations: f.required ? { required: { status: true } } : null,
    order,
    parent_field_id: parent,
  };
}

/** `paginate` of /files as ElmapiCMS reads it, `max(1, min(100, (int) paginate))`: said when that moved it. */
function filesPerPage(q: PhpQuery, warn: Warnings): number {
  const n = phpInt(q.params.get('paginate'));
  const per = Math.max(1, Math.min(100, n));
  if (per !== n)
    warn.add(
      'paginate',
      `paginate=${(str(q.params, 'paginate') ?? '').slice(0, 40)} is read as ${per}: ElmapiCMS lists 1 to 100 files a page`,
    );
  return per;
}

/**
 * `type` of /files: the extensions of each kind (§5.2). A Map, not an object literal: `type=constructor`
 * found Object.prototype's constructor and answered 500 (found by fuzzing the query surface).
 */
const FILE_TYPES: ReadonlyMap<string, RegExp> = new Map([
  ['image', /\.(jpe?g|png|gif|webp|svg|bmp)$/i],
  ['video', /\.(mp4|webm|ogg|mov|avi|wmv|flv)$/i],
  ['audio', /\.(mp3|wav|ogg|aac|flac)$/i],
  ['document', /\.(pdf|docx?|xlsx?|pptx?|txt)$/i],
]);

/** `onePage`: every asset on page 1, 25 a page or more (a static tree: its host cannot answer `?page=2`). */
function filesList(index: ProjectIndex, q: PhpQuery, o: string, path: string, warn: Warnings, onePage = false): Answer {
  const per = onePage ? Math.max(25, index.assets.length) : q.params.has('paginate') ? filesPerPage(q, warn) : 25;
  const page = readPage(q.params.get('page'), warn);
  const search = str(q.params, 'search')?.toLowerCase();
  const type = str(q.params, 'type');
  const ext = type ? FILE_TYPES.get(type) : undefined;
  const rows = index.assets.filter(
    (m) =>
      (!search || m.record.file_name.toLowerCase().includes(search) || m.record.mime_type.includes(search)) &&
      (!ext || ext.test(m.record.file_name)),
  );
  const slice = rows.slice((page - 1) * per, page * per);
  return {
    status: 200,
    json: paginated(
      slice.map((m) => assetJson(m, o)),
      rows.length,
      per,
      page,
      `${o}${path.replace(/\/$/, '')}`,
      q.params,
      onePage,
    ),
  };
}

/** The single version of an entry (content files have no history): version 1, current when published. */
function versionJson(
  e: import('../../model/model.js').EntryRecord,
  _slug: string,
  _index: ProjectIndex,
): { [k: string]: Json } | undefined {
  if (e.draft) return undefined;
  return {
    uuid: e.id,
    version_number: 1,
    label: null,
    description: null,
    locale: e.locale,
    translation_group_id: null,
    published_at: iso8601(e.published_at),
    created_at: iso8601(e.created_at),
    updated_at: iso8601(e.updated_at),
    is_current_published: true,
    created_by: null,
  };
}

/**
 * The answer to a GET of `path` (`/api`, `/api/products`, …, no query; its segments as they are,
 * not percent-encoded) as a reader with a token
 * of the project (no drafts) gets it, with `origin` before every absolute URL ('' for root-relative
 * ones): what `cqa build --project <uuid>` writes (src/core/http/elmapi3/static.ts). `/api/files`
 * holds every asset on its one page: a static host answers `?page=2` with page 1, so a client
 * following `next` would never stop.
 */
export function staticAnswer(project: ProjectSnapshot, path: string, origin: string): V3Answer {
  // The path as the tree's files name it, not decoded again: a file named `50%off.txt` is itself.
  const segs = path === '/api' ? [] : path.slice('/api/'.length).split('/');
  const req: V3Request = { method: 'GET', path: `/api${segs.map((s) => `/${encodeURIComponent(s)}`).join('')}`, query: '', headers: {} };
  return refusingCostly(() => answer(project, segs, req, () => '', false, { who: { token: true, drafts: false }, origin, onePage: true }));
}

/** The v3 route table as a request core option (HttpOptions.elmapi3). */
export type Elmapi3Routes = typeof elmapi3Routes;

/** The route table with every elmapi3 project strict, as `strict: true` makes one (`cqa serve --strict`). */
export const strictElmapi3Routes: Elmapi3Routes = (snapshot, req, sha256Hex, nameKnownToday) =>
  elmapi3Routes(snapshot, req, sha256Hex, nameKnownToday, true);
