// The query engine's public API (§4.3–§4.5): raw query string in, exact JSON text or a typed
// problem out. Bodies are assembled from the snapshot's precomputed JSON with the same
// serialisers as the static files, so an empty query answers byte-for-byte what dist/ holds.
// No Node imports: runs in browsers and edge runtimes.
import type { Dialect } from '../dialects/types.js';
import { entryJson, listFrame, type EntryProjection } from '../snapshot/serialize.js';
import type { CollectionSnapshot, EntrySnapshot, MediaSnapshot, ProjectSnapshot } from '../model/types.js';
import { runList } from './evaluate.js';
import { parseQuery } from './parse.js';
import { collectionSubject, mediaSubject, planItem, planList, type ListPlan, type State, type Subject } from './plan.js';
import { problem, ProblemError } from './problems.js';
import { resultKey } from './results.js';
import { askedBefore } from './asked-before.js';
import { answerTooLarge, checkAnswerChars, MAX_ANSWER_CHARS, overMaxChars, refuseLongTexts } from './answer-size.js';
import { MEDIA_ATTRIBUTES, mediaTable, type Table } from './table.js';
import type { QueryContext, QueryOutcome, QueryProblem, Utf8Outcome } from './types.js';

export type { QueryContext, QueryOutcome } from './types.js';

function ok(body: string): QueryOutcome {
  return { ok: true, body };
}

function fail(p: QueryProblem): QueryOutcome {
  return { ok: false, problem: p };
}

/** Runs `fn`, turning a ProblemError into a failed outcome. Other errors are bugs: rethrown. */
function guard<O extends Utf8Outcome>(fn: () => O): O | QueryOutcome {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ProblemError) return fail(e.problem);
    throw e;
  }
}

function visibleIn(state: State, draft: boolean): boolean {
  return state === 'with_draft' || (state === 'only_draft') === draft;
}

const projectionCache = new WeakMap<CollectionSnapshot, Map<string, readonly number[]>>();

function entryProjection(col: CollectionSnapshot, keep: readonly string[] | null, timestamps: boolean): EntryProjection | undefined {
  if (keep === null) return timestamps ? { timestamps } : undefined;
  const keyName = keep.join(',');
  let cache = projectionCache.get(col);
  if (!cache) projectionCache.set(col, (cache = new Map()));
  let fields = cache.get(keyName);
  if (!fields) {
    const set = new Set(keep);
    fields = [];
    col.visibleFields.forEach((f, i) => {
      if (set.has(f.name)) (fields as number[]).push(i);
    });
    if (cache.size < 256) cache.set(keyName, fields);
  }
  return { timestamps, fields };
}

/** Validated plans by query string, per table (a small LRU): repeated queries skip parse and plan. */
const planCache = new WeakMap<Table, Map<string, ListPlan>>();
const PLAN_CACHE_SIZE = 256;

/**
 * A plan is kept from the second time its query comes (askedBefore): a client paging through a list
 * asks for each offset once, and keeping each of those plans (~1.6 KB) had them survive
 * young-generation collections, whose pause grows with what survives.
 */
const seenOnce = new Uint32Array(1024);

