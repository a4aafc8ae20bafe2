// The explorer page's script (docs/explorer.md), bundled at build time into one inline script
// (scripts/build-browser.mjs) that the page's Content-Security-Policy allows by its hash. It
// learns what to show from the API alone, with the token typed in the page; the token stays in
// api.ts's closure. The request on show is in the page's own URL after `#` (never the token), so
// a view can be shared, reloaded, or opened from a link in the answer.
import { api, tokenInUse, useToken } from './api.js';
import { $, copyText } from './dom.js';
import { Builder, forgetSuggestions } from './form.js';
import { watchHealth } from './health.js';
import { loadProjects, renderProjects } from './projects.js';
import { compose, hashOf, headersOf, parsePath, type QueryState } from './query.js';
import { clearAnswer, showAnswer, shownAnswer } from './results.js';

const builder = new Builder();
/** The request on show (`path`: as the page's URL names it after `#`), and whether it carried the token. */
let shown: { query: QueryState; path: string; withToken: boolean } | undefined;
/** A view asked for in the URL whose project is not listed yet (it may need a token). */
let pending: string | undefined;
let runs = 0;
/** The URL of the request on show (what Copy URL copies; the request line may name a header too). */
let requestUrl = '';

/** The view the page's URL names after `#`: `/api/…`, or `project-id:<uuid>/api/…` for an elmapi3 project. */
const hashPath = (): string | undefined => {
  const h = location.hash.slice(1);
  return h.startsWith('/api/') || h.startsWith('project-id:') ? h : undefined;
};

function setStatus(text: string, isError = false): void {
  const s = $('token-status');
  s.textContent = text;
  s.className = isError ? 'error' : '';
}

const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

async function run(asked: QueryState, remember = true): Promise<void> {
  const project = builder.projects.find((p) => p.id === asked.project);
  const collection = project?.collections.find((c) => c.slug === asked.collection);
  if (!project || !collection) return;
  // Routed as the project's dialect is, whatever form of link named it.
  const query = { ...asked, v3: project.dialect === 'elmapi3' };
  const path = compose(query);
  const view = hashOf(query);
  const headers = headersOf(query);
  const sendToken = tokenInUse() && !project.anonymous;
  const url = location.origin + path;
  const result = $('result');
  const mine = ++runs;
  result.hidden = false;
  result.setAttribute('aria-busy', 'true');
  const named = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  requestUrl = url;
  $('request').textContent = `GET ${url}${named.length ? `  (${named.join(', ')})` : ''}`;
  // -g: curl must not read the brackets as its own URL patterns. The token stays out of the page.
  $('curl').textContent =
    `curl -g${named.map((h) => ` -H ${quote(h)}`).join('')} -H ${quote('Accept: application/json')}${sendToken ? ' -H "Authorization: Bearer $CQA_TOKEN"' : ''} ${quote(url)}`;
  $('curl-note').hidden = !sendToken;
  for (const id of ['status', 'timing', 'summary', 'answer']) $(id).textContent = '';
  // The page's own URL names the request (never the token): a view to share or reload.
  if (remember && location.hash !== `#${view}`) history.pushState(null, '', `#${view}`);
  const r = await api(path, !sendToken, headers);
  if (mine !== runs) return;
  shown = { query, path: view, withToken: r.withToken };
  showAnswer({ project, collection, query }, r);
  result.setAttribute('aria-busy', 'false');
}

/** Opens the view a `#/api/…` URL names: the form set to it, and its answer. */
function open(path: string): void {
  const parsed = parsePath(path);
  if (!parsed) return;
  const why = builder.apply(parsed.query);
  if (why) {
    pending = path;
    setStatus(`The link asks for ${path}, but ${why}.`, true);
    return;
  }
  pending = undefined;
  $('ignored').textContent = parsed.ignored.length ? `Not in the form (left out): ${parsed.ignored.join(', ')}` : '';
  void run(parsed.query, false);
}

async function load(quiet = false): Promise<void> {
  if (!quiet) setStatus('Loading…');
  const r = await loadProjects();
  if (!r.ok) {
    renderProjects([]);
    builder.setProjects([]);
    setStatus(r.status, true);
    return;
  }
  const projects = r.projects;
  renderProjects(projects);
  builder.setProjects(projects);
  const n = `${projects.length} project${projects.length === 1 ? '' : 's'}`;
  if (tokenInUse()) setStatus(`Token accepted: ${n} to explore.`);
  else
    setStatus(
      projects.length
        ? `${n} readable without a token; type a token to see its project.`
        : 'No project here is public: type a token to see its project.',
    );
  if (pending) open(pending);
}

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const field = $<HTMLInputElement>('token');
  // Out of the field at once: the DOM is what another page of this origin could read.
  const typed = field.value.trim();
  field.value = '';
  // A header carries visible ASCII only: the browser would refuse to send another character.
  const odd = /[^\x21-\x7e]/.exec(typed);
  if (odd) {
    setStatus(
      `A token is written in visible ASCII (letters, digits, - . _ ~ + / =), and this one holds U+${(odd[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}: check what was pasted.`,
      true,
    );
    return;
  }
  useToken(typed);
  field.placeholder = tokenInUse() ? 'a token is in use (type another to replace it)' : 'public projects need none';
  forgetSuggestions();
  void load();
});

$('forget').addEventListener('click', () => {
  useToken('');
  const field = $<HTMLInputElement>('token');
  field.value = '';
  field.placeholder = 'public projects need none';
  // What the token fetched goes with it.
  if (shown?.withToken) {
    clearAnswer();
    shown = undefined;
    runs++;
  }
  forgetSuggestions();
  void load();
});

$('query-form').addEventListener('submit', (event) => {
  event.preventDefault();
  $('ignored').textContent = '';
  void run(builder.read());
});

// Ctrl+Enter (⌘+Enter) runs the query from anywhere on the page but the token field.
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
  if (event.target instanceof Element && event.target.closest('#token-form')) return;
  event.preventDefault();
  if (!$<HTMLButtonElement>('run').disabled) $<HTMLFormElement>('query-form').requestSubmit();
});

// A collection's slug in the project list: a fresh query of that collection, run at once.
$('project-list').addEventListener('click', (event) => {
  const b = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-collection]') : null;
  if (!b?.dataset.project || !b.dataset.collection) return;
  builder.reset(b.dataset.project, b.dataset.collection);
  $('ignored').textContent = '';
  void run(builder.read());
  $('collection').focus();
});

// A link of the answer (`#/api/…`), the back button, or a URL typed by hand.
window.addEventListener('hashchange', () => {
  const path = hashPath();
  if (path && path !== shown?.path) open(path);
});

// Copy buttons: the URL, the curl line, the answer.
const COPIED: Record<string, string> = { url: 'the URL', curl: 'the curl line', answer: 'the answer' };
document.addEventListener('click', (event) => {
  const b = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-copy]') : null;
  const what = b?.dataset.copy;
  if (!what) return;
  const text = what === 'url' ? requestUrl : what === 'answer' ? shownAnswer() : ($(what).textContent ?? '');
  void copyText(text).then((ok) => {
    $('copied').textContent = ok ? `Copied ${COPIED[what] ?? what}.` : 'The browser did not allow copying: select the text instead.';
  });
});

pending = hashPath();
void load().then(() =>
  watchHealth(async () => {
    forgetSuggestions();
    await load(true);
    if (shown) await run(shown.query, false);
  }),
);
