import { describe, expect, it } from 'vitest';
import { windowsNameProblem } from '../../src/node/content/windows-names.js';

describe('windowsNameProblem', () => {
  it('finds every name Windows cannot hold, in any segment of the path or in an id', () => {
    const found = [
      ['con.md'],
      ['p/posts/Con.md'],
      ['p/NUL/a.md'],
      ['p/posts/com1.yaml'],
      ['p/posts/lpt¹.md'],
      ['p/posts/aux'],
      ['p/media/q?x.svg'],
      ['p/posts/a\\b.md'],
      ['p/posts/tab\there.md'],
      ['p/posts/dot..yaml', 'dot.'],
      ['p/posts /a.md'],
      ['p/folder./a.md'],
      ['p/posts/a.md', 'prn'],
      ['p/posts/a.md', 'ends.'],
      ['p/posts/a.md', 'x:y'],
    ];
    for (const [rel, ...names] of found) expect(windowsNameProblem(rel as string, ...names), `${rel} ${names}`).toMatch(/Windows/);
  });

  it('passes names that only look like one (a device name is the whole name before a dot)', () => {
    const passed = [
      ['console.md'],
      ['p/connect/a.md'],
      ['p/posts/com10.md'],
      ['p/posts/nul-and-void.md'],
      ['p/posts/a.b.md', 'a.b'],
      ['p/posts/dot..yaml'],
      ['bench/items/item-000001.md', 'item-000001'],
    ];
    for (const [rel, ...names] of passed) expect(windowsNameProblem(rel as string, ...names), `${rel} ${names}`).toBeUndefined();
  });
});
