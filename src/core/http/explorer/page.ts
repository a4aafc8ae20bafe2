// The explorer page as one HTML document: markup here, style sheet and script inlined (so the page
// is one request and one ETag), each allowed by its hash in the Content-Security-Policy.
import { explorerScript } from './script.js';
import { EXPLORER_STYLE } from './style.js';

const MARKUP = `
<header>
  <h1>Content Query API explorer</h1>
  <nav aria-label="Documents">
    <a href="/openapi.json">OpenAPI document</a>
    <a href="/healthz">Health</a>
  </nav>
</header>
<main>
  <section aria-labelledby="token-title">
    <h2 id="token-title">Token</h2>
    <form id="token-form">
      <label for="token">Bearer token
        <input id="token" type="password" autocomplete="off" spellcheck="false" placeholder="public projects need none">
      </label>
      <button type="submit">Use token</button>
      <button type="button" id="forget">Forget token</button>
    </form>
    <p class="hint">The token stays in this page's memory: the field is cleared once it is used; never stored, never put in a URL. Reload the page and it is gone.</p>
    <p id="token-status" role="status" aria-live="polite"></p>
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
      <fieldset>
        <legend>Where</legend>
        <div id="conditions"></div>
        <button type="button" id="add-condition">Add condition</button>
        <label class="inline" for="any"><input type="checkbox" id="any"> match any condition (where[or]) instead of all</label>
      </fieldset>
      <label for="sort-field">Sort by <select id="sort-field"></select></label>
      <label for="sort-dir">Direction <select id="sort-dir"><option value="asc">ascending</option><option value="desc">descending</option></select></label>
      <label for="limit">Limit <input id="limit" type="number" min="0" step="1" inputmode="numeric"></label>
      <label for="offset">Offset <input id="offset" type="number" min="0" step="1" inputmode="numeric"></label>
      <fieldset>
        <legend>Answer</legend>
        <label class="inline"><input type="radio" name="answer" value="list" checked> the list</label>
        <label class="inline"><input type="radio" name="answer" value="first"> the first match (first)</label>
        <label class="inline"><input type="radio" name="answer" value="count"> the number of matches (count)</label>
      </fieldset>
      <label for="state">State <select id="state"><option value="published">published</option><option value="with_draft">with drafts</option><option value="only_draft">drafts only</option></select></label>
      <label for="locale">Locale <select id="locale"></select></label>
      <label class="inline" for="timestamps"><input type="checkbox" id="timestamps"> timestamps</label>
      <button type="submit" id="run">Run query</button>
    </form>
  </section>

  <section id="result" aria-labelledby="result-title" aria-busy="false" hidden>
    <h2 id="result-title">Request and answer</h2>
    <pre id="request"></pre>
    <h3>As curl</h3>
    <pre id="curl"></pre>
    <p id="curl-note" class="hint" hidden>Set the token first: <code>export CQA_TOKEN=…</code> (the page never shows it).</p>
    <h3>Answer <span id="status" role="status"></span></h3>
    <pre id="answer" tabindex="0" aria-label="Answer body"></pre>
  </section>
</main>
`;

/** The page, and the exact text inside its <style> and <script> tags (what the CSP hashes). */
export function explorerDocument(): { html: string; style: string; script: string } {
  const style = EXPLORER_STYLE;
  const script = explorerScript();
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Content Query API explorer</title>
<link rel="icon" href="data:,">
<style>${style}</style>
</head>
<body>
${MARKUP}
<script>${script}</script>
</body>
</html>
`;
  return { html, style, script };
}
