// The project `cqa init` writes: small, valid and commented, so that reading it teaches the
// format (docs/content.md opens with it). One collection with a schema, two entries, a German
// variant of one, a media file with a caption, and a token stored as its sha256 only.

/** Files to write, by path under the content folder. */
export function starterFiles(project: string, tokenSha256: string): Record<string, string> {
  return {
    [`${project}/project.yaml`]: `# A project: one folder with a project.yaml. Its id is the folder name unless set here.
name: My site
description: Content served by cqa (docs/content.md says what every file may hold).
default_locale: en
# Every locale an entry may have; hello.de.md is the German variant of hello.md.
locales: [en, de]
# public: true would let anyone read published entries without a token.
public: false
tokens:
  # Only the token's sha256 is stored: 'cqa init' printed the token once.
  # Make more with: cqa token create --project ${project}
  - name: starter
    sha256: ${tokenSha256}
    scopes: [read, drafts]
`,
    [`${project}/posts/_collection.yaml`]: `# A collection: every folder of the project except media/. Entries are its .md and .yaml files.
name: Posts
# Newest first when a query names no sort.
sort: published_at:desc
# Also serve the Markdown body as sanitized HTML, in the field body_html.
render: html
# Each entry names its locale variants: hello has translations { de: hello.de }.
translations: true
# The schema: a key not listed here is an error, and each value is checked against its type.
fields:
  title: { type: text, required: true }
  summary: longtext
  tags: { type: enumeration, values: [news, guide], multiple: true }
  cover: media                # a path under media/
  # The Markdown below an entry's front matter.
  body: markdown
`,
    [`${project}/posts/hello.md`]: `---
# The front matter: the fields of the schema, and reserved keys (id, locale, draft, timestamps).
title: Hello, world
summary: The first entry; its id is the file name, hello.
tags: [news]
cover: welcome.svg
published_at: 2025-01-15T09:00:00Z
---
The **body** is Markdown. Edit this file while \`cqa serve --watch\` runs and ask again.
`,
    [`${project}/posts/hello.de.md`]: `---
# The German variant of hello.md: its locale comes from the file name (de is in locales:).
title: Hallo, Welt
summary: Der erste Eintrag, auf Deutsch.
tags: [news]
cover: welcome.svg
published_at: 2025-01-15T09:00:00Z
---
Der **Text** ist Markdown.
`,
    [`${project}/posts/getting-started.md`]: `---
title: Getting started
summary: What to try next.
tags: [guide]
published_at: 2025-01-16T09:00:00Z
---
- \`cqa check\` lists every mistake with its file and line.
- \`cqa serve --watch\` serves the API and reloads on every change.
- \`cqa build\` writes the static tree (dist/) for any static host.
`,
    [`${project}/media/welcome.svg`]: `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60"><rect width="120" height="60" rx="8" fill="#2b6cb0"/><text x="60" y="37" font-family="sans-serif" font-size="18" fill="#fff" text-anchor="middle">hello</text></svg>
`,
    [`${project}/media/_media.yaml`]: `# Caption and alt text of media files, by their path under media/.
welcome.svg: { caption: The welcome banner, alt: A blue banner saying hello }
`,
  };
}
