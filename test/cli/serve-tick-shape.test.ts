// `cqa serve`, having loaded its content (and so gone through a full GC), keeps process.nextTick on
// V8's fast path: its tick object's inline caches stay monomorphic (src/node/commands/serve-tick-shape.ts). Run in a
// child process of the compiled package, with V8's natives syntax to read the caches' state.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

// The full GC that loading ends with is made certain by gc(); then requests use nextTick.
const PROBE = `
const { startServer } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'lib', 'index.js')).href)});
const { keepTickShape } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'lib/node/commands/serve-tick-shape.js')).href)});
keepTickShape(); // as cqa serve does before startServer()
const s = await startServer({ content: 'content' });
gc();
for (let i = 0; i < 3; i++) await (await fetch(s.url + '/healthz')).text();
await s.close();
%DebugPrint(process.nextTick);
`;

describe('nextTick after a full GC', () => {
  it("keeps the tick object's inline caches monomorphic in a server that loaded its content", () => {
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--input-type=module', '-e', PROBE], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    // `slot #52 DefineKeyedOwnPropertyInLiteral MONOMORPHIC {`: one per property of the literal.
    const states = [...out.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]);
    expect(states.length, 'the printout of this V8 names no literal caches: the probe needs updating').toBeGreaterThan(0);
    expect(states).not.toContain('MEGAMORPHIC');
  });
});
