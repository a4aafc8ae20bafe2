// A content tree given as data (startServer's and buildSnapshot's `content`, the MSW handlers):
// written to a temp folder by node/content/tree.ts. No Node imports.

/**
 * Path (relative to the content root, `/`-separated) → the file: text, bytes (a media file), or,
 * for a `.yaml`/`.yml` file, an object written as YAML.
 */
export type ContentTree = Readonly<Record<string, string | Uint8Array | Readonly<Record<string, unknown>>>>;
