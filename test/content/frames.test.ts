// The frames of the load process's pipe (src/node/content/frames.ts): however the pipe cuts the bytes,
// the reader gives back each payload whole, in order, empty ones included.
import { describe, expect, it } from 'vitest';
import { FrameReader, frameHead } from '../../src/node/content/frames.js';

const frames: [number, Uint8Array][] = [
  [1, new TextEncoder().encode('{"done":1,"total":2}')],
  [4, new Uint8Array(0)],
  [4, Uint8Array.from({ length: 1000 }, (_, i) => i % 251)],
  [2, Uint8Array.of(7)],
];
const wire = Buffer.concat(frames.flatMap(([kind, payload]) => [frameHead(kind, payload.length), payload]));

function read(pieces: Uint8Array[]): [number, number[]][] {
  const got: [number, number[]][] = [];
  const reader = new FrameReader((kind, payload) => got.push([kind, [...payload]]));
  for (const p of pieces) reader.push(p);
  return got;
}

describe('FrameReader', () => {
  const expected = frames.map(([kind, payload]) => [kind, [...payload]]);

  it('gives back every frame from the bytes in one piece', () => {
    expect(read([wire])).toEqual(expected);
  });

  it('gives back every frame wherever the bytes are cut in two, and byte by byte', () => {
    for (let cut = 0; cut <= wire.length; cut++)
      expect(read([wire.subarray(0, cut), wire.subarray(cut)]), `cut at ${cut}`).toEqual(expected);
    expect(read([...wire].map((b) => Uint8Array.of(b)))).toEqual(expected);
  });

  it('sizes a payload from its header (lengths above 4 GiB included)', () => {
    expect([...frameHead(3, 5 * 2 ** 32 + 9)]).toEqual([3, 0, 5, 0, 0, 0, 9]);
  });
});
