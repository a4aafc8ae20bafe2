// `cqa serve [content] [--port 4000] [--host 127.0.0.1] [--watch] [--cors ORIGIN]
//  [--cache-control VALUE] [--max-limit N] [--delay MS] [--base-url URL] [--quiet]`
import { ContentError, formatIssue } from '../content/issues.js';
import { startServer } from '../http/start.js';
import { intOption, parseCommandArgs, UsageError } from './args.js';

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    watch: { type: 'boolean' },
    cors: { type: 'string' },
    'cache-control': { type: 'string' },
    'max-limit': { type: 'string' },
    delay: { type: 'string' },
    'base-url': { type: 'string' },
    quiet: { type: 'boolean' },
  });
  const port = intOption('port', values.port as string | undefined, 4000);
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const quiet = values.quiet === true;
  const content = positionals[0] ?? 'content';

  let server;
  try {
    server = await startServer({
      content,
      port,
      host: (values.host as string | undefined) ?? '127.0.0.1',
      watch: values.watch === true,
      quiet,
      maxLimit: intOption('max-limit', values['max-limit'] as string | undefined, 1000),
      delay: intOption('delay', values.delay as string | undefined, 0),
      ...(values.cors !== undefined ? { cors: values.cors as string } : {}),
      ...(values['cache-control'] !== undefined ? { cacheControl: values['cache-control'] as string } : {}),
      ...(values['base-url'] !== undefined ? { baseUrl: values['base-url'] as string } : {}),
      log: (line) => console.log(line),
      onError: (err) => console.error('cqa: unexpected error (answered 500):', err),
    });
  } catch (err) {
    if (err instanceof ContentError) {
      console.error(`cqa serve: ${err.issues.length} content error${err.issues.length === 1 ? '' : 's'}:`);
      for (const i of err.issues) console.error(`  ${formatIssue(i)}`);
      return 1;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      console.error(`cqa serve: cannot listen on ${(values.host as string | undefined) ?? '127.0.0.1'}:${port}: ${(err as Error).message}`);
      return 2;
    }
    throw err;
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
