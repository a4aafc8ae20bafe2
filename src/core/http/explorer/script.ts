// The explorer page's script, as the browser runs it (plain ES2020, no framework, no build step):
// kept as a string so the page bundles for the edge like any module. It learns what to show from
// the API itself, with the token typed in the page: /openapi.json lists the projects and
// collections the token may read (both dialects), a `cqa` project's own answer adds field types and
// counts, an `elmapi` project's collections are counted with `?count`. The token lives in one
// variable of this closure: never in storage, a cookie, a URL, or its field once used. Every text from the server goes in through
// textContent, never as HTML. (No backtick or dollar-brace below: this is a template literal.)
// A function, not a constant: a bundle that never serves the page drops it (a tagged template
// at module level is a call, which a bundler must keep).
export const explorerScript = (): string => String.raw`
'use strict';
(() => {
  const OPERATORS = [
    ['eq', '= equals'], ['not', '≠ not'], ['like', 'like (% any run, _ one character)'],
    ['in', 'in (a,b,…)'], ['not_in', 'not in (a,b,…)'], ['lt', '< lt'], ['lte', '≤ lte'], ['gt', '> gt'], ['gte', '≥ gte'],
    ['between', 'between (low,high)'], ['not_between', 'not between (low,high)'], ['null', 'is empty'], ['not_null', 'is not empty'],
  ];
  const TIMESTAMPS = ['created_at', 'updated_at', 'published_at'];
  const $ = (id) => document.getElementById(id);
  let token = '';
  let projects = [];

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') e.textContent = v;
      else if (v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) if (c !== undefined && c !== null) e.append(c);
    return e;
  }

  /** One request to the API, as a client sends it; the answer's status and text as received. */
  async function api(path, anonymous) {
    const headers = { Accept: 'application/json' };
    if (token && !anonymous) headers.Authorization = 'Bearer ' + token;
    let res;
    try {
      res = await fetch(path, { headers, cache: 'no-store' });
    } catch (err) {
      return { status: 0, statusText: 'network error', text: String(err), body: undefined };
    }
    const text = await res.text();
    let body;
    try { body = JSON.parse(text); } catch { body = undefined; }
    return { status: res.status, statusText: res.statusText, text, body };
  }

  /** What an error answer says to a person, in either dialect. */
  function says(r) {
    const b = r.body;
    if (b && typeof b === 'object') return b.detail || b.error || b.message || b.title || r.text;
    return r.text;
  }

  function deref(doc, s) {
    for (let n = 0; s && s.$ref && n < 20; n++) {
      s = s.$ref.replace(/^#\//, '').split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~')).reduce((o, k) => (o ? o[k] : undefined), doc);
    }
    return s || {};
  }

  function typeOf(doc, s) {
    s = deref(doc, s);
    const alt = s.anyOf || s.oneOf;
    if (alt) return typeOf(doc, alt.find((a) => deref(doc, a).type !== 'null') || {});
    const t = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
    if (t === 'array') return typeOf(doc, s.items);
    if (t === 'integer') return 'number';
    if (t === 'number' || t === 'boolean') return t;
    if (s.properties && s.properties.file_name) return 'media';
    if (t === 'object' || s.properties) return 'relation';
    if (s.format === 'date') return 'date';
    if (s.format === 'date-time') return 'datetime';
    return 'text';
  }

  function enumOf(doc, s) {
    s = deref(doc, s);
    if (Array.isArray(s.enum)) return s.enum.filter((v) => typeof v === 'string');
    for (const a of s.anyOf || s.oneOf || []) {
      const e = enumOf(doc, a);
      if (e.length) return e;
    }
    return [];
  }

  /** The projects and collections an OpenAPI document of this server describes. */
  function fromOpenApi(doc) {
    const paths = (doc && doc.paths) || {};
    const byId = new Map();
    for (const p of Object.keys(paths)) {
      const m = /^\/api\/([^/{}]+)$/.exec(p);
      if (!m) continue;
      const sec = paths[p].get && paths[p].get.security;
      byId.set(m[1], { id: m[1], name: m[1], dialect: '', open: Array.isArray(sec) && (sec.length === 0 || sec.some((s) => Object.keys(s).length === 0)), locales: [], collections: [] });
    }
    for (const p of Object.keys(paths)) {
      const m = /^\/api\/([^/{}]+)\/([^/{}]+)$/.exec(p);
      const project = m && byId.get(m[1]);
      if (!project || m[2] === 'project-media') continue;
      const one = Object.keys(paths).find((q) => q.startsWith(p + '/{'));
      const ok = one && paths[one].get && paths[one].get.responses && deref(doc, paths[one].get.responses['200']);
      const json = ok && ok.content && ok.content['application/json'];
      let schema = deref(doc, json && json.schema);
      if (schema.properties && schema.properties.data && !schema.properties.id) schema = deref(doc, schema.properties.data);
      const props = schema.properties || {};
      if (!project.locales.length && props.locale) project.locales = enumOf(doc, props.locale);
      const fields = Object.keys(props)
        .filter((n) => n !== 'id' && n !== 'locale' && !TIMESTAMPS.includes(n))
        .map((n) => ({ name: n, type: typeOf(doc, props[n]), multiple: deref(doc, props[n]).type === 'array' }));
      project.collections.push({ slug: m[2], name: schema.title || m[2], count: null, fields });
    }
    return [...byId.values()];
  }

  /** Adds what the project's own answer tells: the dialect, names, types and counts. */
  async function complete(project) {
    let r = await api('/api/' + project.id);
    // A token opens its own project only: a public project of another one answers it 401, so the
    // page asks that project (and every query to it) without the token, as an anonymous reader.
    if (r.status === 401 && token && project.open) {
      project.anonymous = true;
      r = await api('/api/' + project.id, true);
    }
    const ask = (path) => api(path, project.anonymous);
    const d = r.body && r.body.data;
    if (r.status === 200 && d && Array.isArray(d.collections)) {
      project.dialect = 'cqa';
      project.name = d.name || project.id;
      project.locales = d.locales || project.locales;
      project.collections = d.collections.map((c) => ({ slug: c.slug, name: c.name, count: c.count, fields: c.fields || [] }));
    } else if (r.status === 200 && r.body && typeof r.body === 'object') {
      project.dialect = 'elmapi';
      project.name = r.body.name || project.id;
      await Promise.all(project.collections.map(async (c) => {
        const n = await ask('/api/' + project.id + '/' + c.slug + '?count');
        c.count = typeof n.body === 'number' ? n.body : null;
      }));
    } else {
      project.problem = r.status + ' ' + r.statusText + ': ' + says(r);
    }
  }

  function setStatus(text, isError) {
    const s = $('token-status');
    s.textContent = text;
    s.className = isError ? 'error' : '';
  }

  async function load() {
    setStatus('Loading…');
    const spec = await api('/openapi.json');
    if (spec.status !== 200) {
      projects = [];
      render();
      setStatus('The server refused this token (' + spec.status + ' ' + spec.statusText + '): ' + says(spec), true);
      return;
    }
    const found = fromOpenApi(spec.body);
    await Promise.all(found.map(complete));
    projects = found;
    render();
    const n = projects.length + ' project' + (projects.length === 1 ? '' : 's');
    if (token) setStatus('Token accepted: ' + n + ' to explore.');
    else setStatus(projects.length ? n + ' readable without a token; type a token to see its project.' : 'No project here is public: type a token to see its project.');
  }

  function fieldsText(c) {
    return c.fields.map((f) => f.name + ' (' + f.type + (f.multiple ? ', multiple' : '') + ')').join(', ') || '—';
  }

  function render() {
    const list = $('project-list');
    list.replaceChildren();
    for (const p of projects) {
      const rows = p.collections.map((c) =>
        el('tr', {},
          el('th', { scope: 'row' }, el('button', { type: 'button', class: 'link', 'data-project': p.id, 'data-collection': c.slug, text: c.slug })),
          el('td', { text: c.name }),
          el('td', { class: 'num', text: c.count === null ? '?' : String(c.count) }),
          el('td', { text: fieldsText(c) })));
      list.append(el('article', { class: 'project' },
        el('h3', {}, p.name + ' ', el('code', { text: p.id })),
        el('p', { class: 'meta', text: [p.dialect ? 'dialect ' + p.dialect : '', p.anonymous ? 'public, asked without the token' : p.open ? 'public' : 'token needed', p.locales.length ? 'locales ' + p.locales.join(', ') : ''].filter(Boolean).join(' · ') }),
        p.problem ? el('p', { class: 'error', text: p.problem }) : null,
        el('div', { class: 'scroll' }, el('table', {},
          el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Collection' }), el('th', { scope: 'col', text: 'Name' }), el('th', { scope: 'col', text: 'Entries' }), el('th', { scope: 'col', text: 'Fields' }))),
          el('tbody', {}, ...rows)))));
    }
    const select = $('project');
    const before = select.value;
    select.replaceChildren(...projects.map((p) => el('option', { value: p.id, text: p.name + ' (' + p.id + ')' })));
    if (projects.some((p) => p.id === before)) select.value = before;
    $('run').disabled = projects.length === 0;
    showCollections();
  }

  const project = () => projects.find((p) => p.id === $('project').value);
  const collection = () => { const p = project(); return p && p.collections.find((c) => c.slug === $('collection').value); };

  function showCollections() {
    const p = project();
    const select = $('collection');
    const before = select.value;
    select.replaceChildren(...(p ? p.collections : []).map((c) => el('option', { value: c.slug, text: c.name + ' (' + c.slug + ')' })));
    if (p && p.collections.some((c) => c.slug === before)) select.value = before;
    $('locale').replaceChildren(el('option', { value: '', text: 'any' }), ...(p ? p.locales : []).map((l) => el('option', { value: l, text: l })));
    showFields();
  }

  /** The fields a where-clause or a sort may name: the visible fields, id, locale, the timestamps. */
  function filterable() {
    const c = collection();
    if (!c) return [];
    return [{ name: 'id', type: 'id' }, { name: 'locale', type: 'locale' }, ...c.fields, ...TIMESTAMPS.map((t) => ({ name: t, type: 'datetime' }))];
  }

  function fieldOptions(select) {
    const before = select.value;
    const fields = filterable();
    select.replaceChildren(...fields.map((f) => el('option', { value: f.name, text: f.name + ' (' + f.type + (f.multiple ? ', multiple' : '') + ')' })));
    if (fields.some((f) => f.name === before)) select.value = before;
  }

  function showFields() {
    for (const s of document.querySelectorAll('select.field')) fieldOptions(s);
    const sort = $('sort-field');
    const before = sort.value;
    sort.replaceChildren(el('option', { value: '', text: 'default order' }), ...filterable().map((f) => el('option', { value: f.name, text: f.name })));
    if (filterable().some((f) => f.name === before)) sort.value = before;
  }

  const PLACEHOLDERS = { in: 'a,b,c', not_in: 'a,b,c', between: 'low,high', not_between: 'low,high', like: '%text%' };
  const TYPE_HINTS = { number: 'a number', boolean: 'true or false', date: 'YYYY-MM-DD', datetime: 'YYYY-MM-DD or an ISO date-time', time: 'HH:MM', relation: 'an entry id', media: 'a media id' };

  function addCondition() {
    const n = document.querySelectorAll('#conditions .condition').length + 1;
    const field = el('select', { class: 'field', 'aria-label': 'Field of condition ' + n });
    const op = el('select', { class: 'op', 'aria-label': 'Operator of condition ' + n }, ...OPERATORS.map(([v, t]) => el('option', { value: v, text: t })));
    const value = el('input', { class: 'value', type: 'text', 'aria-label': 'Value of condition ' + n, autocomplete: 'off', spellcheck: 'false' });
    const remove = el('button', { type: 'button', class: 'remove', 'aria-label': 'Remove condition ' + n, text: '×' });
    const row = el('div', { class: 'condition', role: 'group', 'aria-label': 'Condition ' + n }, field, op, value, remove);
    const hint = () => {
      const f = filterable().find((x) => x.name === field.value);
      value.disabled = op.value === 'null' || op.value === 'not_null';
      // An empty value is almost always a condition not filled in yet: the form asks for it.
      value.required = !value.disabled;
      value.placeholder = value.disabled ? '' : PLACEHOLDERS[op.value] || (f && TYPE_HINTS[f.type]) || 'value';
    };
    field.addEventListener('change', hint);
    op.addEventListener('change', hint);
    remove.addEventListener('click', () => { row.remove(); $('add-condition').focus(); });
    $('conditions').append(row);
    fieldOptions(field);
    hint();
    field.focus();
  }

  // Brackets, commas and colons stay readable in the URL; the server reads them either way.
  const enc = (s) => encodeURIComponent(s).replace(/%5B/gi, '[').replace(/%5D/gi, ']').replace(/%2C/gi, ',').replace(/%3A/gi, ':');

  /** The request the form describes: a path with its query string. */
  function compose() {
    const p = project();
    const c = collection();
    if (!p || !c) return undefined;
    const q = [];
    const any = $('any').checked;
    document.querySelectorAll('#conditions .condition').forEach((row, i) => {
      const f = row.querySelector('.field').value;
      const op = row.querySelector('.op').value;
      const v = row.querySelector('.value').value;
      const key = (any ? 'where[or][' + i + ']' : 'where') + '[' + encodeURIComponent(f) + ']';
      if (op === 'null' || op === 'not_null') q.push(key + '=' + op);
      else if (op === 'eq') q.push(key + '=' + enc(v));
      else q.push(key + '[' + op + ']=' + enc(v));
    });
    if ($('sort-field').value) q.push('sort=' + encodeURIComponent($('sort-field').value) + ':' + $('sort-dir').value);
    for (const name of ['limit', 'offset']) if ($(name).value.trim() !== '') q.push(name + '=' + enc($(name).value.trim()));
    const answer = document.querySelector('input[name="answer"]:checked').value;
    if (answer !== 'list') q.push(answer);
    if ($('state').value !== 'published') q.push('state=' + $('state').value);
    if ($('locale').value) q.push('locale=' + enc($('locale').value));
    if ($('timestamps').checked) q.push('timestamps');
    return '/api/' + p.id + '/' + c.slug + (q.length ? '?' + q.join('&') : '');
  }

  const quote = (s) => "'" + s.replace(/'/g, "'\\''") + "'";

  async function run(event) {
    event.preventDefault();
    const path = compose();
    if (!path) return;
    const sendToken = token && !project().anonymous;
    const url = location.origin + path;
    const result = $('result');
    result.hidden = false;
    result.setAttribute('aria-busy', 'true');
    $('request').textContent = 'GET ' + url;
    // -g: curl must not read the brackets as its own URL patterns. The token stays out of the page.
    $('curl').textContent = 'curl -g -H ' + quote('Accept: application/json') + (sendToken ? ' -H "Authorization: Bearer $CQA_TOKEN"' : '') + ' ' + quote(url);
    $('curl-note').hidden = !sendToken;
    $('status').textContent = '';
    $('answer').textContent = '';
    const r = await api(path, !sendToken);
    $('status').textContent = r.status + ' ' + r.statusText;
    $('status').className = r.status >= 400 || r.status === 0 ? 'error' : 'ok';
    $('answer').textContent = r.body === undefined ? r.text : JSON.stringify(r.body, null, 2);
    result.setAttribute('aria-busy', 'false');
  }

  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    // Out of the field at once: the DOM is what another page of this origin could read.
    token = $('token').value.trim();
    $('token').value = '';
    $('token').placeholder = token ? 'a token is in use (type another to replace it)' : 'public projects need none';
    load();
  });
  $('forget').addEventListener('click', () => {
    token = '';
    $('token').value = '';
    $('token').placeholder = 'public projects need none';
    load();
  });
  $('project').addEventListener('change', showCollections);
  $('collection').addEventListener('change', showFields);
  $('add-condition').addEventListener('click', addCondition);
  $('query-form').addEventListener('submit', run);
  $('project-list').addEventListener('click', (event) => {
    const b = event.target.closest('button[data-collection]');
    if (!b) return;
    $('project').value = b.dataset.project;
    showCollections();
    $('collection').value = b.dataset.collection;
    showFields();
    $('collection').focus();
  });
  load();
})();
`;
