// The documents of an elmapi3 project at the v3 paths, for a static host (`cqa build --project
// <uuid>`): a static host cannot read the `project-id` header, so a tree holds one such project,
// at `/api`, `/api/collections[/<slug>]`, `/api/<slug>[/<uuid>]` and `/api/files[/<uuid>|/<number>|
// /name/<filename>]` — each the answer to that path without a query, as a reader with a token
// (no drafts) gets it from `cqa serve`. No Node imports.
import { mediaNumber } from '../../dialects/media-number.js';
import type { ProjectSnapshot } from '../../model/types.js';
import { staticAnswer } from './handler.js';

/** The API paths of the tree of `project`, as its files name them (a media name as it is, not percent-encoded). */
export function elmapi3StaticPaths(project: ProjectSnapshot): string[] {
  const paths = ['/api', '/api/collections', '/api/files'];
  const locale = project.record.default_locale;
  for (const [slug, c] of project.collections) {
    paths.push(`/api/collections/${slug}`);
    // A singleton answers its published entry in the default locale; without one, the host's 404.
    if (!c.record.singleton || c.entries.some((e) => !e.record.draft && e.record.locale === locale)) paths.push(`/api/${slug}`);
    for (const e of c.entries) if (!e.record.draft) paths.push(`/api/${slug}/${e.record.id}`);
  }
  const names = new Set<string>();
  for (const m of project.media) {
    paths.push(`/api/files/${m.record.uuid ?? m.record.id}`, `/api/files/${mediaNumber(m.record)}`);
    // /api/files/name/<name> answers the first asset of that name (cqa check warns of the others).
    if (!names.has(m.record.file_name)) paths.push(`/api/files/name/${m.record.file_name}`);
    names.add(m.record.file_name);
  }
  return paths;
}

/**
 * The document of `path` (a path of elmapi3StaticPaths); `origin` goes before absolute URLs (asset
 * urls, page links): the build's --base-url when it is an http(s) URL, else ''.
 */
export function elmapi3StaticDocument(project: ProjectSnapshot, path: string, origin: string): string {
  const a = staticAnswer(project, path, origin);
  if (a.status !== 200) throw new Error(`elmapi3 static document ${path}: ${a.status} ${a.body}`);
  return a.body;
}

/** The 404 bodies of the tree, by path prefix (most specific first; `/api/*` last). */
export function elmapi3NotFound(project: ProjectSnapshot): { from: string; name: string; text: string }[] {
  const rules: { from: string; name: string; text: string }[] = [];
  rules.push({ from: '/api/collections/*', name: 'collections', text: '{"message":"Collection not found."}' });
  rules.push({ from: '/api/files/*', name: 'files', text: '{"error":"Asset not found"}' });
  for (const slug of project.collections.keys())
    rules.push({ from: `/api/${slug}/*`, name: slug, text: '{"message":"Content not found."}' });
  rules.push({ from: '/api/*', name: '', text: '{"message":"Collection not found."}' });
  return rules;
}
