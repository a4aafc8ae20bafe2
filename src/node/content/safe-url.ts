// Which link and image targets richtext may emit: an allowlist of schemes, checked on the URL the
// browser will resolve, not on the Markdown text (a blocklist of `javascript:` missed
// `&#106;avascript:`, `javascript&colon;`, `jav&#x09;ascript:`).
import { decodeAttributeValue } from './html-references.js';

const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto']);

/** A scheme as the URL parser reads one: a letter, then letters, digits, '+', '-' or '.', then ':'. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * The URL to put in an href or src for the Markdown destination `href`, or undefined when it is
 * not http(s), mailto or relative (protocol-relative `//host` is http(s)). `literal` is for
 * autolinks, whose text is the URL as it is (no character references). The result is the URL the
 * check saw, so escaping it for the attribute gives the browser exactly that URL.
 */
export function allowedUrl(href: string, literal = false): string | undefined {
  const url = browserUrl(literal ? href : decodeAttributeValue(href));
  const scheme = SCHEME.exec(url)?.[1];
  if (scheme !== undefined && !ALLOWED_SCHEMES.has(scheme.toLowerCase())) return undefined;
  try {
    // As marked does: non-ASCII and spaces percent-encoded, existing %xx sequences kept.
    return encodeURI(url).replace(/%25/g, '%');
  } catch {
    return undefined; // a lone surrogate: not a URL
  }
}

/** What the URL parser starts from: leading and trailing C0 controls and spaces, and every tab and newline, removed. */
function browserUrl(text: string): string {
  // A loop, not /[\x00-\x20]+$/: that regex is quadratic on a long run of spaces inside the text.
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end).replace(/[\t\n\r]/g, '');
}
