// The answer, shown three ways: a summary (how many matches, which of them), a table in which
// every entry and every related entry is a link that loads its own request and media show as
// thumbnails, and the body as the server sent it, pretty-printed; with the status, the time, the
// size and the response headers.
import type { Answer } from './api.js';
import { $, el } from './dom.js';
import { emptyQuery, hashOf, type QueryState } from './query.js';
import type { Collection, Field, Project } from './schema.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const bytes = (n: number): string => `${n.toLocaleString('en')} byte${n === 1 ? '' : 's'}`;

/** Where the answer came from: what its links and summary need to know. */
export interface Context {
  readonly project: Project;
  readonly collection: Collection;
  readonly query: QueryState;
}

/** A link to the request of one entry, as a page link (`#/api/…`): it loads that request. */
function entryLink(ctx: Context, slug: string, id: string, text: string): HTMLAnchorElement {
  const q = { ...emptyQuery(ctx.project.id, slug, ctx.query.v3), entry: id, state: ctx.query.state, timestamps: ctx.query.timestamps };
  return el('a', { href: `#${hashOf(q)}`, class: 'entry-link', text });
}

/** An elmapi3 entry ({uuid, locale, published_at, fields, …}) as one row: its fields beside its own columns. */
function flat(e: Obj): Obj {
  const { fields, ...own } = e;
  return isObj(fields) ? { ...own, ...fields } : own;
}

/** The key that names an entry in its answers: `uuid` in elmapi3, else `id`. */
const idKey = (ctx: Context) => (ctx.query.v3 ? 'uuid' : 'id');

const IMAGE = /^image\/(png|jpeg|gif|webp|avif|apng|bmp)$/i;

/** Whether `src` is an http(s) URL of this page's own origin (what the page loads an image from). */
function ownImage(src: string): boolean {
  try {
    const u = new URL(src, location.href);
    return src !== '' && (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === location.origin;
  } catch {
    return false;
  }
}

/** A media item: a thumbnail (an image on this origin) and its file name, linking to the file. */
function media(m: Obj): HTMLElement {
  // cqa and elmapi: full_url, file_name; elmapi3: url, filename, thumbnail_url.
  let url = typeof m.full_url === 'string' ? m.full_url : typeof m.url === 'string' ? m.url : '';
  const name = typeof m.file_name === 'string' ? m.file_name : typeof m.filename === 'string' ? m.filename : String(m.id ?? m.uuid ?? url);
  let sameOrigin = false;
  try {
    const parsed = new URL(url, location.href);
    sameOrigin = url !== '' && parsed.origin === location.origin;
    // Only web addresses are links (a media URL comes from the server, but is shown as data).
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') url = '';
  } catch {
    url = '';
  }
  const image = typeof m.mime_type === 'string' ? IMAGE.test(m.mime_type) : typeof m.width === 'number';
  const thumb = typeof m.thumb === 'string' ? m.thumb : typeof m.thumbnail_url === 'string' ? m.thumbnail_url : url;
  const alt = typeof m.alt === 'string' && m.alt ? m.alt : name;
  const link = el('a', { href: url || undefined, target: '_blank', rel: 'noopener noreferrer', class: 'media' });
  // The thumbnail is a URL of its own (a json value shaped like a media item names any): loaded only from this origin too.
  if (image && sameOrigin && ownImage(thumb)) link.append(el('img', { src: thumb, alt, loading: 'lazy', class: 'thumb' }));
  link.append(el('span', { text: name }));
  return link;
}

function short(text: string, max = 80): HTMLElement {
  return text.length > max ? el('span', { title: text, text: `${text.slice(0, max)}…` }) : el('span', { text });
}

/** One value of an entry, as a cell shows it. */
function cell(ctx: Context, field: Field | undefined, value: unknown): Node {
  if (value === null || value === undefined || value === '') return el('span', { class: 'dim', text: '—' });
  if (Array.isArray(value)) {
    if (value.length === 0) return el('span', { class: 'dim', text: '[]' });
    const parts = value.map((v) => cell(ctx, field, v));
    return el('span', { class: 'many' }, ...parts);
  }
  if (isObj(value)) {
    if (('full_url' in value && 'file_name' in value) || ('url' in value && 'filename' in value)) return media(value);
    const id = value[idKey(ctx)];
    if (field?.type === 'relation' && field.collection && (typeof id === 'string' || typeof id === 'number')) {
      const target = ctx.project.collections.find((c) => c.slug === field.collection);
      const shown = ctx.query.v3 ? flat(value) : value;
      const label = target && ['title', 'name', 'label'].map((k) => shown[k]).find((v) => typeof v === 'string');
      return entryLink(ctx, field.collection, String(id), label ? `${id} · ${label}` : String(id));
    }
    return short(JSON.stringify(value));
  }
  if (field?.type === 'relation' && field.collection && (typeof value === 'string' || typeof value === 'number')) {
    return entryLink(ctx, field.collection, String(value), String(value));
  }
  return short(String(value));
}

/** Rows a table shows at most, and characters of the body the page prints: a list without a limit may be huge. */
const MAX_ROWS = 500;
const MAX_TEXT = 1_000_000;

/** The whole body as last shown (what Copy answer copies, even when the page shows a part). */
let answerText = '';
export const shownAnswer = (): string => answerText;

function entriesTable(ctx: Context, all: readonly Obj[]): HTMLTableElement {
  const entries = all.slice(0, MAX_ROWS).map((e) => (ctx.query.v3 ? flat(e) : e));
  const key = idKey(ctx);
  const fields = new Map(ctx.collection.fields.map((f) => [f.name, f]));
  const columns: string[] = [];
  for (const e of entries) for (const k of Object.keys(e)) if (!columns.includes(k)) columns.push(k);
  return el(
    'table',
    { class: 'entries' },
    el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { scope: 'col', text: c })))),
    el(
      'tbody',
      {},
      ...entries.map((e) =>
        el(
          'tr',
          {},
          ...columns.map((c) =>
            c === key && (typeof e[key] === 'string' || typeof e[key] === 'number')
              ? el('td', {}, entryLink(ctx, ctx.collection.slug, String(e[key]), String(e[key])))
              : el('td', {}, cell(ctx, fields.get(c), e[c])),
          ),
        ),
      ),
    ),
  );
}

