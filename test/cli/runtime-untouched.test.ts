// The library runs inside its users' processes (a vitest worker calling startServer()): nothing in
// it may change V8's flags, force a collection or hold runtime internals. Only the `cqa` command,
// which owns its process, may (src/node/commands/serve-gc.ts, serve-tick-shape.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const RUNTIME_TRICKS = /setFlagsFromString|runInNewContext\(['"]gc|executionAsyncResource|--expose-gc/;

describe('the library leaves the runtime alone', () => {
  it('uses V8 flags, forced collections and async internals only in src/node/commands/', () => {
    const offenders = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.startsWith(`node/commands${'/'}`))
      .filter((f) => RUNTIME_TRICKS.test(readFileSync(join(SRC, f), 'utf8')))
      .map((f) => relative(SRC, join(SRC, f)));
    expect(offenders).toEqual([]);
  });
});
