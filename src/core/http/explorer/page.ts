// The explorer page and the API reference page, each one HTML document: markup here, style sheets
// and scripts inlined (one request, one ETag), each allowed by its hash in the page's
// Content-Security-Policy. The scripts are bundled from TypeScript at build time (bundle.d.ts).
import { EXPLORER_SCRIPT, REFERENCE_SCRIPT } from './bundle.js';
import { EXPLORER_STYLE, REFERENCE_STYLE } from './style.js';

const TOKEN_FORM = `
    <form id="token-form">
      <label for="token">Bearer token
        <input id="token" type="password" autocomplete="off" spellcheck="false" placeholder="public projects need none">
      </label>
      <button type="submit">Use token</button>
      <button type="button" id="forget">Forget token</button>
    </form>
    <p class="hint">The token stays in this page's memory: the field is cleared once it is used; never stored, never put in a URL. Reload the page and it is gone.</p>
    <p id="token-status" role="status" aria-live="polite"></p>`;

const markup = (reference: boolean): string => `
<header>
  <h1>Content Query API explorer</h1>
  <nav aria-label="Documents">
    ${reference ? '<a href="/reference" target="_blank" rel="noopener">API reference</a>\n    ' : ''}<a href="/openapi.json">OpenAPI document</a>
    <a href="/healthz">Health</a>
  </nav>
</header>
<div id="content-errors" role="alert" hidden></div>
<main>
  <section aria-labelledby="token-title">
    <h2 id="token-title">Token</h2>${TOKEN_FORM}
  </section>

  <section aria-labelledby="projects-title">
    <h2 id="projects-title">Projects</h2>
    <div id="project-list"></div>
  </section>

  <section aria-labelledby="builder-title">
    <h2 id="builder-title">Query</h2>
    <form id="query-form">
      <label for="project">Project <select id="project"></select></label>
      <label for="collection">Collection <select id="collection"></select></label>
      <label for="entry">Entry id <input id="entry" type="text" list="entry-ids" autocomplete="off" spellcheck="false" placeholder="empty: the list"></label>
      <datalist id="entry-ids"></datalist>
      <fieldset id="list-options">
        <legend>List</legend>
        <fieldset>
          <legend>Where</legend>
          <div id="conditions"></div>
          <button type="button" id="add-condition">Add condition</button>
          <label class="inline" for="any"><input type="checkbox" id="any"> match any condition (where[or]) instead of all</label>
        </fieldset>
        <fieldset>
          <legend>Where a related entry matches (<span id="relation-syntax">whereRelation</span>)</legend>
          <div id="relations"></div>
          <button type="button" id="add-relation">Add related condition</button>
        </fieldset>
        <label for="sort-field">Sort by <select id="sort-field"></select></label>
        <label for="sort-dir">Direction <select id="sort-dir"><option value="asc">ascending</option><option value="desc">descending</option></select></label>
        <label for="limit">Limit <input id="limit" type="number" min="0" step="1" inputmode="numeric"></label>
        <label for="offset">Offset <input id="offset" type="number" min="0" step="1" inputmode="numeric"></label>
        <label for="locale">Locale <select id="locale"></select></label>
        <fieldset>
          <legend>Answer</legend>
          <label class="inline"><input type="radio" name="answer" value="list" checked> the list</label>
          <label class="inline"><input type="radio" name="answer" value="first"> the first match (first)</label>
          <label class="inline"><input type="radio" name="answer" value="count"> the number of matches (count)</label>
        </fieldset>
      </fieldset>
      <label for="state">State <select id="state"><option value="published">published</option><option value="with_draft">with drafts</option><option value="only_draft">drafts only</option></select></label>
      <label class="inline" for="timestamps"><input type="checkbox" id="timestamps"> timestamps</label>
      <fieldset>
        <legend>Fields</legend>
        <label for="pick">Answer with <select id="pick"><option value="all">every field</option><option value="fields">only these (fields=)</option><option value="exclude">all but these (exclude=)</option></select></label>
        <fieldset id="pick-box" class="plain"><legend class="offscreen">Fields to keep or leave out</legend><div id="pick-fields"></div></fieldset>
      </fieldset>
      <button type="submit" id="run" disabled>Run query</button>
      <span class="hint">Ctrl+Enter runs it from anywhere on the page.</span>
    </form>
    <p id="ignored" class="hint" role="status"></p>
  </section>

  <section id="result" aria-labelledby="result-title" aria-busy="false" hidden>
    <h2 id="result-title">Request and answer</h2>
    <div class="copyable"><pre id="request"></pre><button type="button" data-copy="url">Copy URL</button></div>
    <h3>As curl</h3>
    <div class="copyable"><pre id="curl"></pre><button type="button" data-copy="curl">Copy curl</button></div>
    <p id="curl-note" class="hint" hidden>Set the token first: <code>export CQA_TOKEN=…</code> (the page never shows it).</p>
    <h3>Answer <span id="status" role="status"></span> <span id="timing" class="hint"></span></h3>
    <p id="summary"></p>
    <div id="table" class="scroll"></div>
    <details>
      <summary>Response headers</summary>
      <div class="scroll"><table id="headers"></table></div>
    </details>
    <div class="copyable"><pre id="answer" tabindex="0" aria-label="Answer body"></pre><button type="button" data-copy="answer">Copy answer</button></div>
    <p id="copied" class="hint" role="status" aria-live="polite"></p>
  </section>
</main>
`;

export interface InlineDocument {
  readonly html: string;
  /** The exact text inside each <style> and <script> tag, in order: what the CSP hashes. */
  readonly styles: readonly string[];
  readonly scripts: readonly string[];
}

function document(title: string, body: string, styles: readonly string[], scripts: readonly string[]): InlineDocument {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
${styles.map((s) => `<style>${s}</style>`).join('\n')}
</head>
<body>
${body}
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
  return { html, styles, scripts };
}

/** The explorer page; `reference`: whether it links to the API reference page. */
export function explorerDocument(reference: boolean): InlineDocument {
  return document('Content Query API explorer', markup(reference), [EXPLORER_STYLE], [EXPLORER_SCRIPT]);
}

/** Swagger UI's files, as the package ships them (src/node/server/reference-assets.ts reads them). */
export interface ReferenceAssets {
  readonly script: string;
  readonly style: string;
}

/**
 * Script text made safe inside <script>…</script>: the HTML parser ends the element at `</script`
 * and reads `<!--` and `<script` in it specially, so their `<` is written `\u003C`, which means
 * the same in a string, a template or a regular expression, where such text stands in a bundle.
 */
export function inlineScript(code: string): string {
  return code.replace(/<(?=!--|\/?script)/gi, '\\u003C');
}

/** The API reference page: Swagger UI on /openapi.json, with a token field like the explorer's. */
export function referenceDocument(assets: ReferenceAssets): InlineDocument {
  const body = `
<header>
  <h1>Content Query API reference</h1>
  <nav aria-label="Documents">
    <a href="/">Explorer</a>
    <a href="/openapi.json">OpenAPI document</a>
  </nav>
</header>
<section class="token" aria-label="Token">${TOKEN_FORM.replace('public projects need none', 'none: public projects only')}
</section>
<main id="swagger-ui"></main>
`;
  return document(
    'Content Query API reference',
    body,
    [assets.style.replace(/<\/style/gi, '<\\/style'), REFERENCE_STYLE],
    [inlineScript(assets.script), REFERENCE_SCRIPT],
  );
}
