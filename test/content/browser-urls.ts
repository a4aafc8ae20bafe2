// Reads rendered richtext as a browser would: an HTML parser (domino, the DOM turndown uses) decodes
// the attributes and the WHATWG URL parser (Node's, the browser's algorithm) resolves them. A test
// helper, independent of the decoding in src/node/content/html-references.ts.
import { createDocument } from '@mixmark-io/domino';

export const PAGE = 'https://site.test/page';
const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

export interface EmittedUrl {
  readonly element: string;
  readonly attribute: string;
  /** The attribute as the DOM holds it. */
  readonly value: string;
  /** What it resolves to on PAGE, or undefined when it is no URL (nothing to follow). */
  readonly resolved: string | undefined;
}

/** Every URL-bearing attribute in `html`, and any event handler attribute, as the DOM sees them. */
export function emittedUrls(html: string): EmittedUrl[] {
  const document = createDocument(`<!doctype html><body>${html}`);
  const found: EmittedUrl[] = [];
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    for (const { name, value } of Array.from(element.attributes)) {
      if (!/^(?:href|src|srcset|action|formaction|poster|xlink:href|background|data)$|^on/i.test(name)) continue;
      let resolved: string | undefined;
      try {
        resolved = new URL(value, PAGE).href;
      } catch {
        resolved = undefined;
      }
      found.push({ element: element.localName, attribute: name, value, resolved });
    }
  }
  return found;
}

/** The emitted URLs a click or a load could turn into something other than http(s) or mailto. */
export function unsafeUrls(html: string): EmittedUrl[] {
  return emittedUrls(html).filter(
    (u) => /^on/i.test(u.attribute) || (u.resolved !== undefined && !ALLOWED_PROTOCOLS.has(new URL(u.resolved).protocol)),
  );
}
