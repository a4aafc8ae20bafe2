// Requests that never reach a node:http request listener, answered on the raw socket: CONNECT,
// which Node hands to the server's 'connect' event and, with no listener, drops without a word
// (this answers it as any other method not allowed, 405); and requests Node could not read
// ('clientError'), which it answers with a status and no body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_TARGET, TARGET_TOO_LONG } from '../../core/http/problem.js';
import { STALLED_ANSWER_MS } from '../thresholds.js';

// Not imported: see start.ts (an import of node:http loads undici on Node 22+).
const { STATUS_CODES } = process.getBuiltinModule('node:http');

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | string | null;
}

export function refuseConnect(answer: (req: IncomingMessage) => RawAnswer): (req: IncomingMessage, socket: Duplex) => void {
  return (req, socket) => endWith(socket, answer(req));
}

/** Writes `a` as a whole HTTP/1.1 answer and closes the socket. */
function endWith(socket: Duplex, a: RawAnswer): void {
  socket.on('error', () => undefined);
  const body = a.body === null ? Buffer.alloc(0) : Buffer.from(a.body);
  let head = `HTTP/1.1 ${a.status} ${STATUS_CODES[a.status] ?? ''}\r\n`;
  for (const [k, v] of Object.entries(a.headers)) if (k !== 'content-length' && k !== 'connection') head += `${k}: ${v}\r\n`;
  head += `content-length: ${body.length}\r\nconnection: close\r\n\r\n`;
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
}

/** What Node could not read, by its error code (as Node's own answer, with a code as the API's), and what to change. */
const UNREAD: Record<string, readonly [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'request_header_fields_too_large',
    "the request line and headers are longer than Node's limit (16 KiB by default): send fewer or shorter headers",
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'content_too_large', 'a chunk extension of the body is too long'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'the request did not arrive whole in time'],
};
const NOT_HTTP: readonly [number, string, string] = [
  400,
  'bad_request',
  'the request is not HTTP/1.1 that Node can read: send a well-formed HTTP/1.1 request (as curl or fetch do)',
];
/**
 * What Node could not parse, said with what to change (found by fuzzing: `FOO /api/demo`, a
 * lower-case `get`, a space in a header name or in the path, TLS sent to this plain-HTTP port
 * were all the one sentence above, with nothing to change; and createHandler answers FOO 405).
 */
function unparsed(err: NodeJS.ErrnoException, raw: Buffer | undefined): readonly [number, string, string] {
  switch (err.code) {
    case 'HPE_INVALID_METHOD': {
      // 0x16: a TLS handshake, an https:// URL sent to this http:// address.
      if (raw?.[0] === 0x16) return [400, 'bad_request', 'this server speaks plain HTTP, not TLS: ask http://, not https://'];
      const method = /^[!-~]{1,20}(?= )/.exec(raw?.toString('latin1') ?? '')?.[0];
      return [
        405,
        'method_not_allowed',
        `${method === undefined ? 'the method' : `'${method}'`} is not a method this API answers; it is read-only: use GET, HEAD or OPTIONS (methods are upper case)`,
      ];
    }
    case 'HPE_INVALID_HEADER_TOKEN':
      return [
        400,
        'bad_request',
        'a header holds a character HTTP does not allow (a space or a colon in its name, a control character in its value): fix or remove that header',
      ];
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_CONSTANT':
      return [
        400,
        'bad_request',
        'the request line is not METHOD /path HTTP/1.1: percent-encode spaces and control characters in the URL (a space as %20)',
      ];
    case 'HPE_INVALID_VERSION':
      return [400, 'bad_request', 'unknown HTTP version: send HTTP/1.1'];
    default:
      return NOT_HTTP;
  }
}
/** A request target past MAX_TARGET is a 414 as the API answers it (SPEC §4.4), though Node stopped reading at its header limit. */
const LONG_TARGET: readonly [number, string, string] = [414, 'uri_too_long', TARGET_TOO_LONG];