function cachedPlan(subject: Subject, rawQuery: string, ctx: QueryContext): ListPlan {
  const key = `${ctx.maxLimit}|${ctx.scopes.has('drafts') ? 'd' : ''}|${rawQuery}`;
  let cache = planCache.get(subject.table);
  if (!cache) planCache.set(subject.table, (cache = new Map()));
  let plan = cache.get(key);
  if (plan) {
    cache.delete(key);
  } else {
    plan = planList(parseQuery(rawQuery), subject, ctx);
    if (!askedBefore(seenOnce, key)) return plan;
    if (cache.size >= PLAN_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, plan);
  return plan;
}

/** Where a list's matches are kept for its next pages (results.ts); null: evaluated anew. */
const resultCacheKey = (rawQuery: string, ctx: QueryContext): string | null => (ctx.reuse === false ? null : resultKey(rawQuery));

function notFound(detail: string, what: 'entry_not_found' | 'media_not_found'): QueryProblem {
  return problem(404, 'not_found', detail, undefined, { kind: what });
}

/** `GET /api/<project>/<collection>?<rawQuery>` */
export function queryEntries(
  project: ProjectSnapshot,
  collection: CollectionSnapshot,
  rawQuery: string,
  ctx: QueryContext & { readonly utf8: true },
): Utf8Outcome;
export function queryEntries(project: ProjectSnapshot, collection: CollectionSnapshot, rawQuery: string, ctx: QueryContext): QueryOutcome;
export function queryEntries(project: ProjectSnapshot, collection: CollectionSnapshot, rawQuery: string, ctx: QueryContext): Utf8Outcome {
  return guard((): Utf8Outcome => {
    const subject = collectionSubject(project, collection);
    const plan = cachedPlan(subject, rawQuery, ctx);
    const { total, page } = runList(subject.table, plan, resultCacheKey(rawQuery, ctx));
    const d = project.dialect;
    if (plan.count) return ok(d.count(total));
    const projection = entryProjection(collection, plan.keep, plan.timestamps);
    const entries = collection.entries;
    if (plan.first) {
      const i = page[0];
      if (i === undefined) return fail(notFound(`no entry of '${collection.record.slug}' matches the query`, 'entry_not_found'));
      return ok(d.item(sized(entryJson(entries[i]!, projection))));
    }
    const bytes = ctx.utf8 && !projection ? listUtf8(d, entries, page, total, plan.limit, plan.offset) : undefined;
    if (bytes) return { ok: true, body: bytes };
    if (!projection?.fields) refuseLongTexts(Array.from(page, (i) => entries[i] as EntrySnapshot));
    const items: string[] = new Array(page.length);
    for (let k = 0; k < page.length; k++) items[k] = entryJson(entries[page[k] as number]!, projection);
    return ok(d.list(sizedList(items), total, plan.limit, plan.offset));
  });
}

/** `items`, unless their list would be longer than an answer may be (MAX_ANSWER_CHARS: a 400 then). */
function sizedList(items: readonly string[]): readonly string[] {
  // The separators and the envelope add a few characters per item; the items themselves decide.
  let chars = items.length;
  for (const item of items) chars += item.length;
  checkAnswerChars(chars, items.length);
  return items;
}

/** One item's text, unless it is longer than an answer may be. */
function sized(item: string): string {
  checkAnswerChars(item.length, 1);
  return item;
}

const encoder = new TextEncoder();

/**
 * The list of these entries as UTF-8, copied from their own bytes; undefined unless each has them.
 * A page of 20 generated entries is ~25 KB: as strings it was made three times over (each entry's
 * text decoded, the list joined, the list flattened to encode it), most of what a request
 * allocated, and what set how often the young generation was collected (docs/performance.md).
 */
function listUtf8(
  d: Dialect,
  entries: readonly EntrySnapshot[],
  page: ArrayLike<number>,
  total: number,
  limit: number | null,
  offset: number,
): Uint8Array | undefined {
  const texts: Uint8Array[] = new Array(page.length);
  let size = 0;
  for (let k = 0; k < page.length; k++) {
    const b = entries[page[k] as number]!.utf8?.();
    if (!b) return undefined;
    texts[k] = b;
    size += b.length;
  }
  // Measured in characters, from the texts: UTF-8 bytes are as many or more.
  if (size > MAX_ANSWER_CHARS) {
    if (overMaxChars(texts, page.length)) throw new ProblemError(answerTooLarge(undefined, page.length, undefined, size));
    return undefined;
  }
  const frame = listFrame(d, total, limit, offset);
  if (!frame) return undefined;
  const [head, sep, tail] = frame.map((t) => encoder.encode(t)) as [Uint8Array, Uint8Array, Uint8Array];
  size += head.length + tail.length + sep.length * Math.max(0, page.length - 1);
  const out = new Uint8Array(size);
  out.set(head);
  let at = head.length;
  for (let k = 0; k < texts.length; k++) {
    if (k > 0) {
      out.set(sep, at);
      at += sep.length;
    }
    out.set(texts[k] as Uint8Array, at);
    at += (texts[k] as Uint8Array).length;
  }
  out.set(tail, at);
  return out;
}

/** `GET /api/<project>/<collection>/<id>?<rawQuery>` (state, timestamps, fields, exclude). */
export function queryEntry(
  project: ProjectSnapshot,
  collection: CollectionSnapshot,
  id: string,
  rawQuery: string,
  ctx: QueryContext,
): QueryOutcome {
  return guard(() => {
    const subject = collectionSubject(project, collection);
    const plan = planItem(parseQuery(rawQuery), subject, ctx);
    const entry = collection.byId.get(id);
    if (!entry || !visibleIn(plan.state, entry.record.draft)) {
      return fail(
        notFound(
          // Worded as the same request without a query is answered (problem.ts entryNotFound).
          `no ${plan.state === 'published' ? 'published ' : ''}entry '${id}' in collection '${collection.record.slug}'`,
          'entry_not_found',
        ),
      );
    }
    return ok(project.dialect.item(sized(entryJson(entry, entryProjection(collection, plan.keep, plan.timestamps)))));
  });
}

const parsedMedia = new WeakMap<MediaSnapshot, Record<string, unknown>>();

/** A media item's JSON, cut to `keep` (id always kept); same key order as the full JSON. */
function mediaJson(m: MediaSnapshot, keep: readonly string[] | null): string {
  if (keep === null) return m.json;
  let obj = parsedMedia.get(m);
  if (!obj) parsedMedia.set(m, (obj = JSON.parse(m.json) as Record<string, unknown>));
  const out: Record<string, unknown> = { id: obj.id };
  for (const a of MEDIA_ATTRIBUTES) if (keep.includes(a.name) && Object.hasOwn(obj, a.name)) out[a.name] = obj[a.name];
  return JSON.stringify(out);
}

/**
 * `GET /api/<project>/project-media?<rawQuery>`: the same parameters as entry lists, filtering on
 * media attributes. Media have no drafts (state=only_draft matches nothing), no locale (`locale`
 * is validated, then has no effect) and no timestamps (`timestamps` is accepted, no effect).
 */
export function queryMediaList(project: ProjectSnapshot, rawQuery: string, ctx: QueryContext): QueryOutcome {
  return guard(() => {
    const table = mediaTable(project);
    const plan = cachedPlan(mediaSubject(project, table), rawQuery, ctx);
    const { total, page } = runList(table, { ...plan, locale: null }, resultCacheKey(rawQuery, ctx));
    const d = project.dialect;
    if (plan.count) return ok(d.count(total));
    if (plan.first) {
      const i = page[0];
      if (i === undefined) return fail(notFound('no media item matches the query', 'media_not_found'));
      return ok(d.item(mediaJson(project.media[i]!, plan.keep)));
    }
    const items: string[] = new Array(page.length);
    for (let k = 0; k < page.length; k++) items[k] = mediaJson(project.media[page[k] as number]!, plan.keep);
    return ok(d.list(sizedList(items), total, plan.limit, plan.offset));
  });
}

/** `GET /api/<project>/project-media/<id>?<rawQuery>` (state, timestamps, fields, exclude). */
export function queryMediaItem(project: ProjectSnapshot, id: string, rawQuery: string, ctx: QueryContext): QueryOutcome {
  return guard(() => {
    const table = mediaTable(project);
    const plan = planItem(parseQuery(rawQuery), mediaSubject(project, table), ctx);
    const m = project.mediaByKey.get(id);
    if (!m || plan.state === 'only_draft') return fail(notFound(`no media item '${id}'`, 'media_not_found'));
    return ok(project.dialect.item(mediaJson(m, plan.keep)));
  });
}
