// `cqa <command> [options]`: dispatches to src/commands/<command>.ts. Exit codes: 0 ok,
// 1 content errors, 2 usage errors.
import { UsageError } from './commands/args.js';

type Command = (args: string[]) => Promise<number>;

// Loaded lazily so `cqa check` does not pay for the HTTP server's imports, and vice versa.
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./commands/serve.js')).run,
  token: async () => (await import('./commands/token.js')).run,
  check: async () => (await import('./commands/check.js')).run,
  build: async () => (await import('./commands/build.js')).run,
  preview: async () => (await import('./commands/preview.js')).run,
  types: async () => (await import('./commands/types.js')).run,
};

export const USAGE = `Usage:
  cqa build   [content] [--out dist] [--base-url URL] [--drafts]
  cqa serve   [content] [--port 4000] [--host 127.0.0.1] [--watch] [--cors ORIGIN]
              [--cache-control VALUE] [--max-limit N] [--delay MS] [--base-url URL] [--quiet]
  cqa preview [dist] [--port 4173] [--host 127.0.0.1]
  cqa check   [content]
  cqa types   [content] [--out types.ts]
  cqa token create --project ID [--name N] [--scopes read,drafts]

content defaults to ./content. Exit codes: 0 ok, 1 content errors, 2 usage errors.`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    const { createRequire } = await import('node:module');
    console.log((createRequire(import.meta.url)('../package.json') as { version: string }).version);
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    console.error(`cqa: unknown command '${name}'. Commands: ${Object.keys(COMMANDS).join(', ')}.\n\n${USAGE}`);
    return 2;
  }
  try {
    return await (await load())(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`cqa ${name}: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
}
