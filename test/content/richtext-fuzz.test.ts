// Issue 20, item 1, as a property: however `javascript:`, `vbscript:` or `data:` is spelled
// (character references, case, tab/newline, leading C0 and spaces) and whatever Markdown form
// carries it, no href or src in the rendered HTML, decoded and resolved as a browser would,
// has a scheme other than http, https or mailto.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderRichtext } from '../../src/node/content/richtext.js';
import { emittedUrls, unsafeUrls } from './browser-urls.js';
import { scriptLinkMarkdown, scriptUrl } from './script-link-arbitraries.js';

describe('richtext link targets, fuzzed', () => {
  it('the generator spells script URLs a browser resolves as such', () => {
    // Guards the property below against a generator that only makes harmless text.
    const urls = fc.sample(scriptUrl, { numRuns: 300, seed: 20 });
    const scripts = urls.filter((u) =>
      emittedUrls(`<a href="${u.replace(/"/g, '&quot;')}">x</a>`).some((e) => /^(?:javascript|vbscript|data):/.test(e.resolved ?? '')),
    );
    expect(scripts.length).toBeGreaterThan(urls.length * 0.8);
  });

  it('emits no href or src outside http, https, mailto and relative', () => {
    fc.assert(
      fc.property(scriptLinkMarkdown, (markdown) => {
        expect(unsafeUrls(renderRichtext(markdown))).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  it('emits no unsafe URL for arbitrary text around a link either', () => {
    const noise = fc.string({
      unit: fc.constantFrom(
        '&',
        '#',
        ';',
        'x',
        '1',
        ':',
        'j',
        'a',
        '\t',
        '\n',
        ' ',
        '<',
        '>',
        '(',
        ')',
        '[',
        ']',
        '!',
        '"',
        '\\',
        '\x00',
        'colon',
      ),
    });
    fc.assert(
      fc.property(noise, scriptUrl, noise, (before, url, after) => {
        expect(unsafeUrls(renderRichtext(`[t](${before}${url}${after})`))).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});
