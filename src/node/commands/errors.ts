// How the CLI reports what went wrong: a usage error names the option to change (exit 2); a server
// that cannot listen says why in words (exit 2: the host or port must change); anything else is
// one line `cqa <command>: <message>` (exit 1). Stack traces only with CQA_DEBUG=1.
import { printable, printableLines } from '../printable.js';
import { UsageError } from './args.js';

/** A usage error about where to listen: printed without the whole usage text, which would bury it. */
export class ListenError extends UsageError {}

export const debugging = (): boolean => Boolean(process.env.CQA_DEBUG) && process.env.CQA_DEBUG !== '0';

/** The first line of an error's message (a stack too with CQA_DEBUG=1). */
export function errorText(err: unknown): string {
  // Messages name files and keys from the content: their control characters are shown, not run.
  if (debugging() && err instanceof Error && err.stack) return printableLines(err.stack);
  const message = err instanceof Error ? err.message : String(err);
  return printable(message.split('\n')[0] || (err instanceof Error ? err.name : 'unknown error'));
}

/**
 * The errors of listen() and of looking up the host, as a ListenError naming the option to change;
 * other errors are returned as they are.
 */
export function explainListenError(err: unknown, host: string, port: number): unknown {
  const e = err as NodeJS.ErrnoException | undefined;
  const where = `cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (e?.code) {
    case 'EADDRINUSE':
      return new ListenError(`${where}: the port is in use; choose another --port (--port 0 picks a free one)`);
    case 'EACCES':
    case 'EPERM':
      return new ListenError(`${where}: permission denied (ports below 1024 need privileges); choose a --port from 1024 to 65535`);
    case 'EADDRNOTAVAIL':
      return new ListenError(
        `${where}: ${host} is not an address of this machine; use --host 127.0.0.1 (this machine only) or 0.0.0.0 (all interfaces)`,
      );
    case 'EAFNOSUPPORT':
      return new ListenError(`${where}: this machine has no IPv6; use --host 127.0.0.1`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
    case 'EAI_NODATA':
      return new ListenError(`${where}: the host name '${host}' could not be resolved; give an IP address such as --host 127.0.0.1`);
    default:
      if (e?.syscall === 'listen' || e?.syscall === 'bind' || e?.syscall === 'getaddrinfo')
        return new ListenError(`${where}: ${errorText(e)}`);
      return err;
  }
}
