/**
 * What a `tijori` command is: its words, a declarative description of its positional arguments
 * and flags (from which parsing, checking and its `--help` are derived), and what it does. A new
 * command is one file exporting a `CliCommand` plus one line in registry.ts.
 */
import type { AdminClient } from './admin-client.js';

export interface FlagSpec {
  type: 'string' | 'boolean';
  /** May be given several times; with `list`, each value may also be comma-separated. */
  multiple?: boolean;
  /** Comma-separated values: read with `list()` (args.ts). */
  list?: boolean;
  required?: boolean;
  /** Placeholder of the value in usage lines: `--org ORG`. */
  value?: string;
  help: string;
}

export interface ArgSpec {
  name: string;
  help: string;
}

export type FlagValues = Record<string, string | boolean | string[] | undefined>;

export interface CommandResult {
  /** One JSON value on standard output: an object, or a list where the contract says so (`user list`). */
  json: Record<string, unknown> | Array<Record<string, unknown>>;
  text: string;
}

export interface CliCommand {
  /** Its words, as typed: `org create`, `sandbox pay`. */
  name: string;
  summary: string;
  /** Positional arguments after the words, all required; any other word is a usage error. */
  args?: ArgSpec[];
  flags?: Record<string, FlagSpec>;
  /** Runs without the admin API (`sandbox serve`): no token is looked up. */
  local?: boolean;
  /** undefined: the command printed its own output (`sandbox serve`). */
  run(input: { admin: AdminClient; args: string[]; flags: FlagValues }): Promise<CommandResult | undefined>;
}

/** `org create --name NAME [--rate-limit PER_MINUTE] [--allow-ip IP]...`: the usage line without `tijori`. */
export function usageLine(cmd: CliCommand): string {
  const parts = [cmd.name, ...(cmd.args ?? []).map((a) => a.name)];
  for (const [name, f] of Object.entries(cmd.flags ?? {})) {
    const flag = f.type === 'boolean' ? `--${name}` : `--${name} ${f.value ?? 'VALUE'}`;
    const shown = f.required ? flag : `[${flag}]`;
    parts.push(f.multiple && !f.list ? `${shown}...` : shown);
  }
  return parts.join(' ');
}

/** `tijori COMMAND --help`: its usage, what it does, and each argument and flag. */
export function commandHelp(cmd: CliCommand): string {
  const rows: Array<[string, string]> = [
    ...(cmd.args ?? []).map((a): [string, string] => [a.name, a.help]),
    ...Object.entries(cmd.flags ?? {}).map(([name, f]): [string, string] => [
      f.type === 'boolean' ? `--${name}` : `--${name} ${f.value ?? 'VALUE'}`,
      `${f.help}${f.required ? ' (required)' : ''}${f.multiple ? ' (may be repeated)' : ''}`,
    ]),
    ['--json', 'print exactly one JSON object on standard output'],
    ['-h, --help', 'print this help'],
  ];
  const width = Math.max(...rows.map(([l]) => l.length)) + 2;
  return [`usage: tijori ${usageLine(cmd)} [--json]`, '', cmd.summary, '', ...rows.map(([l, h]) => `  ${l.padEnd(width)}${h}`)].join('\n');
}
