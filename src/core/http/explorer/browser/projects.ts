// The projects the token may read: found in /openapi.json, completed by each project's own
// answer (a `cqa` project lists its collections with counts and field types; an `elmapi`
// project's collections are counted with `?count`; an `elmapi3` project, asked with its
// project-id header, lists its collections and their schemas), and listed on the page.
import { api, says, tokenInUse } from './api.js';
import { $, el } from './dom.js';
import { describeField, fromOpenApi, fromProjectAnswer, fromV3Answers, type Project } from './schema.js';

/** An elmapi3 project, asked with its project-id header: its answer, its collections' schemas and counts. */
async function completeV3(project: Project): Promise<void> {
  const ask = (path: string) => api(path, project.anonymous, { 'project-id': project.id });
  let r = await ask('/api');
  if (r.status === 401 && tokenInUse() && project.open) {
    project.anonymous = true;
    r = await ask('/api');
  }
  const list = r.status === 200 ? await ask('/api/collections') : r;
  if (r.status !== 200 || list.status !== 200 || !Array.isArray(list.body)) {
    const failed = r.status !== 200 ? r : list;
    project.problem = `${failed.status} ${failed.statusText}: ${says(failed)}`;
    return;
  }
  const slugs = list.body.map((c) => String((c as { slug?: unknown }).slug));
  const schemas = await Promise.all(slugs.map((slug) => ask(`/api/collections/${encodeURIComponent(slug)}`)));
  fromV3Answers(
    project,
    r.body as Record<string, unknown>,
    schemas.filter((a) => a.status === 200).map((a) => a.body as Record<string, unknown>),
  );
  await Promise.all(
    // A singleton is not counted: v3 ignores count there, answers its entry, and the server warns.
    project.collections
      .filter((c) => !c.singleton)
      .map(async (c) => {
        const n = await ask(`/api/${encodeURIComponent(c.slug)}?count`);
        const body = n.body as { count?: unknown } | undefined;
        c.count = typeof body?.count === 'number' ? body.count : null;
      }),
  );
}

/** Adds what the project's own answer tells: the dialect, names, types and counts. */
async function complete(project: Project): Promise<void> {
  if (project.dialect === 'elmapi3') return completeV3(project);
  let r = await api(`/api/${project.id}`);
  // A token opens its own project only: a public project of another one answers it 401, so the
  // page asks that project (and every query to it) without the token, as an anonymous reader.
  if (r.status === 401 && tokenInUse() && project.open) {
    project.anonymous = true;
    r = await api(`/api/${project.id}`, true);
  }
  const body = r.body as Record<string, unknown> | undefined;
  const data = body?.data as Record<string, unknown> | undefined;
  if (r.status === 200 && data && Array.isArray(data.collections)) {
    fromProjectAnswer(project, data);
  } else if (r.status === 200 && body && typeof body === 'object') {
    project.dialect = 'elmapi';
    if (typeof body.name === 'string' && body.name) project.name = body.name;
    await Promise.all(
      project.collections.map(async (c) => {
        const n = await api(`/api/${project.id}/${c.slug}?count`, project.anonymous);
        c.count = typeof n.body === 'number' ? n.body : null;
      }),
    );
  } else {
    project.problem = `${r.status} ${r.statusText}: ${says(r)}`;
  }
}

export type Loaded = { ok: true; projects: Project[] } | { ok: false; status: string };

/** Everything the token (or no token) may read; a refused token says so with the server's words. */
export async function loadProjects(): Promise<Loaded> {
  const spec = await api('/openapi.json');
  if (spec.status === 401 || spec.status === 403)
    return { ok: false, status: `The server refused this token (${spec.status} ${spec.statusText}): ${says(spec)}` };
  if (spec.status === 0) return { ok: false, status: `No answer from the server (it may be stopped): ${says(spec)}` };
  if (spec.status !== 200)
    return { ok: false, status: `The server could not list its projects (${spec.status} ${spec.statusText}): ${says(spec)}` };
  const found = fromOpenApi(spec.body);
  await Promise.all(found.map(complete));
  return { ok: true, projects: found };
}

/** The list of projects: each collection's slug (a button that queries it), name, count, fields. */
export function renderProjects(projects: readonly Project[]): void {
  $('project-list').replaceChildren(
    ...projects.map((p) =>
      el(
        'article',
        { class: 'project' },
        // <bdi>: a right-to-left mark in the name must not run on into the id beside it.
        el('h3', {}, el('bdi', { text: p.name }), ' ', el('code', { text: p.id })),
        el('p', {
          class: 'meta',
          text: [
            p.dialect ? `dialect ${p.dialect}` : '',
            p.anonymous ? 'public, asked without the token' : p.open ? 'public' : 'token needed',
            p.locales.length ? `locales ${p.locales.join(', ')}` : '',
          ]
            .filter(Boolean)
            .join(' · '),
        }),
        p.problem ? el('p', { class: 'error', text: p.problem }) : null,
        el(
          'div',
          { class: 'scroll' },
          el(
            'table',
            {},
            el('thead', {}, el('tr', {}, ...['Collection', 'Name', 'Entries', 'Fields'].map((t) => el('th', { scope: 'col', text: t })))),
            el(
              'tbody',
              {},
              ...p.collections.map((c) =>
                el(
                  'tr',
                  {},
                  el(
                    'th',
                    { scope: 'row' },
                    el('button', {
                      type: 'button',
                      class: 'link',
                      'data-project': p.id,
                      'data-collection': c.slug,
                      title: `Query ${c.name}`,
                      text: c.slug,
                    }),
                  ),
                  el('td', { text: c.name }),
                  el('td', { class: 'num', text: c.singleton ? 'single' : c.count === null ? '?' : String(c.count) }),
                  el('td', { text: c.fields.map((f) => `${f.name} (${describeField(f)})`).join(', ') || '—' }),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
