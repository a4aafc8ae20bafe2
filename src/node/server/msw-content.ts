// The Node half of content-query-api/msw: a content folder or in-memory tree → a snapshot whose
// media files are read from disk (a tree's temp folder stays until close()).
import { buildSnapshot } from '../build-snapshot.js';
import { type ContentTree, isContentTree, writeContentTree } from '../content/tree.js';
import type { Snapshot } from '../../core/model/types.js';

export async function snapshotOf(content: string | ContentTree): Promise<{ snapshot: Snapshot; close?: () => Promise<void> }> {
  if (!isContentTree(content)) return { snapshot: await buildSnapshot({ content }) };
  const written = await writeContentTree(content);
  try {
    return { snapshot: await buildSnapshot({ content: written.root }), close: () => written.remove() };
  } catch (err) {
    await written.remove();
    throw err;
  }
}
