// What each command accepts, as plain data: the same object gives node:util parseArgs its options
// and `cqa <command> --help` its text, so an option cannot be accepted without being described.
import type { Options } from './args.js';

export interface OptionHelp {
  readonly type: 'string' | 'boolean';
  /** The placeholder of a value (`N`, `URL`); none for a flag. */
  readonly value?: string;
  /** What the option does, in one line. */
  readonly help: string;
  /** The value used without the option, as shown to a person. */
  readonly fallback?: string;
}

export interface CommandSpec {
  /** `cqa serve [content] [options]` */
  readonly usage: string;
  readonly summary: string;
  /** Positional arguments, described. */
  readonly args?: readonly (readonly [string, string])[];
  readonly options: Readonly<Record<string, OptionHelp>>;
  readonly examples: readonly string[];
}

/** The options as node:util parseArgs takes them. */
export function parseOptions(spec: CommandSpec): Options {
  const options: Options = {};
  for (const [name, o] of Object.entries(spec.options)) options[name] = { type: o.type };
  return options;
}

export function formatHelp(spec: CommandSpec): string {
  const rows: [string, string][] = [];
  for (const [name, o] of Object.entries(spec.options)) {
    rows.push([`--${name}${o.value ? ` ${o.value}` : ''}`, `${o.help}${o.fallback !== undefined ? ` (default: ${o.fallback})` : ''}`]);
  }
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([left]) => left.length), ...(spec.args ?? []).map(([a]) => a.length)) + 2;
  const table = (list: readonly (readonly [string, string])[]) => list.map(([l, r]) => `  ${l.padEnd(width)}${r}`).join('\n');
  const parts = [`Usage: ${spec.usage}`, spec.summary];
  if (spec.args?.length) parts.push(`Arguments:\n${table(spec.args)}`);
  parts.push(`Options:\n${table(rows)}`);
  parts.push(`Example${spec.examples.length > 1 ? 's' : ''}:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`);
  return `${parts.join('\n\n')}\n`;
}
