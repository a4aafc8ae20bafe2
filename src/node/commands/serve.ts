// `cqa serve [content] [--port 4000] [--host 127.0.0.1] [--watch] [--cors ORIGIN]
//  [--cache-control VALUE] [--max-limit N] [--delay MS|MIN-MAX] [--fail-rate R] [--fail-status S]
//  [--seed N] [--log text|json] [--base-url URL] [--quiet] [--no-ui] [--no-cache] [--strict]`
import { stat } from 'node:fs/promises';
import { ContentError, formatIssue } from '../content/issues.js';
import { printable, printableJson } from '../printable.js';
import { FAIL_STATUSES, MAX_DELAY_MS } from '../../core/http/controls.js';
import { startServer, type RunningServer } from '../server/start.js';
import { collectGarbage, shrinkYoungGeneration } from './serve-gc.js';
import { keepTickShape } from './serve-tick-shape.js';
import {
  baseUrlOption,
  choiceOption,
  corsOption,
  delayOption,
  headerOption,
  ALLOWED_HOST_HELP,
  allowedHostsOption,
  hostOption,
  intOption,
  parseCommandArgs,
  portOption,
  rateOption,
  TIMESTAMPS_SPEC,
  timestampsOption,
} from './args.js';
import { contentFolder } from './content-folder.js';
import { projectLine, tryLines } from './serve-banner.js';
import type { RequestRecord } from '../../core/http/journal.js';
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
    'allowed-host': {
      type: 'string',
      value: 'NAMES',
      help: ALLOWED_HOST_HELP,
    },
    watch: { type: 'boolean', help: 'rebuild on every change; a broken file keeps the last good snapshot (at start: waits for a fix)' },
    cors: { type: 'string', value: 'ORIGIN', help: 'Access-Control-Allow-Origin: *, an origin, or a comma-separated list', fallback: '*' },
    'cache-control': {
      type: 'string',
      value: 'VALUE',
      help: 'Cache-Control of answers (private is added when a token was needed)',
      fallback: 'no-cache',
    },
    'max-limit': { type: 'string', value: 'N', help: `largest limit= accepted; 0 = no cap (at most ${MAX_MAX_LIMIT})`, fallback: '1000' },
    delay: {
      type: 'string',
      value: 'MS|MIN-MAX',
      help: `hold every answer back this long, or a time drawn from the range (at most ${MAX_DELAY_MS})`,
      fallback: '0',
    },
    'fail-rate': {
      type: 'string',
      value: 'R',
      help: 'share of API requests that fail on purpose, 0 to 1 (Prefer: status=503 forces one)',
      fallback: '0',
    },
    'fail-status': {
      type: 'string',
      value: FAIL_STATUSES.join('|'),
      help: 'status of those failures, in the dialect of the project (429 and 503 with Retry-After)',
      fallback: '503',
    },
    seed: {
      type: 'string',
      value: 'N',
      help: 'seed of --fail-rate and a --delay range: the same seed replays the same run',
      fallback: 'random, printed',
    },
    log: {
      type: 'string',
      value: 'text|json',
      help: 'request log: a line of text, or one JSON object a line on stdout (the rest goes to stderr)',
      fallback: 'text',
    },
    'base-url': { type: 'string', value: 'URL', help: "prefix of media full_url (an http(s) URL or a path starting with '/')" },
    quiet: { type: 'boolean', help: 'no list of projects at start and no text request log (--log json still logs)' },
    'no-ui': { type: 'boolean', help: 'no explorer page for browsers at / (docs/explorer.md)' },
    timestamps: TIMESTAMPS_SPEC,
    strict: {
      type: 'boolean',
      help: 'every elmapi3 project strict (as strict: true in its project.yaml): what ElmapiCMS silently accepts is answered 422',
    },
    'no-cache': {
      type: 'boolean',
      help: 'parse every file, keep nothing in <content>/.cqa-cache/ (kept there to start faster next time; not with --watch)',
    },
  },
  examples: [
    'cqa serve content --watch',
    'cqa serve content --fail-rate 0.1 --fail-status 503 --seed 42 --log json',
    "curl -H 'Authorization: Bearer demo-token' -H 'Accept: application/json' http://127.0.0.1:4000/api/demo/posts",
  ],
};

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, parseOptions(spec));
  const port = portOption(values.port as string | undefined, 4000);
  const host = hostOption(values.host as string | undefined, '127.0.0.1');
  const allowedHosts = allowedHostsOption(values['allowed-host'] as string | undefined);
  const maxLimit = intOption('max-limit', values['max-limit'] as string | undefined, 1000, MAX_MAX_LIMIT);
  const delay = delayOption(values.delay as string | undefined, MAX_DELAY_MS);
  const failRate = rateOption('fail-rate', values['fail-rate'] as string | undefined);
  const failStatus = choiceOption('fail-status', values['fail-status'] as string | undefined, FAIL_STATUSES.map(String), '503');
  const seed = values.seed === undefined ? undefined : intOption('seed', values.seed as string, 0, 0xffffffff);
  const json = choiceOption('log', values.log as string | undefined, ['text', 'json'], 'text') === 'json';
  const cors = corsOption(values.cors as string | undefined);
  const cacheControl = headerOption('cache-control', values['cache-control'] as string | undefined);
  const baseUrl = baseUrlOption(values['base-url'] as string | undefined);
  const quiet = values.quiet === true;
  const timestamps = timestampsOption(values.timestamps as string | undefined);
  // With --log json, stdout carries the JSON lines only: everything else goes to stderr.
  const say = json ? (line: string) => console.error(line) : (line: string) => console.log(line);
  // `cqa serve --log json | head -1`: once the reader is gone, stop logging and keep serving.
  let logOpen = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    if (logOpen) console.error('cqa serve: stdout was closed: no more request log lines (still serving)');
    logOpen = false;
  });
  const content = await contentFolder(positionals[0] ?? 'content', 'serve');

  keepTickShape(); // before loading, which ends with a full GC (see serve-tick-shape.ts)
  const start = () =>
    startServer({
      content,
      port,
      host,
      allowedHosts,
      watch: values.watch === true,
      quiet,
      ...(json ? { requestLog: false } : {}), // the JSON lines below instead; warnings and reloads still said (stderr)
      ui: values['no-ui'] !== true,
      strict: values.strict === true,
      parseCache: values['no-cache'] !== true && values.watch !== true, // the watcher keeps its own (startServer refuses both)
      ...(timestamps ? { timestamps } : {}),
      maxLimit,
      delay,
      failRate,
      failStatus: Number(failStatus) as (typeof FAIL_STATUSES)[number],
      ...(seed !== undefined ? { seed } : {}),
      journal: 0,
      ...(json ? { onRequest: (r: RequestRecord) => void (logOpen && process.stdout.write(`${printableJson(r)}\n`)) } : {}),
      ...(cors !== undefined ? { cors } : {}),
      ...(cacheControl !== undefined ? { cacheControl } : {}),
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      log: say,
      onSlowQuery: () => collectGarbage(),
      onError: (err) => console.error(`cqa serve: unexpected error (answered 500): ${errorText(err)}`),
    });
  let server: RunningServer;
  for (;;) {
    // Under --watch, watched from before the load: a save while it runs may be the fix.
    const next = values.watch === true ? await watchForChange(content) : undefined;
    try {
      server = await start();
      break;
    } catch (err) {
      if (!(err instanceof ContentError)) throw explainListenError(err, host, port);
      console.error(`cqa serve: ${err.issues.length} content error${err.issues.length === 1 ? '' : 's'}:`);
      for (const i of err.issues) console.error(`  ${formatIssue(i)}`);
      if (!next) return 1;
      // As a dev server does: the next save may be the fix.
      console.error(`cqa serve: waiting for a fix (watching ${printable(content)}; Ctrl-C to stop)`);
      await next.changed;
    } finally {
      await next?.close();
    }
  }

  shrinkYoungGeneration(); // what loading a large tree grew (see serve-gc.ts)
  const s = server.snapshot;
  const projects = [...s.projects.values()];
  say(`cqa: serving ${printable(content)} at ${server.url}  (snapshot ${s.hash}${values.watch ? ', watching for changes' : ''})`);
  if (server.controls) say(`cqa: contract-test controls on: ${server.controls}`);
  if (values.strict === true && projects.some((p) => p.record.dialect === 'elmapi3'))
    say('cqa: --strict: every elmapi3 project answers 422 where ElmapiCMS would silently accept a request');
  if (!quiet) {
    // Project and collection names are folder names: shown escaped, as every name from the content.
    for (const p of projects) say(printable(projectLine(p, server.url)));
    for (const line of tryLines(s, server.url)) say(printable(line));
    if (values['no-ui'] !== true) say(`  explorer: ${server.url}/  (open it in a browser)`);
  }

  // Graceful shutdown: stop accepting, let requests in flight finish, exit 0.
  await new Promise<void>((done) => {
    const stop = (signal: string) => {
      if (!quiet) say(`cqa: ${signal}, shutting down`);
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

/**
 * Watches `root` for a change (resolved once the watch is set up): `changed` resolves once
 * something changed and nothing more did for 200 ms (an editor's save is several events).
 * `close()` stops watching.
 */
async function watchForChange(root: string): Promise<{ readonly changed: Promise<void>; close(): Promise<void> }> {
  // A content folder that is gone cannot be watched: wait for one to appear there (nothing else
  // would keep the process alive; it ended with exit code 0).
  if (!(await stat(root).catch(() => undefined))?.isDirectory()) {
    let poll: NodeJS.Timeout | undefined;
    const appeared = new Promise<void>((ok) => {
      poll = setInterval(() => {
        void stat(root).then(
          (s) => {
            if (!s.isDirectory()) return;
            clearInterval(poll);
            ok();
          },
          () => {},
        );
      }, 500);
    });
    return { changed: appeared, close: async () => clearInterval(poll) };
  }
  const { watchContent } = await import('../content/watch.js');
  let settle: NodeJS.Timeout | undefined;
  let changed!: () => void;
  const done = new Promise<void>((ok) => (changed = ok));
  const watcher = watchContent(
    root,
    () => {
      clearTimeout(settle);
      settle = setTimeout(changed, 200);
    },
    () => {}, // a folder that vanished: the next change (or Ctrl-C) decides
  );
  return {
    changed: done,
    close: async () => {
      clearTimeout(settle);
      await watcher.close();
    },
  };
}
