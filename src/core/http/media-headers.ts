// Headers for media files and thumbnails, wherever they are served (cqa serve, createHandler and
// the edge, cqa preview, dist/_headers). Media come from contributors and from third-party APIs
// (`cqa pull --media`) but share the API's origin — and the explorer's, where a token is typed.
// So no media file may run script there: the CSP sandbox gives the document an opaque origin and
// no script; nosniff stops a browser from guessing HTML; and every type a browser could open as a
// document is sent as a download. No Node imports (the edge handler uses it).

/** A sandboxed document with no permissions and nothing it may load. */
export const MEDIA_CSP = "default-src 'none'; sandbox";

/**
 * Types a browser shows inline without ever running script: raster images, audio, video, and
 * plain text (with nosniff). Everything else — HTML, SVG, XML, XHTML, JavaScript, PDF, unknown
 * types — is sent with `Content-Disposition: attachment`.
 */
const INLINE_SAFE =
  /^(?:image\/(?:png|jpeg|gif|webp|avif|apng|bmp|x-ms-bmp|tiff|x-icon|vnd\.microsoft\.icon|heic|heif|jxl)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|text\/plain)$/;

/** Whether a file of `mimeType` may be shown inline (see INLINE_SAFE). */
export function inlineSafe(mimeType: string): boolean {
  const base = (mimeType.split(';')[0] ?? '').trim().toLowerCase();
  // `+xml` audio/video types (none common) are documents to a browser: never inline.
  return INLINE_SAFE.test(base) && !base.endsWith('+xml');
}

/** The headers every media file and thumbnail answer carries (with its Content-Type). */
export function mediaHeaders(mimeType: string): Record<string, string> {
  const h: Record<string, string> = {
    'content-security-policy': MEDIA_CSP,
    'x-content-type-options': 'nosniff',
  };
  if (!inlineSafe(mimeType)) h['content-disposition'] = 'attachment';
  return h;
}
