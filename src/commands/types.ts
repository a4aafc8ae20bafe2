// `cqa types [content] [--out FILE.ts]`: TypeScript types of every project and collection, for
// `createClient<Types>()` (docs/client.md). Validates like `cqa check` first: content errors are
// printed and exit 1, nothing is written. Without --out the file goes to stdout.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { formatIssue } from '../content/issues.js';
import { loadContent } from '../content/load.js';
import { clientTypes } from '../snapshot/client-types.js';
import { parseCommandArgs, UsageError } from './args.js';

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { out: { type: 'string' } });
  const root = positionals[0] ?? 'content';
  const out = values.out as string | undefined;
  if (out !== undefined && !/\.(d\.)?[cm]?ts$/.test(out)) throw new UsageError(`--out must name a TypeScript file (types.ts), got '${out}'`);
  const info = await stat(root).catch(() => undefined);
  if (!info) throw new UsageError(`content folder '${root}' does not exist (give the path: cqa types <content> --out types.ts)`);
  if (!info.isDirectory()) throw new UsageError(`'${root}' is not a folder (give the content folder: cqa types <content> --out types.ts)`);

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
  await mkdir(dirname(resolve(out)), { recursive: true });
  await writeFile(out, text);
  const collections = model.projects.reduce((n, p) => n + p.collections.length, 0);
  console.log(`✓ wrote types of ${collections} collection${collections === 1 ? '' : 's'} to ${out}`);
  return 0;
}
