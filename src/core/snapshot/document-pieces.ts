// A document's text in pieces whose concatenation is snapshot.document(path), for the dist writer
// and for the HTTP core, which measures a list before it joins it (MAX_ANSWER_CHARS).
// A collection's list is one document holding every published entry: at a million entries (~1 GB)
// it is longer than V8's longest string (2^29 − 24 characters), so it is written piece by piece,
// from the entries' texts the snapshot already holds. No Node imports.
import { MEDIA_SEGMENT } from './create.js';
import { entryJson, listFrame } from './serialize.js';
import type { EntrySnapshot, Snapshot } from '../model/types.js';

/**
 * The pieces of the document for `path`; undefined when there is none. `measure` sees a list's
 * entries before their texts are decoded (the HTTP core refuses one too long to answer).
 */
export function documentPieces(
  snapshot: Snapshot,
  path: string,
  measure?: (entries: readonly EntrySnapshot[]) => void,
): readonly string[] | undefined {
  const parts = path.split('/'); // '', 'api', project, collection
  const project = parts.length === 4 ? snapshot.projects.get(parts[2] as string) : undefined;
  const col = parts[3] === MEDIA_SEGMENT ? undefined : project?.collections.get(parts[3] as string);
  if (!project || (!col && parts[3] !== MEDIA_SEGMENT)) {
    const text = snapshot.document(path);
    return text === undefined ? undefined : [text];
  }
  // A collection's published entries, or the project's media list (200,000 media files pass 64 Mi characters).
  const items: string[] = [];
  if (col) {
    const published = col.entries.filter((e) => !e.record.draft);
    measure?.(published);
    for (const e of published) items.push(entryJson(e));
  } else {
    for (const m of project.media) items.push(m.json);
  }
  const frame = listFrame(project.dialect, items.length, null, 0);
  if (!frame) return [project.dialect.list(items, items.length, null, 0)]; // not a plain frame: as a whole
  const [head, sep, tail] = frame;
  const pieces = [head];
  for (const [i, item] of items.entries()) {
    if (i > 0) pieces.push(sep);
    pieces.push(item);
  }
  pieces.push(tail);
  return pieces;
}
