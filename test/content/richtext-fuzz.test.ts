// Issue 20, item 1, as a property: however `javascript:`, `vbscript:` or `data:` is spelled
// (character references, case, tab/newline, leading C0 and spaces) and whatever Markdown form
// carries it, no href or src in the rendered HTML, decoded and resolved as a browser would,
// has a scheme other than http, https or mailto.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderRichtext } from '../../src/node/content/richtext.js';
import { emittedUrls, unsafeUrls } from './browser-urls.js';
import { scriptLinkMarkdown, scriptUrl } from './script-link-arbitraries.js';
import { MARKDOWN_ATTRIBUTES, MARKDOWN_ELEMENTS, rawHtmlMarkdown } from './raw-html-arbitraries.js';
import { createDocument } from '@mixmark-io/domino';
import { runs } from '../property-runs.js';

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
      { numRuns: runs(3000) },
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
      { numRuns: runs(1000) },
    );
  });
});

/** The elements and attributes of `html` that marked does not make from Markdown, as an HTML parser reads it. */
function foreignMarkup(html: string): string[] {
  const body = createDocument(`<!doctype html><body>${html}`).body;
  const found: string[] = [];
  for (const element of Array.from(body.querySelectorAll('*'))) {
    const name = element.tagName.toLowerCase();
    if (!MARKDOWN_ELEMENTS.has(name)) found.push(`<${name}>`);
    for (const { name: attribute } of Array.from(element.attributes))
      if (!MARKDOWN_ATTRIBUTES.has(attribute.toLowerCase())) found.push(`<${name} ${attribute}>`);
  }
  return found;
}

// Found from outside: after an inline <kbd>, <code>, <pre> or <script> left open, marked passed the
// rest of the block through unescaped, and `<kbd> <img src=x onerror=…>` ran script in Chromium.
describe('raw HTML in richtext, fuzzed', () => {
  it('the check finds markup that is not Markdown', () => {
    expect(foreignMarkup('<p><kbd>x</kbd> <img src=x onerror=alert(1)></p>')).toEqual(['<kbd>', '<img onerror>']);
  });

  it('is text: the HTML holds only the elements and attributes marked makes from Markdown', () => {
    for (const markdown of [
      '<kbd> <img src=x onerror=alert(1)//',
      'x <code> <img src=x onerror=alert(2)//',
      'a <script> <svg onload=alert(1)',
    ])
      expect(foreignMarkup(renderRichtext(markdown))).toEqual([]);
    fc.assert(
      fc.property(rawHtmlMarkdown, (markdown) => {
        expect(foreignMarkup(renderRichtext(markdown))).toEqual([]);
      }),
      { numRuns: runs(3000) },
    );
  });
});
