// Markdown that mixes raw HTML (tags marked treats specially: <pre>, <code>, <kbd>, <script>; tags
// with event handlers, left open or closed) with the Markdown around it, for the property that raw
// HTML in richtext is text: the rendered HTML holds only elements and attributes marked makes.
import fc from 'fast-check';

const HTML = [
  '<kbd>',
  '<code>',
  '<pre>',
  '<script>',
  '<KBD >',
  '</kbd>',
  '</code>',
  '</pre>',
  '</script>',
  '<img src=x onerror=alert(1)>',
  '<img src=x onerror=alert(1)//',
  '<svg onload=alert(1)',
  '<svg><script>alert(1)</script></svg>',
  '<details open ontoggle=alert(1)>',
  '<iframe srcdoc="<script>alert(1)</script>">',
  '<style>*{}</style>',
  '<textarea>',
  '<a href="javascript:alert(1)">',
  '<b onmouseover=alert(1)>',
  '<!-- c -->',
  '<?php x ?>',
  '<![CDATA[x]]>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
];
const MARKDOWN = [
  'text',
  ' ',
  '\n',
  '\n\n',
  '    ',
  '*',
  '**',
  '_',
  '`',
  '```\n',
  '> ',
  '- ',
  '1. ',
  '# ',
  '| a | b |\n|---|---|\n',
  '[t](http://a.test)',
  '![i](http://a.test/i.png)',
  '<http://a.test>',
  '&copy;',
  '&lt;',
  '&#60;',
  '<',
  '>',
  '"',
  "'",
  '\\',
];

export const rawHtmlMarkdown = fc
  .array(fc.oneof({ arbitrary: fc.constantFrom(...HTML), weight: 2 }, { arbitrary: fc.constantFrom(...MARKDOWN), weight: 3 }), {
    minLength: 1,
    maxLength: 12,
  })
  .map((parts) => parts.join(''));

/** The elements marked makes from Markdown (GFM), and the attributes it gives them. */
export const MARKDOWN_ELEMENTS = new Set(
  'p br em strong del code pre a img ul ol li blockquote h1 h2 h3 h4 h5 h6 hr table thead tbody tr th td input'.split(' '),
);
export const MARKDOWN_ATTRIBUTES = new Set(['href', 'src', 'alt', 'title', 'class', 'align', 'start', 'type', 'checked', 'disabled']);
