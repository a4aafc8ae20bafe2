// Option parsing shared by the commands: node:util parseArgs, with mistakes turned into UsageError
// (exit code 2) instead of stack traces.
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

/** A non-negative integer option, e.g. --port or --max-limit. */
export function intOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer, got '${value}'`);
  return Number(value);
}
