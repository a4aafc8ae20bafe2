import { describe, expect, it } from 'vitest';
import { renderRichtext } from '../../src/node/content/richtext.js';

describe('richtext rendering', () => {
  it('renders Markdown to HTML', () => {
    expect(renderRichtext('# Title\n\nSome *em* and a [link](https://example.com).')).toBe(
      '<h1>Title</h1>\n<p>Some <em>em</em> and a <a href="https://example.com">link</a>.</p>\n',
    );
  });

  it('escapes raw HTML blocks and inline tags instead of passing them through', () => {
    const html = renderRichtext('<script>alert(1)</script>\n\nText with <img src=x onerror=alert(1)> inline.');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<p>Text with &lt;img src=x onerror=alert(1)&gt; inline.</p>');
  });

  it('drops script-running link and image targets but keeps their text', () => {
    expect(renderRichtext('[click](javascript:alert(1)) ![pic](data:text/html;base64,xx)')).toBe('<p>click pic</p>\n');
  });
});
