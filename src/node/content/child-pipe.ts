// A connected pair of sockets: `theirs` to hand to a child process (as a stdio entry), `ours` to
// read what the child writes to it. `ours` reads into one reused buffer (net's `onread`) instead of
// a new Buffer per read as a stream does: at 100,000 entries the load process sends ~120 MiB, and
// as 64 KiB Buffers waiting to be collected that left ~40 MiB of the C allocator's heap resident in
// the server for good. (A child's own stdio pipes cannot be read that way.)
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const READ_BYTES = 256 * 1024;

export async function childPipe(onData: (bytes: Uint8Array) => void): Promise<{ ours: Socket; theirs: Socket }> {
  // A socket file in a folder of our own (mode 0700): no other user can connect first.
  const dir = mkdtempSync(join(tmpdir(), 'cqa-'));
  const path = process.platform === 'win32' ? `\\\\.\\pipe\\${dir.replace(/[\\/:]/g, '-')}` : join(dir, 'pipe');
  const server = createServer();
  try {
    await new Promise<void>((ok, fail) => server.once('error', fail).listen(path, ok));
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    const callback = (n: number) => {
      onData(buffer.subarray(0, n));
      return true; // go on reading
    };
    const ours = connect({ path, onread: { buffer, callback } });
    const theirs = await new Promise<Socket>((ok, fail) => {
      server.once('connection', ok);
      ours.once('error', fail);
    });
    return { ours, theirs };
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
