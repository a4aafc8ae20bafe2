// `cqa init [folder] [--project ID] [--force]`: writes a small, valid, commented project that
// `cqa check` passes and `cqa serve` serves, and prints its token once (only its sha256 is kept).
// A folder that holds anything is refused without --force: init must never mix into other files.
import { realpathSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { shellWord } from '../printable.js';
import { parseCommandArgs, UsageError } from './args.js';
import { parseOptions, type CommandSpec } from './help.js';
import { starterFiles } from './init-files.js';
import { newToken } from './token-secret.js';
import { makeFolders } from '../make-folders.js';

const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export const spec: CommandSpec = {
  usage: 'cqa init [folder] [options]',
  summary: 'Writes a small commented project (a collection with a schema, entries, a translation, a media file) and prints its token once.',
  args: [['folder', 'the content folder to create (default: ./content)']],
  options: {
    project: { type: 'string', value: 'ID', help: 'the id of the project (its folder name)', fallback: 'site' },
    force: { type: 'boolean', help: 'write into a folder that is not empty (files of the same names are replaced)' },
  },
  examples: ['cqa init demo && cqa check demo && cqa serve demo'],
};

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, parseOptions(spec));
  const folder = positionals[0] ?? 'content';
  const project = (values.project as string | undefined) ?? 'site';
  if (!ID.test(project))
    throw new UsageError(
      `--project '${project}' is not a valid project id (letters, digits, '_' and '-', starting with a letter or digit)`,
    );
  const present = await readdir(folder).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    if (err.code === 'ENOTDIR') throw new UsageError(`'${folder}' is a file; give a folder to create (cqa init <folder>)`);
    throw err;
  });
  if (present.length > 0 && values.force !== true) {
    throw new UsageError(
      `'${folder}' is not empty (${present.length} item${present.length === 1 ? '' : 's'}); give a new or empty folder, or --force to write the starter files into it (files of the same names are replaced)`,
    );
  }

  // Installed in this project (not on the PATH), cqa runs as `npx cqa` (found from outside: the
  // lines said `cqa check`, which the shell did not find).
  const cqa = installedHere(process.argv[1]) ? 'npx cqa' : 'cqa';
  const { token, sha256 } = newToken();
  const files = starterFiles(project, sha256);
  for (const [path, text] of Object.entries(files)) {
    await makeFolders(dirname(join(folder, path)));
    await writeFile(join(folder, path), text);
  }
  console.log(`✓ wrote a project '${project}' in ${folder}/ (${Object.keys(files).length} files):
${Object.keys(files)
  .map((f) => `  ${join(folder, f)}`)
  .join('\n')}

Its token (shown once; project.yaml keeps only its sha256 — store it as a secret):

  ${token}

Next:
  ${cqa} check ${shellWord(folder)}
  ${cqa} serve ${shellWord(folder)} --watch
  curl -H 'Authorization: Bearer ${token}' -H 'Accept: application/json' http://127.0.0.1:4000/api/${project}/posts
  ${cqa} build ${shellWord(folder)} --include-private   # a static host checks no token: set public: true in project.yaml to build without this`);
  return 0;
}

/** Whether the running script is under ./node_modules (cqa installed in this project, not on the PATH). */
function installedHere(script: string | undefined): boolean {
  try {
    return script !== undefined && realpathSync(script).startsWith(join(realpathSync('.'), 'node_modules') + sep);
  } catch {
    return false;
  }
}
