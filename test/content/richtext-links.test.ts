// Issue 20, item 1: richtext links and images may only point at http(s), mailto or a relative URL,
// judged on the URL the browser resolves (character references decoded, tab/newline/C0 removed),
// for inline links, reference definitions, autolinks and images.
import { describe, expect, it } from 'vitest';
import { renderRichtext } from '../../src/node/content/richtext.js';
import { emittedUrls, unsafeUrls } from './browser-urls.js';
import { SAFE_LINKS, SCRIPT_LINKS } from './script-links.js';

describe('richtext link targets', () => {
  it.each(SCRIPT_LINKS)('drops the script target of %j', (markdown) => {
    const html = renderRichtext(markdown);
    expect(unsafeUrls(html)).toEqual([]);
    expect(html).not.toMatch(/<a /);
  });

  it('keeps the text of a dropped link and the alt text of a dropped image, escaped', () => {
    expect(renderRichtext('[click *me*](&#106;avascript:alert(1))')).toBe('<p>click <em>me</em></p>\n');
    expect(renderRichtext('![a <b> & "c"](javascript&colon;x)')).toBe('<p>a &lt;b&gt; &amp; &quot;c&quot;</p>\n');
  });

  it('keeps a safe image inside a dropped link', () => {
    expect(renderRichtext('[![i](x.png)](javascript:alert(6))')).toBe('<p><img src="x.png" alt="i"></p>\n');
  });

  it.each(SAFE_LINKS)('keeps the link %j, resolving to %s', (markdown, expected) => {
    const urls = emittedUrls(renderRichtext(markdown));
    expect(urls.map((u) => u.resolved)).toEqual([expected]);
  });

  it('writes titles and alt text as the text they show, escaped', () => {
    const html = renderRichtext('[x](/a "say &quot;hi&quot; <b>") ![a&amp;b](/i.png \'t&#39;\')');
    expect(html).toBe('<p><a href="/a" title="say &quot;hi&quot; &lt;b&gt;">x</a> <img src="/i.png" alt="a&amp;b" title="t&#39;"></p>\n');
  });

  it('still escapes raw HTML, including links written as HTML', () => {
    const html = renderRichtext(
      '<a href="javascript:alert(1)">x</a> <img src=x onerror=alert(1)>\n\n<iframe src="javascript:alert(1)"></iframe>',
    );
    expect(emittedUrls(html)).toEqual([]);
    expect(html).not.toMatch(/<(?:a|img|iframe)\b/);
  });
});
