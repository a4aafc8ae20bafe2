// `cqa serve` only, never the library. A workaround for V8 (Node 20), measured in docs/performance.md: keep process.nextTick on its
// fast path for the life of the process.
//
// nextTick makes each tick's bookkeeping object with a literal of computed keys
// (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`), and node:http calls
// it several times per request (the request stream's end and close, the write's callback). V8
// remembers that object's shape (its hidden classes) only weakly. A full GC while no tick object
// is alive collects the shape, and from then on the literal's inline caches are megamorphic for
// good: every nextTick defines its properties through V8's runtime. Loading a content tree in this
// thread always ends with a full GC, so a server that loaded its content paid ~8–12 µs of CPU more
// per request than one that never collected (a bare node:http server).
//
// Holding one tick object keeps its shape, and so the inline caches, alive. It works only if done
// before the process's first full GC (`cqa serve` does it before loading); later it is harmless.
import { executionAsyncResource } from 'node:async_hooks';

let held: object | undefined;

export function keepTickShape(): void {
  if (held) return;
  // Inside a tick's callback, the current async resource is that tick's object.
  process.nextTick(() => {
    held = executionAsyncResource();
  });
}
