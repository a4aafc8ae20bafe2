// Option parsing shared by the commands: node:util parseArgs, with mistakes turned into UsageError
// (exit code 2) instead of stack traces. Every value is checked here, before it reaches a server
// or a timer: Node would take some of them silently (a setTimeout over 2^31-1 ms fires after 1 ms).
import { isIP } from 'node:net';
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parseCommandArgs(args: string[], options: Options, maxPositionals = 1): ParsedArgs {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true }) as ParsedArgs;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument '${parsed.positionals[maxPositionals]}'`);
  }
  return parsed;
}

/** An integer option from 0 to `max`, e.g. --port or --max-limit (digits only: no sign, no exponent). */
export function intOption(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n <= max)) throw new UsageError(`--${name} must be an integer from 0 to ${max}, got '${value}'`);
  return n;
}

/** A port to listen on; 0 picks a free one. */
export function portOption(value: string | undefined, fallback: number): number {
  return intOption('port', value, fallback, 65535);
}

// A DNS name: dot-separated labels of letters, digits and inner hyphens (RFC 1123).
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * The address to listen on: an IPv4 or IPv6 address (brackets allowed: [::1]) or a host name.
 * Digits-and-dots that are no IPv4 address (999.1.1.1) are refused here rather than looked up.
 */
export function hostOption(value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  const host = /^\[.*\]$/.test(value) ? value.slice(1, -1) : value;
  if (isIP(host) !== 0) return host;
  if (HOST_NAME.test(host) && !/^[\d.]+$/.test(host)) return host;
  throw new UsageError(`--host must be an IP address (127.0.0.1, 0.0.0.0, ::1) or a host name, got '${value}'`);
}

/** A value sent as an HTTP header field: visible characters, spaces and tabs only (RFC 9110 §5.5). */
export function headerOption(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[\t\x20-\x7e]*$/.test(value)) throw new UsageError(`--${name} must be printable ASCII (it is sent as a header), got ${JSON.stringify(value)}`);
  return value;
}

/** --base-url: an http(s) URL or a root-relative path, without spaces. */
export function baseUrlOption(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return value;
  if (!/^(https?:\/\/[^/\s]+|\/)[^\s]*$/.test(value)) throw new UsageError(`--base-url must be an http(s) URL or a path starting with '/', got '${value}'`);
  return value;
}
