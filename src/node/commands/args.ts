// Option parsing shared by the commands: node:util parseArgs, with mistakes turned into UsageError
// (exit code 2) instead of stack traces. Every value is checked here, before it reaches a server
// or a timer: Node would take some of them silently (a setTimeout over 2^31-1 ms fires after 1 ms).
import { isIP } from 'node:net';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { TIMESTAMP_CHOICES, type TimestampSource } from '../content/git-times.js';
import { closestName } from '../../core/suggest.js';
import { corsProblem } from '../../core/http/cors.js';

export class UsageError extends Error {}

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parseCommandArgs(args: string[], options: Options, maxPositionals = 1): ParsedArgs {
  let parsed: ParsedArgs & { tokens?: { kind: string; name?: string }[] };
  try {
    parsed = parseArgs({
      args: negativeValuesJoined(args, options),
      options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    }) as typeof parsed;
  } catch (err) {
    throw new UsageError(parseArgsMistake(err as NodeJS.ErrnoException, options));
  }
  // An option given twice keeps only its last value in parseArgs: say so instead of choosing.
  const seen = new Set<string>();
  for (const t of parsed.tokens ?? []) {
    if (t.kind !== 'option' || t.name === undefined || options[t.name]?.multiple) continue;
    if (seen.has(t.name)) throw new UsageError(`--${t.name} is given twice: give it once`);
    seen.add(t.name);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument '${parsed.positionals[maxPositionals]}'`);
  }
  return parsed;
}

/**
 * Node's parseArgs text, said as what to change: "unknown option '--prot' (did you mean --port?)"
 * instead of a sentence about positionals that ends in an unclosed quote.
 */
function parseArgsMistake(err: NodeJS.ErrnoException, options: Options): string {
  const names = Object.keys(options);
  const list = names.length > 0 ? `options: ${names.map((n) => `--${n}`).join(', ')}, --help` : 'this command takes no options but --help';
  const quoted = /'(-[^' ]*)/.exec(err.message)?.[1] ?? '';
  const name = quoted.replace(/^-{1,2}/, '').replace(/=.*$/s, '');
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    // -p: the option of that initial; --prot: the closest name.
    const near = name.length === 1 ? names.find((n) => n.startsWith(name)) : closestName(name, names);
    return `unknown option '${quoted.replace(/=.*$/s, '')}'${near ? ` (did you mean --${near}?)` : ''}; ${list}`;
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && Object.hasOwn(options, name)) {
    if (options[name]?.type === 'boolean') return `--${name} is a flag and takes no value: write --${name} alone`;
    return `--${name} needs a value: write --${name} <value> or --${name}=<value>`;
  }
  return (err.message.split('\n')[0] ?? '').replace(/'-- "[^"]*$/, '');
}

/**
 * `--delay -5` as `--delay=-5`: parseArgs takes `-5` for an option and calls the value ambiguous.
 * A negative number is a value, which the option's own check then refuses, saying why.
 */
function negativeValuesJoined(args: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    if (arg === '--') return [...out, ...args.slice(i)];
    const name = arg.slice(2);
    if (
      arg.startsWith('--') &&
      Object.hasOwn(options, name) &&
      options[name]?.type === 'string' &&
      next !== undefined &&
      /^-\d/.test(next)
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
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

/** The help line of `--allowed-host` (cqa serve and cqa preview). */
export const ALLOWED_HOST_HELP =
  'on a loopback address, host names answered besides localhost and IP addresses (comma-separated; .example.test: every name under it)';

/** `--allowed-host a.test,.dev.test`: host names (a leading `.`: every name under it). */
export function allowedHostsOption(value: string | undefined): string[] {
  if (value === undefined) return [];
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  for (const n of names)
    if (!HOST_NAME.test(n.replace(/^\./, '')))
      throw new UsageError(`--allowed-host takes host names separated by commas (.example.test: every name under it), got '${n}'`);
  return names;
}

/** A value sent as an HTTP header field: visible characters, spaces and tabs only (RFC 9110 §5.5). */
export function headerOption(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[\t\x20-\x7e]*$/.test(value))
    throw new UsageError(`--${name} must be printable ASCII (it is sent as a header), got ${JSON.stringify(value)}`);
  return value;
}

/** --cors: `*`, or origins as a browser sends them (corsProblem says why another value never matches). */
export function corsOption(value: string | undefined): string | undefined {
  // Before the ASCII check: an IDN host is said in punycode, which is what to write.
  const problem = corsProblem(value);
  if (problem) throw new UsageError(`--cors ${problem}`);
  return headerOption('cors', value);
}

/** --base-url: an http(s) URL or a root-relative path, without spaces. */
export function baseUrlOption(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return value;
  if (!/^(https?:\/\/[^/\s]+|\/)[^\s]*$/.test(value))
    throw new UsageError(`--base-url must be an http(s) URL or a path starting with '/', got '${value}'`);
  return value;
}

/** --delay: `200` or a range `100-400` (drawn per request), in ms from 0 to `max`. */
export function delayOption(value: string | undefined, max: number): number | { min: number; max: number } {
  if (value === undefined) return 0;
  const m = /^(\d+)(?:-(\d+))?$/.exec(value);
  const min = m ? Number(m[1]) : NaN;
  const top = m?.[2] === undefined ? min : Number(m[2]);
  if (m && min <= top && top <= max) return top === min ? min : { min, max: top };
  throw new UsageError(`--delay '${value}': ${delayProblem(value, m ? [min, top] : undefined, max)}`);
}

/** What is wrong with a --delay value, and what to write instead. */
function delayProblem(value: string, range: [number, number] | undefined, max: number): string {
  const forms = `write milliseconds (200) or a range MIN-MAX (100-400), from 0 to ${max}`;
  if (range) {
    const [min, top] = range;
    return min > top
      ? `the range's minimum (${min}) is above its maximum (${top}); write ${top}-${min}`
      : `${top} ms is more than ${max} ms (ten minutes), the longest delay; write a smaller number`;
  }
  if (/^-\d+$/.test(value)) return `a delay cannot be negative; write ${value.slice(1)}, or 0-${value.slice(1)} for a range from 0`;
  if (/^\d+-$/.test(value))
    return `the range has no maximum; write both ends (${value}${Math.min(Number(value.slice(0, -1)) + 100, max)}) or ${value.slice(0, -1)} alone`;
  // 1.5 or 1.5-2.5: the same, rounded to whole milliseconds.
  const rounded = value.replace(/\d*\.\d+/g, (n) => String(Math.round(Number(n))));
  if (rounded !== value && /^\d+(-\d+)?$/.test(rounded)) return `milliseconds are whole numbers; write ${rounded}`;
  return `not a number of milliseconds; ${forms}`;
}

