// The curl line `cqa serve` prints at start: it must work when pasted. A public project is asked
// without a token (a placeholder `Bearer <token>` would turn the pasted line into a 401); a
// project that needs one gets the placeholder and where a token comes from.
import type { Snapshot } from '../../core/model/types.js';

const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function tryLines(snapshot: Snapshot, url: string): string[] {
  const projects = [...snapshot.projects.values()];
  const open = projects.find((p) => p.record.public);
  const first = open ?? projects[0];
  if (!first) return [];
  const target = quoted(`${url}/api/${first.record.id}`);
  if (open) return [`  try: curl -H 'Accept: application/json' ${target}`];
  return [
    `  try: curl -H 'Authorization: Bearer <token>' -H 'Accept: application/json' ${target}`,
    `       (<token>: a token of project '${first.record.id}'; make one with \`cqa token create --project ${first.record.id}\`)`,
  ];
}
