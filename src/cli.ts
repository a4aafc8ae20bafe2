// `cqa <command> [options]`: dispatches to src/node/commands/<command>.ts; `--help` anywhere (or
// `cqa help <command>`) prints the command's options from its spec. Exit codes: 0 ok,
// 1 content errors (and unexpected failures), 2 usage errors. Every error a command throws ends
// here as one line `cqa <command>: <message>` (src/node/commands/errors.ts); a stack only with CQA_DEBUG=1.
import { UsageError } from './node/commands/args.js';
import { errorText, ListenError } from './node/commands/errors.js';
import { formatHelp, type CommandSpec } from './node/commands/help.js';
import { printableLines } from './node/printable.js';
import { closestName } from './core/suggest.js';

interface CommandModule {
  run(args: string[]): Promise<number>;
  readonly spec: CommandSpec;
}

// Loaded lazily so `cqa check` does not pay for the HTTP server's imports, and vice versa.
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  build: () => import('./node/commands/build.js'),
  serve: () => import('./node/commands/serve.js'),
  preview: () => import('./node/commands/preview.js'),
  check: () => import('./node/commands/check.js'),
  token: () => import('./node/commands/token.js'),
  types: () => import('./node/commands/types.js'),
  pull: () => import('./node/commands/pull.js'),
  init: () => import('./node/commands/init.js'),
};

export const USAGE = `Usage: cqa <command> [options]

Commands:
  build    [content]   validate the content and write the static tree (dist/)
  serve    [content]   serve the API over HTTP: tokens, queries, drafts, --watch
  preview  [dist]      serve a build output as a static host would
  check    [content]   validate only; list every error with file and line
  types    [content]   write TypeScript types of every collection (createClient<Types>())
  init     [folder]    write a small commented project to start from (and its token, once)
  token create         make a new token and the project.yaml lines for it
  pull     BASE_URL    read a project from a live API into a content tree (token: CQA_TOKEN)

Options:
  -h, --help           this help ('cqa <command> --help' or 'cqa help <command>': a command's options)
  -v, --version        print the version of cqa

Run 'cqa <command> --help' (or 'cqa help <command>') for its options and an example.
content defaults to ./content. Exit codes: 0 ok, 1 content or runtime error, 2 usage error.`;

function commandNamed(name: string): (() => Promise<CommandModule>) | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}

function unknownCommand(name: string): number {
  const option = name.startsWith('-');
  const near = closestName(name, option ? ['--help', '--version'] : [...Object.keys(COMMANDS), 'help']);
  const guess = near ? ` (did you mean 'cqa ${near}'?)` : '';
  const what = option ? 'option' : 'command';
  console.error(`cqa: unknown ${what} '${name}'${guess}. Commands: ${Object.keys(COMMANDS).join(', ')}.\n\n${USAGE}`);
  return 2;
}

/** `--help`/`-h` anywhere before a `--`. */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  if (name === 'help') {
    // `cqa help --help`, `cqa help -h`: the general usage, which says what help does.
    if (rest[0] === '--help' || rest[0] === '-h') {
      console.log(USAGE);
      return 0;
    }
    const target = commandNamed(rest[0] as string);
    if (!target) return unknownCommand(rest[0] as string);
    console.log(formatHelp((await target()).spec));
    return 0;
  }
  if (name === '--version' || name === '-v') {
    const { createRequire } = await import('node:module');
    console.log((createRequire(import.meta.url)('../package.json') as { version: string }).version);
    return 0;
  }
  const load = commandNamed(name);
  if (!load) return unknownCommand(name);
  try {
    const command = await load();
    if (asksForHelp(rest)) {
      console.log(formatHelp(command.spec));
      return 0;
    }
    return await command.run(rest);
  } catch (err) {
    if (err instanceof ListenError) {
      console.error(`cqa ${name}: ${printableLines(err.message)}`);
      return 2;
    }
    if (err instanceof UsageError) {
      console.error(`cqa ${name}: ${printableLines(err.message)}\n(see 'cqa ${name} --help')`);
      return 2;
    }
    console.error(`cqa ${name}: ${errorText(err)}`);
    return 1;
  }
}

/**
 * The process entry point (bin/cqa.js): main(), plus a last resort for errors thrown outside any
 * command's promise (a server or watcher failing later): one line and exit 1, as main() does.
 */
export function runCli(argv: string[]): void {
  const command = argv[0] && !argv[0].startsWith('-') ? ` ${argv[0]}` : '';
  const crash = (err: unknown) => {
    console.error(`cqa${command}: ${errorText(err)}`);
    process.exit(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  main(argv).then((code) => {
    if (typeof code === 'number') process.exitCode = code;
  }, crash);
}
