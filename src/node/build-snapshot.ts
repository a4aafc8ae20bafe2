// buildSnapshot: content tree → validated model → Snapshot, or a ContentError listing every problem.
import { ContentError } from './content/issues.js';
import type { TimestampSource } from './content/git-times.js';
import { loadContentIsolated } from './load-path.js';
import { isContentTree, writeContentTree, type ContentTree } from './content/tree.js';
import { contentOption } from './content/content-option.js';
import { createSnapshot } from '../core/snapshot/create.js';
import type { Snapshot } from '../core/model/types.js';
import { checkOptions, optionKeys } from '../core/http/options.js';

export interface BuildSnapshotOptions {
  /**
   * The content folder (a path, or a file: URL: `new URL('./content/', import.meta.url)`), or the
   * tree itself (`{ 'demo/project.yaml': 'id: demo\n…' }`, validated exactly like files:
   * docs/contract-tests.md#in-memory-fixtures).
   */
  readonly content: string | URL | ContentTree;
  /** Prefix of media `full_url`s (no trailing slash). Default ''. */
  readonly baseUrl?: string;
  /** Treat drafts as published. */
  readonly drafts?: boolean;
  /** Where created_at/updated_at come from when an entry sets none (LoadOptions.timestamps). */
  readonly timestamps?: TimestampSource;
}

const BUILD_KINDS = { baseUrl: 'string', drafts: 'boolean' } as const;
const BUILD_KEYS = optionKeys<BuildSnapshotOptions>()(['content', 'baseUrl', 'drafts', 'timestamps']);

export async function buildSnapshot(options: BuildSnapshotOptions): Promise<Snapshot> {
  // An unknown name is refused, as by the other entry points (`{ content, baseURL }` dropped the base URL).
  if (typeof options === 'object' && options !== null) checkOptions('buildSnapshot', options, BUILD_KEYS, BUILD_KINDS);
  // Plain JavaScript may pass a path (or nothing): said at once, not as a missing folder 'undefined'.
  const given = (options as { content?: unknown } | undefined)?.content;
  const content = typeof options === 'object' && given !== undefined ? contentOption('buildSnapshot', given) : given;
  if (typeof content !== 'string' && !isContentTree(content)) {
    const given =
      typeof options === 'string'
        ? `buildSnapshot(${JSON.stringify(options)})`
        : content === undefined
          ? 'no content'
          : `content: ${Array.isArray(content) ? 'an array' : typeof content}`;
    throw new TypeError(
      `buildSnapshot() takes options with the content: buildSnapshot({ content: 'content' }) (a folder, or a tree of files); got ${given}`,
    );
  }
  // A tree is loaded from a temp folder removed once loaded (its media files go with it).
  const written = isContentTree(content) ? await writeContentTree(content) : undefined;
  try {
    const { model, issues } = await loadContentIsolated(written ? written.root : (content as string), {
      drafts: options.drafts ?? false,
      ...(options.timestamps ? { timestamps: options.timestamps } : {}),
    });
    if (issues.length > 0) throw new ContentError(issues);
    return createSnapshot(model, { baseUrl: options.baseUrl ?? '' });
  } finally {
    await written?.remove();
  }
}
