// Writes a pulled project as a content tree (SPEC §2): project.yaml, one folder per collection with
// its _collection.yaml and one file per entry, media/_media.yaml. Deterministic: the same model
// gives the same bytes (sorted where the model has no order, no dates of the pull itself).
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { fieldNameProblem, idProblem } from '../../core/model/identifiers.js';
import { localeFromFileName } from '../content/locale.js';
import { compareCodePoints } from '../../core/snapshot/order.js';
import type { FieldDef, JsonValue } from '../../core/model/model.js';
import { PullError, type PulledCollection, type PulledEntry, type PulledProject } from './model.js';

const yaml = (value: unknown) => stringify(value, { lineWidth: 0 });

/** What the loader makes of a Markdown body (entries.ts): a value equal to this survives as a body. */
function asBody(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd();
}

/**
 * A media path is written only when it stays inside media/ and the loader would list it: segments
 * that are not empty, '.' or '..', no leading '.' anywhere and no leading '_' on a folder, no
 * backslash or control character.
 */
export function mediaPathProblem(path: string): string | undefined {
  const parts = path.split('/');
  const bad = parts.some((p, i) => p === '' || p.startsWith('.') || (i < parts.length - 1 && p.startsWith('_')));
  if (bad || /[\\\x00-\x1f\x7f]/.test(path) || path === '_media.yaml')
    return `media '${path}': not a safe file name under media/ (no empty, '.'/'..' or hidden segments, no backslash)`;
  // What file systems take (ext4, APFS, NTFS: 255 bytes a name), and a path that any of them opens.
  const bytes = (s: string) => Buffer.byteLength(s);
  if (parts.some((p) => bytes(p) > 255) || bytes(path) > 1024)
    return `media '${path.slice(0, 80)}…': a name too long to write (at most 255 bytes a segment, 1,024 in all)`;
  return undefined;
}

/** `tokens`: the earlier pull's, kept as they were (the API reveals none). */
export async function writeTree(root: string, p: PulledProject, comment: string, tokens?: readonly unknown[]): Promise<number> {
  let files = 0;
  const write = async (rel: string, text: string) => {
    await fsp.mkdir(join(root, rel, '..'), { recursive: true });
    await fsp.writeFile(join(root, rel), text, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
      // The temporary folder is new: only the server's answers can name one file twice.
      throw new PullError(
        `the server's answers give ${rel} twice (an entry listed twice, or pages that overlap): nothing is written; check the server's paging`,
      );
    });
    files++;
  };
  const project: Record<string, unknown> = { id: p.id, name: p.name };
  if (p.description !== null) project.description = p.description;
  if (p.dialect !== 'cqa') project.dialect = p.dialect;
  project.default_locale = p.default_locale;
  project.locales = p.locales;
  project.public = p.public;
  if (tokens && tokens.length > 0) project.tokens = tokens;
  // p.id goes into a comment unquoted: it must be a plain id (the readers use --project, checked against the answer).
  const idProblemText = idProblem('project id', p.id);
  if (idProblemText) throw new PullError(idProblemText);
  const tokenHint =
    p.public || (tokens && tokens.length > 0)
      ? ''
      : `# No tokens are copied: make one with \`cqa token create --project ${p.id}\` and add the lines it prints at the end of this file.\n`;
  await fsp.mkdir(root, { recursive: true });
  await write('project.yaml', `# ${comment}\n${tokenHint}${yaml(project)}`);

  for (const c of p.collections) {
    const slugProblem = idProblem('collection slug', c.slug);
    if (slugProblem) throw new PullError(slugProblem);
    // Field names are written as YAML keys as they are: the loader's own rules keep them plain.
    // A group's children too (elmapi's are named by the keys of its objects).
    const named = c.fields.flatMap((f) => [[f.name, f.name], ...(f.fields ?? []).map((child) => [`${f.name}.${child.name}`, child.name])]);
    for (const [shown, name] of named) {
      const problem = fieldNameProblem(name as string);
      if (problem) throw new PullError(`collection '${c.slug}', field ${JSON.stringify(shown)}: ${problem}`);
    }
    await write(`${c.slug}/_collection.yaml`, collectionYaml(c));
    for (const e of c.entries) {
      const problem = idProblem('entry id', e.id);
      if (problem) throw new PullError(`collection '${c.slug}': ${problem}`);
      const stem = e.stem ?? e.id;
      const stemProblem = e.stem === undefined ? undefined : idProblem('entry id', e.stem);
      if (stemProblem) throw new PullError(`collection '${c.slug}', file name: ${stemProblem}`);
      await write(entryPath(e, c), entryFile(e, c, p, stem));
    }
  }

  const meta: Record<string, Record<string, unknown>> = {};
  for (const m of [...p.media].sort((a, b) => compareCodePoints(a.path, b.path))) {
    const problem = mediaPathProblem(m.path);
    if (problem) throw new PullError(problem);
    const item: Record<string, unknown> = {};
    if (m.number !== undefined) item.id = m.number;
    if (m.uuid !== undefined) item.uuid = m.uuid;
    if (m.caption !== null) item.caption = m.caption;
    if (m.alt !== null) item.alt = m.alt;
    if (Object.keys(item).length > 0) meta[m.path] = item;
  }
  if (Object.keys(meta).length > 0) await write('media/_media.yaml', yaml(meta));
  return files;
}

