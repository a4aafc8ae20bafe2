// `cqa token create --project ID [--name N] [--scopes read,drafts]`: a new random token, printed
// once, and the project.yaml lines holding only its sha256.
import { parseCommandArgs, UsageError } from './args.js';
import { parseOptions, type CommandSpec } from './help.js';
import { newToken } from './token-secret.js';

const SCOPES = new Set(['read', 'drafts']);
const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export const spec: CommandSpec = {
  usage: 'cqa token create --project ID [options]',
  summary: 'Makes a new random token: prints it once, and the project.yaml lines holding only its sha256.',
  options: {
    project: { type: 'string', value: 'ID', help: 'the project the token reads (required)' },
    name: { type: 'string', value: 'NAME', help: 'a name to recognise the token by', fallback: 'token-<today>' },
    scopes: {
      type: 'string',
      value: 'LIST',
      help: 'read (published content), drafts (also state=with_draft|only_draft)',
      fallback: 'read',
    },
  },
  examples: ['cqa token create --project demo --name website --scopes read'],
};

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create')
    throw new UsageError(
      sub ? `unknown token command '${sub}' (try 'cqa token create')` : "missing command: 'cqa token create --project ID'",
    );
  const { values } = parseCommandArgs(rest, parseOptions(spec), 0);
  const project = values.project as string | undefined;
  if (!project) throw new UsageError('--project ID is required');
  if (!ID.test(project)) throw new UsageError(`--project '${project}' is not a valid project id`);
  const scopes = ((values.scopes as string | undefined) ?? 'read')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of scopes) if (!SCOPES.has(s)) throw new UsageError(`unknown scope '${s}' (scopes: read, drafts)`);
  if (scopes.length === 0) throw new UsageError('--scopes needs at least one scope');
  const name = (values.name as string | undefined) ?? `token-${new Date().toISOString().slice(0, 10)}`;

  const { token, sha256 } = newToken();
  console.log(`New token for project '${project}' (shown once; store it as a secret):

  ${token}

Add these lines to the project.yaml of '${project}' (the first one only if it has no 'tokens:' line yet;
the others go under that line):

tokens:
  - name: ${JSON.stringify(name)}
    sha256: ${sha256}
    scopes: [${[...new Set(scopes)].join(', ')}]

Use it as:  Authorization: Bearer ${token}`);
  return 0;
}
