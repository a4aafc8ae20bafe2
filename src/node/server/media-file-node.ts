// createHandler's media files on Node: opened and checked by open-file.ts, validated by a tag
// from the file's identity (send-file.ts's fileTag: the same ETag `cqa serve` sends), and read
// only for the bytes an answer needs — `Range: bytes=0-0` on a 200 MB file reads one byte, and
// If-None-Match reads none. Reads go through the file handle on libuv's pool, in 64 KiB steps.
import type { MediaFile } from '../../core/http/fetch.js';
import { openInside, type ServedRoot } from './open-file.js';
import { fileTag } from './send-file.js';

const CHUNK = 64 * 1024;

/** The media file `rel` under `root` as a MediaFile, or null when it is not there (open-file.ts rules). */
export async function openMediaFile(root: ServedRoot, rel: string): Promise<MediaFile | null> {
  const file = await openInside(root, rel);
  if (!file) return null;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void file.handle.close().catch(() => undefined);
  };
  return {
    size: file.stats.size,
    tag: fileTag(file),
    modified: file.stats.mtime,
    close,
    body(start, end) {
      let at = start;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          const want = Math.min(CHUNK, end + 1 - at);
          if (want <= 0) {
            close();
            controller.close();
            return;
          }
          try {
            const { bytesRead, buffer } = await file.handle.read(Buffer.alloc(want), 0, want, at);
            // A file cut short after the stat: end the body where the file ends.
            if (bytesRead === 0) {
              close();
              controller.close();
              return;
            }
            at += bytesRead;
            controller.enqueue(new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead));
          } catch (err) {
            close();
            controller.error(err);
          }
        },
        cancel: close,
      });
    },
  };
}
