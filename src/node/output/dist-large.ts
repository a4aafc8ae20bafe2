// Writing a document too long to be one string or one buffer (a collection list of a million
// entries is ~1 GB; see document-pieces.ts): streamed from its pieces, in chunks of about 1 MiB,
// to the file and through gzip/brotli to its siblings. Each pass makes the chunks again from the
// pieces, so no more than a few chunks exist at a time. The chunks and the compression settings
// depend only on the document, so the output stays deterministic.
import { createWriteStream } from 'node:fs';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { brotliOptions, GZIP_LEVEL, type Siblings } from './dist-compression.js';

const CHUNK = 2 ** 20;

/** The pieces as UTF-8 chunks of about CHUNK characters; adds their bytes to `size.in`. */
function* chunks(pieces: readonly string[], size: { in: number }): Generator<Buffer> {
  let group: string[] = [];
  let length = 0;
  const flush = () => {
    const buf = Buffer.from(group.join(''), 'utf8');
    size.in += buf.length;
    group = [];
    length = 0;
    return buf;
  };
  for (const p of pieces) {
    group.push(p);
    length += p.length;
    if (length >= CHUNK) yield flush();
  }
  if (group.length > 0) yield flush();
}

/** Writes `pieces` (joined) to `target`, through `transform` if given: the bytes read and written. */
async function pass(pieces: readonly string[], target: string, transform?: Transform): Promise<{ in: number; out: number }> {
  const size = { in: 0 };
  const source = Readable.from(chunks(pieces, size));
  const file = createWriteStream(target);
  if (transform) await pipeline(source, transform, file);
  else await pipeline(source, file);
  return { in: size.in, out: file.bytesWritten };
}

/** The document and the siblings `siblings` asks for (.gz, then .br): the bytes of each file written. */
export async function writeLargeDocument(
  target: string,
  pieces: readonly string[],
  siblings: Siblings,
  quality: number | undefined,
): Promise<number[]> {
  const { in: size } = await pass(pieces, target);
  const written = [size];
  if (siblings.gzip) written.push((await pass(pieces, `${target}.gz`, zlib.createGzip({ level: GZIP_LEVEL }))).out);
  if (siblings.br) written.push((await pass(pieces, `${target}.br`, zlib.createBrotliCompress(brotliOptions(size, quality)))).out);
  return written;
}
