// CONNECT requests never reach a node:http request listener: Node hands them to the server's
// 'connect' event and, with no listener, drops the connection without a word. This writes the
// answer of any other method that is not allowed (405) onto the raw socket, and closes it.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

// Not imported: see start.ts (an import of node:http loads undici on Node 22+).
const { STATUS_CODES } = process.getBuiltinModule('node:http');

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | string | null;
}

export function refuseConnect(answer: (req: IncomingMessage) => RawAnswer): (req: IncomingMessage, socket: Duplex) => void {
  return (req, socket) => {
    socket.on('error', () => undefined);
    const a = answer(req);
    const body = a.body === null ? Buffer.alloc(0) : Buffer.from(a.body);
    let head = `HTTP/1.1 ${a.status} ${STATUS_CODES[a.status] ?? ''}\r\n`;
    for (const [k, v] of Object.entries(a.headers)) if (k !== 'content-length' && k !== 'connection') head += `${k}: ${v}\r\n`;
    head += `content-length: ${body.length}\r\nconnection: close\r\n\r\n`;
    socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  };
}