function collectionYaml(c: PulledCollection): string {
  const lines = [`name: ${yaml(c.name).trimEnd()}`];
  if (c.body_field !== 'body') lines.push(`body_field: ${c.body_field}`);
  if (c.sort) lines.push(`sort: ${c.sort}`);
  if (c.singleton) lines.push('singleton: true');
  if (c.translations) lines.push('translations: true');
  lines.push('fields:');
  for (const f of c.fields) {
    // A note is the pull's own text (required.ts): field names and counts, no line break or '#' of the server's.
    const note = c.notes?.get(f.name);
    lines.push(`  ${f.name}: ${fieldYaml(f)}${note ? `  # ${note}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

function fieldDef(f: FieldDef): Record<string, unknown> {
  const def: Record<string, unknown> = { type: f.type };
  if (f.required) def.required = true;
  if (f.multiple) def.multiple = true;
  if (f.hidden && f.type !== 'password') def.hidden = true;
  if (f.values) def.values = f.values;
  if (f.collection) def.collection = f.collection;
  if (f.range) def.range = true;
  if (f.repeatable) def.repeatable = true;
  if (f.fields) def.fields = Object.fromEntries(f.fields.map((c) => [c.name, short(fieldDef(c))]));
  return def;
}

/** `{ type: text }` → `text`, as a person writes it. */
const short = (def: Record<string, unknown>): unknown => (Object.keys(def).length === 1 ? def.type : def);

function fieldYaml(f: FieldDef): string {
  const def = fieldDef(f);
  if (Object.keys(def).length === 1) return f.type;
  return stringify(def, { collectionStyle: 'flow', lineWidth: 0 }).trimEnd();
}

/** The collection's body field, and the entry's value of it when the file can be Markdown with it as the body. */
function markdownBody(e: PulledEntry, c: PulledCollection): { field: FieldDef; body: string | undefined } | undefined {
  const field = c.fields.find((f) => f.name === c.body_field && (f.type === 'markdown' || f.type === 'richtext'));
  const body = field && typeof e.values[field.name] === 'string' ? (e.values[field.name] as string) : undefined;
  return field !== undefined && (body === undefined || (body !== '' && asBody(body) === body)) ? { field, body } : undefined;
}

/** An entry's file, under the project folder: `posts/hello.md`. */
export function entryPath(e: PulledEntry, c: PulledCollection): string {
  return `${c.slug}/${e.stem ?? e.id}.${markdownBody(e, c) ? 'md' : 'yaml'}`;
}

/** One entry: Markdown when the collection has a body field and the value survives as a body, else YAML. */
function entryFile(e: PulledEntry, c: PulledCollection, p: PulledProject, stem: string): string {
  const data: Record<string, JsonValue> = {};
  if (p.dialect === 'elmapi' && /^(0|[1-9][0-9]{0,14})$/.test(e.id)) data.id = Number(e.id);
  // elmapi3: the uuid itself (one derived from the file name would differ).
  if (p.dialect === 'elmapi3') data.id = e.id;
  // The locale the loader would take from the file name or the project: written only when it differs.
  const implied = localeFromFileName(stem, p.locales) ?? p.default_locale;
  if (e.locale !== '' && e.locale !== implied) data.locale = e.locale;
  if (e.draft) data.draft = true;
  const markdown = markdownBody(e, c);
  for (const f of c.fields) {
    if (!Object.hasOwn(e.values, f.name) || f === markdown?.field) continue;
    data[f.name] = e.values[f.name] as JsonValue;
  }
  if (e.created_at) data.created_at = e.created_at;
  if (e.updated_at) data.updated_at = e.updated_at;
  if (e.published_at !== null) data.published_at = e.published_at;
  if (!markdown) return yaml(data);
  const front = Object.keys(data).length > 0 ? yaml(data) : '';
  return `---\n${front}---\n${markdown.body !== undefined ? `\n${markdown.body}\n` : ''}`;
}
