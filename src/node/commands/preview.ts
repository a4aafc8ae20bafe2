// `cqa preview [dist] [--port 4173] [--host 127.0.0.1]`: serves a build output as a static host
// would (the server: src/node/server/preview.ts).
import { NotABuildError, startPreview } from '../server/preview.js';
import { ALLOWED_HOST_HELP, allowedHostsOption, hostOption, parseCommandArgs, portOption, UsageError } from './args.js';
import { explainListenError } from './errors.js';
import { parseOptions, type CommandSpec } from './help.js';

export const spec: CommandSpec = {
  usage: 'cqa preview [dist] [options]',
  summary:
    'Serves a build output as a static host would (index.json rewrite, _headers, 404 rules, .br/.gz siblings); a query string is refused with 400.',
  args: [['dist', 'the output of cqa build (default: ./dist)']],
  options: {
    port: { type: 'string', value: 'N', help: 'port to listen on; 0 picks a free one (printed)', fallback: '4173' },
    host: { type: 'string', value: 'HOST', help: 'address to listen on', fallback: '127.0.0.1' },
    'allowed-host': {
      type: 'string',
      value: 'NAMES',
      help: ALLOWED_HOST_HELP,
    },
  },
  examples: ['cqa build content --include-private && cqa preview dist'],
};

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, parseOptions(spec));
  const dir = positionals[0] ?? 'dist';
  const port = portOption(values.port as string | undefined, 4173);
  const host = hostOption(values.host as string | undefined, '127.0.0.1');
  const allowedHosts = allowedHostsOption(values['allowed-host'] as string | undefined);
  const preview = await startPreview({ dir, port, host, allowedHosts }).catch((err: unknown) => {
    throw err instanceof NotABuildError ? new UsageError(err.message) : explainListenError(err, host, port);
  });
  console.log(`Previewing ${dir} at ${preview.url}  (try ${preview.url}/openapi.json)`);
  const stop = () => {
    void preview.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => undefined); // runs until a signal
}
