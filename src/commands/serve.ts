// `cqa serve [content] [--port 4000] [--host 127.0.0.1] [--watch] [--cors ORIGIN]
//  [--cache-control VALUE] [--max-limit N] [--delay MS] [--base-url URL] [--quiet] [--no-ui]`
import { ContentError, formatIssue } from '../content/issues.js';
import { MAX_DELAY_MS, startServer } from '../http/start.js';
import { baseUrlOption, headerOption, hostOption, intOption, parseCommandArgs, portOption } from './args.js';
import { contentFolder } from './content-folder.js';
import { parseOptions, type CommandSpec } from './help.js';
import { errorText, explainListenError } from './errors.js';

/** Above this --max-limit means nothing more than 0 (no cap) does. */
const MAX_MAX_LIMIT = 1_000_000_000;

export const spec: CommandSpec = {
  usage: 'cqa serve [content] [options]',
  summary: 'Builds the snapshot in memory and serves the API over HTTP: tokens, queries, drafts, media.',
  args: [['content', 'the content folder (default: ./content)']],
  options: {
    port: { type: 'string', value: 'N', help: 'port to listen on; 0 picks a free one (printed)', fallback: '4000' },
    host: { type: 'string', value: 'HOST', help: 'address to listen on (0.0.0.0: every interface)', fallback: '127.0.0.1' },
    watch: { type: 'boolean', help: 'rebuild on every change; a broken file keeps the last good snapshot' },
    cors: { type: 'string', value: 'ORIGIN', help: 'Access-Control-Allow-Origin: *, an origin, or a comma-separated list', fallback: '*' },
    'cache-control': { type: 'string', value: 'VALUE', help: 'Cache-Control of answers (private is added when a token was needed)', fallback: 'no-cache' },
    'max-limit': { type: 'string', value: 'N', help: `largest limit= accepted; 0 = no cap (at most ${MAX_MAX_LIMIT})`, fallback: '1000' },
    delay: { type: 'string', value: 'MS', help: `hold every answer back this long (at most ${MAX_DELAY_MS})`, fallback: '0' },
    'base-url': { type: 'string', value: 'URL', help: "prefix of media full_url (an http(s) URL or a path starting with '/')" },
    quiet: { type: 'boolean', help: 'no request log and no list of projects at start' },
    'no-ui': { type: 'boolean', help: 'no explorer page for browsers at / (docs/explorer.md)' },
  },
  examples: ['cqa serve content --watch', "curl -H 'Authorization: Bearer demo-token' -H 'Accept: application/json' http://127.0.0.1:4000/api/demo/posts"],
};

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, parseOptions(spec));
  const port = portOption(values.port as string | undefined, 4000);
  const host = hostOption(values.host as string | undefined, '127.0.0.1');
  const maxLimit = intOption('max-limit', values['max-limit'] as string | undefined, 1000, MAX_MAX_LIMIT);
  const delay = intOption('delay', values.delay as string | undefined, 0, MAX_DELAY_MS);
  const cors = headerOption('cors', values.cors as string | undefined);
  const cacheControl = headerOption('cache-control', values['cache-control'] as string | undefined);
  const baseUrl = baseUrlOption(values['base-url'] as string | undefined);
  const quiet = values.quiet === true;
  const content = await contentFolder(positionals[0] ?? 'content', 'serve');

  let server;
  try {
    server = await startServer({
      content,
      port,
      host,
      watch: values.watch === true,
      quiet,
      ui: values['no-ui'] !== true,
      maxLimit,
      delay,
      ...(cors !== undefined ? { cors } : {}),
      ...(cacheControl !== undefined ? { cacheControl } : {}),
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      log: (line) => console.log(line),
      onError: (err) => console.error(`cqa serve: unexpected error (answered 500): ${errorText(err)}`),
    });
  } catch (err) {
    if (err instanceof ContentError) {
      console.error(`cqa serve: ${err.issues.length} content error${err.issues.length === 1 ? '' : 's'}:`);
      for (const i of err.issues) console.error(`  ${formatIssue(i)}`);
      return 1;
    }
    throw explainListenError(err, host, port);
  }

  const s = server.snapshot;
  const projects = [...s.projects.values()];
  console.log(`cqa: serving ${content} at ${server.url}  (snapshot ${s.hash}${values.watch ? ', watching for changes' : ''})`);
  if (!quiet) {
    for (const p of projects) {
      const cols = [...p.collections.keys()].join(', ');
      console.log(`  ${server.url}/api/${p.record.id}  ${p.record.public ? '(public)' : '(token needed)'}  collections: ${cols}`);
    }
    const first = projects[0];
    if (first) {
      console.log(`  try: curl -H 'Authorization: Bearer <token>' -H 'Accept: application/json' '${server.url}/api/${first.record.id}'`);
    }
    if (values['no-ui'] !== true) console.log(`  explorer: ${server.url}/  (open it in a browser)`);
  }

  // Graceful shutdown: stop accepting, let requests in flight finish, exit 0.
  await new Promise<void>((done) => {
    const stop = (signal: string) => {
      if (!quiet) console.log(`cqa: ${signal}, shutting down`);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      server.close().then(done, done);
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
  return 0;
}
