// fast-check generators of Markdown whose link or image target spells javascript:, vbscript: or
// data: in ways a browser still reads as that scheme: character references (named, decimal, hex,
// with and without ';', zero-padded), mixed case, tab/newline/CR inside, C0 controls and spaces
// before, in every Markdown form that emits an href or src. Shared by the Node and Chromium tests.
import fc from 'fast-check';

const code = (c: string) => c.codePointAt(0) as number;

/** One character of the scheme, written one of the ways the HTML parser decodes back to it. */
const spelledChar = (c: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant(c),
    fc.constant(c.toUpperCase()),
    fc.constant(`&#${code(c)};`),
    fc.constant(`&#${code(c)}`),
    fc.nat({ max: 6 }).map((n) => `&#${'0'.repeat(n)}${code(c)};`),
    fc.constantFrom('x', 'X').map((x) => `&#${x}${code(c).toString(16)};`),
    fc.constant(`&#x${code(c).toString(16).toUpperCase()}`),
    ...(c === ':' ? [fc.constant('&colon;')] : []),
  );

/** What the URL parser removes inside a URL: tab, newline, carriage return, raw or as references. */
const ignorable = fc.constantFrom('', '', '', '\t', '&Tab;', '&#9;', '&#x09;', '&NewLine;', '&#10;', '&#x0a;', '&#13;', '&#x0D;');

/** What the URL parser trims before a URL: C0 controls and spaces, mostly as references. */
const leading = fc
  .array(fc.constantFrom('&#32;', '&#x20;', '&#1;', '&#x1F;', '&#x7;', '&Tab;', '&NewLine;', '\x01', ' '), { maxLength: 3 })
  .map((a) => a.join(''));

const PAYLOADS: Record<string, string> = {
  javascript: 'alert(1)',
  vbscript: 'msgbox(1)',
  data: 'text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
};

/** A destination that a browser resolves to a javascript:, vbscript: or data: URL (most of the time). */
export const scriptUrl: fc.Arbitrary<string> = fc
  .constantFrom('javascript', 'vbscript', 'data')
  .chain((scheme) =>
    fc
      .tuple(leading, fc.tuple(...[...`${scheme}:`].map((c) => fc.tuple(spelledChar(c), ignorable).map(([a, b]) => a + b))))
      .map(([lead, chars]) => lead + chars.join('') + PAYLOADS[scheme]),
  );

/** `url` in each Markdown form that emits a URL: inline, angle, titled, reference, image, image in link, autolink. */
export const inMarkdown = (url: string): fc.Arbitrary<string> =>
  fc.constantFrom(
    `[t](${url})`,
    `[t](<${url}>)`,
    `[t](${url} "title")`,
    `[t][r]\n\n[r]: ${url}`,
    `[r][]\n\n[r]: <${url}>`,
    `![t](${url})`,
    `![t][r]\n\n[r]: ${url} 'title'`,
    `[![i](x.png)](${url})`,
    `[![i](${url})](/ok)`,
    `<${url}>`,
  );

export const scriptLinkMarkdown: fc.Arbitrary<string> = scriptUrl.chain(inMarkdown);
