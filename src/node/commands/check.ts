// `cqa check [content]`: validate only. Prints every error as `file:line: field: message` and every
// warning prefixed `warning:`, then a summary. Exit 0 when clean, 1 on content errors, 2 when the
// content folder does not exist or holds no project (a usage mistake, like a wrong path).
import { formatIssue } from '../content/issues.js';
import { loadContent } from '../content/load.js';
import type { ContentIssue, ContentModel, EntryRecord } from '../../core/model/model.js';
import { parseCommandArgs, TIMESTAMPS_SPEC, timestampsOption } from './args.js';
import { contentFolder } from './content-folder.js';
import { thumbnailIssues } from '../output/thumbnail-check.js';
import { pagesNotFoundMedia } from '../output/hosts/cloudflare.js';
import { parseOptions, type CommandSpec } from './help.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function colours(stream: NodeJS.WriteStream) {
  const on = stream.isTTY === true && !('NO_COLOR' in process.env && process.env.NO_COLOR !== '');
  const wrap = (code: number) => (s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { red: wrap(31), yellow: wrap(33), green: wrap(32) };
}

function counts(model: ContentModel): string {
  const projects = model.projects.length;
  const collections = model.projects.reduce((n, p) => n + p.collections.length, 0);
  const entries = model.projects.reduce((n, p) => n + p.collections.reduce((m, c) => m + c.entries.length, 0), 0);
  const media = model.projects.reduce((n, p) => n + p.media.length, 0);
  return `${plural(projects, 'project')}, ${plural(collections, 'collection')}, ${plural(entries, 'entry').replace(/entrys$/, 'entries')}, ${media} media`;
}

/** An entry or media id with a segment a built tree names its own files by (…/index.json, 404.json, their .gz/.br). */
function namesTreeFile(model: ContentModel): boolean {
  const own = /(^|\/)(index|404)\.json/;
  return model.projects.some(
    (p) => p.media.some((m) => own.test(m.id)) || p.collections.some((c) => c.entries.some((e) => own.test(e.id))),
  );
}

/** The model as `cqa build --drafts` publishes it. */
function withDraftsPublished(model: ContentModel): ContentModel {
  const published = (e: EntryRecord) => (e.draft ? { ...e, draft: false } : e);
  return {
    projects: model.projects.map((p) => ({ ...p, collections: p.collections.map((c) => ({ ...c, entries: c.entries.map(published) })) })),
  };
}

function fileCount(issues: readonly ContentIssue[]): number {
  return new Set(issues.map((i) => i.file)).size;
}

export const spec: CommandSpec = {
  usage: 'cqa check [content]',
  summary:
    'Validates the content only: every error as file:line: field: message (exit 1 when there is one), and every warning (build and serve print ten of a kind).',
  args: [['content', 'the content folder (default: ./content)']],
  options: { timestamps: TIMESTAMPS_SPEC },
  examples: ['cqa check content'],
};

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, parseOptions(spec));
  const timestamps = timestampsOption(values.timestamps as string | undefined);
  const root = await contentFolder(positionals[0] ?? 'content', 'check');

  const loaded = await loadContent(root, timestamps ? { timestamps } : {});
  const { model, warnings } = loaded;
  // What the build would refuse besides the content rules: thumbnails it cannot make.
  const issues = loaded.issues.length > 0 ? loaded.issues : await thumbnailIssues(model, root);
  const out = colours(process.stdout);
  const err = colours(process.stderr);
  for (const w of warnings) console.error(`${err.yellow('warning:')} ${formatIssue(w)}`);
  for (const e of issues) console.error(formatIssue(e));
  if (issues.length > 0) {
    console.error(err.red(`${plural(issues.length, 'error')} in ${plural(fileCount(issues), 'file')}`));
    return 1;
  }
  // What only a static tree cannot hold (cqa serve answers it), planned as cqa build plans it (the
  // elmapi3 projects each alone), only where an id names a file the tree writes itself: planning
  // every check made one of 10,000 entries 25 % slower.
  const trees = [model, ...model.projects.filter((p) => p.dialect === 'elmapi3').map((p) => ({ projects: [p] }))];
  const refused: string[] = [];
  if (namesTreeFile(model)) {
    const [{ treeProblem }, { createSnapshot }] = await Promise.all([import('../output/dist.js'), import('../../core/snapshot/create.js')]);
    for (const tree of trees) {
      // With every option that adds files first (drafts published, .gz/.br siblings: found from
      // outside); only a tree refused so is planned again as a plain build, to say which.
      const withOptions = treeProblem(createSnapshot(withDraftsPublished(tree)), 'all');
      const problem = withOptions === undefined ? undefined : treeProblem(createSnapshot(tree));
      if (problem !== undefined) refused.push(`cqa build would refuse this content: ${problem}`);
      else if (withOptions !== undefined) refused.push(`cqa build --drafts or --precompress would refuse this content: ${withOptions}`);
    }
  }
  // What one host refuses (found from outside: check passed, `build --host cloudflare` failed).
  const pages = pagesNotFoundMedia(model.projects.map((record) => ({ record })));
  if (pages !== undefined) refused.push(`cqa build --host cloudflare would refuse this content: ${pages}`);
  for (const problem of refused) console.error(`${err.yellow('warning:')} ${problem}`);
  const warned = warnings.length + refused.length;
  console.log(`${out.green('✓')} content ok: ${counts(model)}${warned > 0 ? ` (${plural(warned, 'warning')})` : ''}`);
  return 0;
}
