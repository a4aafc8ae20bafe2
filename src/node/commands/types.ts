// `cqa types [content] [--out FILE.ts]`: TypeScript types of every project and collection, for
// `createClient<Types>()` (docs/client.md). Validates like `cqa check` first: content errors are
// printed and exit 1, nothing is written. Without --out the file goes to stdout.
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { formatIssue } from '../content/issues.js';
import { loadContent } from '../content/load.js';
import { clientTypes } from '../../core/describe/client-types.js';
import { parseCommandArgs, UsageError } from './args.js';
import { contentFolder } from './content-folder.js';
import { parseOptions, type CommandSpec } from './help.js';
import { makeFolders } from '../make-folders.js';

export const spec: CommandSpec = {
  usage: 'cqa types [content] [options]',
  summary: 'Writes TypeScript types of every project and collection, for createClient<Types>().',
  args: [['content', 'the content folder (default: ./content)']],
  options: {
    out: { type: 'string', value: 'FILE.ts', help: 'where to write the types', fallback: 'stdout' },
  },
  examples: ['cqa types content --out src/content-types.ts'],
};

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, parseOptions(spec));
  const out = values.out as string | undefined;
  if (out !== undefined && !/\.(d\.)?[cm]?ts$/.test(out))
    throw new UsageError(`--out must name a TypeScript file (types.ts), got '${out}'`);
  const root = await contentFolder(positionals[0] ?? 'content', 'types');

  const { model, issues } = await loadContent(root);
  if (issues.length > 0) {
    for (const e of issues) console.error(formatIssue(e));
    console.error(`cqa types: ${issues.length} content error${issues.length === 1 ? '' : 's'}; nothing written`);
    return 1;
  }
  const text = clientTypes(model);
  if (out === undefined) {
    process.stdout.write(text);
    return 0;
  }
  await makeFolders(dirname(resolve(out)));
  await writeFile(out, text);
  const collections = model.projects.reduce((n, p) => n + p.collections.length, 0);
  console.log(`✓ wrote types of ${collections} collection${collections === 1 ? '' : 's'} to ${out}`);
  return 0;
}
