// What `cqa build` would refuse about thumbnails, found by `cqa check` too: an elmapi project's
// image over 600 px high gets a thumbnail, and one that cannot be made (too large, too wide, or not
// decodable) fails the build. Only a decode tells a damaged image, so check makes each thumbnail
// (as the build does, and throws it away); `cqa serve` answers its URL 422 instead.
import { relative, sep } from 'node:path';
import type { ContentIssue, ContentModel } from '../../core/model/model.js';
import { mediaRoot } from '../../core/http/media-root.js';
import { hasThumb } from '../../core/snapshot/thumbs.js';
import { readMediaImage } from './media-source.js';
import { makeThumbnail, ThumbnailRefused } from './thumbnail.js';

/** Why no thumbnail is made, on one line: a limit broken, or libvips' message (over several lines) joined. */
export function whyNoThumbnail(err: unknown): string {
  if (err instanceof ThumbnailRefused) return err.message;
  const text = (err as Error).message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
  return `the image cannot be decoded (${text.replace(/:$/, '')})`;
}

/** One error per media file of an elmapi project whose thumbnail cannot be made, named relative to `root`. */
export async function thumbnailIssues(model: ContentModel, root: string): Promise<ContentIssue[]> {
  const issues: ContentIssue[] = [];
  for (const p of model.projects) {
    if (p.dialect !== 'elmapi') continue;
    for (const m of p.media.filter(hasThumb)) {
      try {
        await makeThumbnail(await readMediaImage({ root: mediaRoot(m), id: m.id }));
      } catch (err) {
        issues.push({
          file: relative(root, m.source).split(sep).join('/'),
          message: `no thumbnail can be made of it (${whyNoThumbnail(err)}), and an elmapi project's image over 600 px high has one: replace it with a readable image within the limits`,
        });
      }
    }
  }
  return issues;
}