/** A share from 0 to 1, e.g. --fail-rate 0.1 (decimal notation only). */
export function rateOption(name: string, value: string | undefined): number {
  if (value === undefined) return 0;
  const n = /^(0|1)?(\.\d+)?$/.test(value) && value !== '' && value !== '.' ? Number(value) : NaN;
  if (!(n >= 0 && n <= 1)) throw new UsageError(`--${name} must be a number from 0 to 1 (0.1: one request in ten), got '${value}'`);
  return n;
}

/** One of a few allowed values, e.g. --fail-status 429|500|503. */
export function choiceOption<T extends string | number>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  const found = allowed.find((a) => String(a) === value);
  if (found === undefined) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got '${value}'`);
  return found;
}

/** `--timestamps git|mtime`; undefined (not given): git inside a git work tree, else mtime. */
export function timestampsOption(value: string | undefined): TimestampSource | undefined {
  return value === undefined ? undefined : choiceOption('timestamps', value, TIMESTAMP_CHOICES, 'git');
}

/** The option's entry in a command's spec (build, serve, check share it). */
export const TIMESTAMPS_SPEC = {
  type: 'string',
  value: 'git|mtime',
  help: "created_at/updated_at of entries that set none: the file's first/last git commit, or its modification time",
  fallback: 'git inside a git work tree, else mtime',
} as const;