/**
 * The server's 'clientError' listener: Node's own status, with a problem document saying why
 * (found from outside: a 30 KB query got a 431 with no body). As Node does, nothing is written
 * to a socket that is gone or already sending an answer.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const sending = (socket as Duplex & { _httpMessage?: { _headerSent?: boolean } })._httpMessage?._headerSent === true;
  if (err.code === 'ECONNRESET' || !socket.writable || sending) {
    socket.destroy();
    return;
  }
  const raw = (err as { rawPacket?: Buffer }).rawPacket;
  const line = raw === undefined ? -1 : raw.indexOf('\r\n');
  const longTarget = err.code === 'HPE_HEADER_OVERFLOW' && raw !== undefined && (line < 0 ? raw.length : line) > MAX_TARGET;
  const [status, code, detail] = longTarget ? LONG_TARGET : (UNREAD[err.code ?? ''] ?? unparsed(err, raw));
  const body = JSON.stringify({ type: 'about:blank', title: STATUS_CODES[status], status, code, detail });
  // Readable by a page of any origin, as every error answer is: it holds nothing but what went wrong.
  const headers: Record<string, string> = {
    'content-type': 'application/problem+json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'access-control-allow-origin': '*',
  };
  if (status === 405) headers.allow = 'GET, HEAD, OPTIONS';
  endWith(socket, { status, headers, body });
}

/**
 * A request that brings a body (the API reads none) has its connection closed once answered:
 * kept alive, Node reads that body to its end, however slowly it comes and however large, and
 * requestTimeout no longer counts once the answer is out (found from outside: one byte every
 * 3 s held a connection for minutes; a fast one streamed 15 GB in 15 s).
 */
export function closeAfterBody(req: IncomingMessage, res: ServerResponse): void {
  const length = req.headers['content-length'];
  if ((length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined) res.setHeader('connection', 'close');
}

/**
 * Cuts `res` once its client has taken none of it for STALLED_ANSWER_MS to twice that (Node's
 * socket timeout counts a write that makes progress as activity): found from outside, a client that never read a
 * 30 MB media file held its connection for minutes, 300 of them 621 open files.
 */
export function cutWhenStalled(res: ServerResponse, ms = STALLED_ANSWER_MS): void {
  res.setTimeout(ms, () => res.destroy());
}

/**
 * Requests node:http has read and that are not answered yet (pipelined ones queued behind an
 * answer, or waiting for a file to be opened), per connection and over all. Such a request writes
 * nothing, so node:http's own brake (it stops reading a connection whose queued answers hold
 * 64 KB) never engages: a client that wrote requests and never read made the server read and keep
 * all of them (found from outside: 40 connections of 20,000 requests took `cqa serve` from 120 MB
 * to 1.9 GB, `cqa preview` to 2.3 GB). Past either bound, the caller answers the request at once
 * (a small 503, which node:http counts: the brake engages again).
 */
export class Unanswered {
  private readonly bySocket = new Map<Duplex, number>();
  private all = 0;

  constructor(
    private readonly perConnection: number,
    private readonly total: number,
  ) {}

  /** Counts a request of `socket`; false, counting nothing, past a bound. */
  enter(socket: Duplex): boolean {
    const mine = this.bySocket.get(socket);
    if ((mine ?? 0) >= this.perConnection || this.all >= this.total) return false;
    if (mine === undefined)
      socket.once('close', () => {
        this.all -= this.bySocket.get(socket) ?? 0;
        this.bySocket.delete(socket);
      });
    this.bySocket.set(socket, (mine ?? 0) + 1);
    this.all++;
    return true;
  }

  /** The request entered for `socket` is answered (or gone with its connection: counted off already). */
  leave(socket: Duplex): void {
    const left = this.bySocket.get(socket);
    if (left === undefined) return;
    this.bySocket.set(socket, left - 1);
    this.all--;
  }

  /** Why a request was not counted, for its 503. */
  why(socket: Duplex): string {
    return (this.bySocket.get(socket) ?? 0) >= this.perConnection
      ? `${this.perConnection} requests sent on this connection wait for the answers ahead of them (at most ${this.perConnection}): read the answers before sending more, then send this one again`
      : `${this.all} requests wait for their answers on this server (at most ${this.total}): try again in a second`;
  }
}

/** `listener` with its requests counted from arrival to answer (Unanswered); `refuse` answers one past the bounds. */
export function boundUnanswered(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  refuse: (req: IncomingMessage, res: ServerResponse, why: string) => void,
  unanswered: Unanswered,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const socket = req.socket;
    if (!unanswered.enter(socket)) {
      refuse(req, res, unanswered.why(socket));
      return;
    }
    let done = false;
    const answered = () => {
      if (done) return;
      done = true;
      unanswered.leave(socket);
    };
    res.once('finish', answered);
    res.once('close', answered);
    listener(req, res);
  };
}
