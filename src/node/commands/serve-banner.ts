// The lines `cqa serve` prints at start: each URL and curl line must answer when pasted. A public
// project is asked without a token (a placeholder `Bearer <token>` would turn the pasted line into
// a 401); a project that needs one gets the placeholder and where a token comes from. An `elmapi3`
// project is named by the `project-id` header, not the path (its `/api/<id>` is a 404).
import type { ProjectSnapshot, Snapshot } from '../../core/model/types.js';
import { shellWord } from '../printable.js';

/** The project's line in the list: where it answers, whether it needs a token, its collections. */
export function projectLine(p: ProjectSnapshot, url: string): string {
  const where = p.record.dialect === 'elmapi3' ? `${url}/api  with header project-id: ${p.record.id}` : `${url}/api/${p.record.id}`;
  return `  ${where}  ${p.record.public ? '(public)' : '(token needed)'}  collections: ${[...p.collections.keys()].join(', ')}`;
}

export function tryLines(snapshot: Snapshot, url: string): string[] {
  const projects = [...snapshot.projects.values()];
  const open = projects.find((p) => p.record.public);
  const first = open ?? projects[0];
  if (!first) return [];
  // The header form is not the one the other projects' lines show: one example of it as well.
  const v3 = projects.find((p) => p.record.dialect === 'elmapi3');
  return [...tryProject(first, url), ...(v3 && v3 !== first ? tryProject(v3, url) : [])];
}

function tryProject(p: ProjectSnapshot, url: string): string[] {
  const id = p.record.id;
  const auth = p.record.public ? '' : `-H 'Authorization: Bearer <token>' `;
  const hint = p.record.public ? [] : [`       (<token>: a token of project '${id}'; make one with \`cqa token create --project ${id}\`)`];
  if (p.record.dialect !== 'elmapi3') return [`  try: curl ${auth}-H 'Accept: application/json' ${shellWord(`${url}/api/${id}`)}`, ...hint];
  const headers = `-H ${shellWord(`project-id: ${id}`)} ${auth}-H 'Accept: application/json'`;
  // A list answers 200 even when empty; a singleton without an entry in the default locale is a 404.
  const collections = [...p.collections.values()];
  const slug = (collections.find((c) => !c.record.singleton) ?? collections[0])?.record.slug;
  return [
    `  try: curl ${headers} ${shellWord(`${url}/api`)}`,
    ...(slug !== undefined ? [`       curl ${headers} ${shellWord(`${url}/api/${encodeURIComponent(slug)}`)}`] : []),
    ...hint,
  ];
}