/** How many matched and which are shown, in words. */
function summary(ctx: Context, r: Answer): { text: string; entries: Obj[] } {
  const b = r.body;
  if (r.status === 0) return { text: `No answer: ${r.text}`, entries: [] };
  if (r.status >= 400) return { text: `The API refused the request (${r.status} ${r.statusText}).`, entries: [] };
  if (typeof b === 'number') return { text: `${b} match${b === 1 ? '' : 'es'}.`, entries: [] };
  if (isObj(b) && typeof b.count === 'number' && Object.keys(b).length === 1)
    return { text: `${b.count} match${b.count === 1 ? '' : 'es'}.`, entries: [] };
  const list = Array.isArray(b) ? b : isObj(b) && Array.isArray(b.data) ? b.data : undefined;
  if (list) {
    const entries = list.filter(isObj);
    const meta = isObj(b) && isObj(b.meta) ? b.meta : undefined;
    if (meta && typeof meta.total === 'number') {
      // cqa's meta.offset; Laravel's (elmapi3) meta.from, counted from 1.
      const offset = typeof meta.offset === 'number' ? meta.offset : typeof meta.from === 'number' ? meta.from - 1 : 0;
      const text =
        entries.length === 0
          ? `No entry shown: ${meta.total} match${meta.total === 1 ? '' : 'es'}${offset ? ` (offset ${offset})` : ''}.`
          : `Entries ${offset + 1}–${offset + entries.length} of ${meta.total} match${meta.total === 1 ? '' : 'es'}.`;
      return { text, entries };
    }
    return { text: `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}.`, entries };
  }
  const key = idKey(ctx);
  const one = isObj(b) && isObj(b.data) ? b.data : isObj(b) && key in b ? b : undefined;
  if (one) return { text: ctx.query.entry ? `Entry ${String(one[key])}.` : `The first match: entry ${String(one[key])}.`, entries: [one] };
  return { text: '', entries: [] };
}

/** Shows `r` in the result section. */
export function showAnswer(ctx: Context, r: Answer): void {
  $('status').textContent = `${r.status} ${r.statusText}`;
  $('status').className = r.status >= 400 || r.status === 0 ? 'error' : 'ok';
  const encoding = r.headers.find(([k]) => k === 'content-encoding')?.[1];
  const wire = r.headers.find(([k]) => k === 'content-length')?.[1];
  $('timing').textContent =
    `${Math.round(r.ms)} ms · ${bytes(r.bytes)}${encoding ? ` (${encoding}${wire ? `, ${bytes(Number(wire))} sent` : ''})` : ''}`;
  const { text, entries } = summary(ctx, r);
  $('summary').textContent = entries.length > MAX_ROWS ? `${text} The table shows the first ${MAX_ROWS}: set a limit.` : text;
  $('table').replaceChildren(...(entries.length ? [entriesTable(ctx, entries)] : []));
  $('headers').replaceChildren(...r.headers.map(([k, v]) => el('tr', {}, el('th', { scope: 'row', text: k }), el('td', { text: v }))));
  answerText = r.body === undefined ? r.text : JSON.stringify(r.body, null, 2);
  $('answer').textContent =
    answerText.length > MAX_TEXT
      ? `${answerText.slice(0, MAX_TEXT)}\n… (${answerText.length.toLocaleString('en')} characters in all: Copy answer copies them all)`
      : answerText;
}

/** Empties the result section (an answer fetched with a token that was then forgotten). */
export function clearAnswer(): void {
  answerText = '';
  for (const id of ['request', 'curl', 'status', 'timing', 'summary', 'answer']) $(id).textContent = '';
  for (const id of ['table', 'headers']) $(id).replaceChildren();
  $('result').hidden = true;
}
