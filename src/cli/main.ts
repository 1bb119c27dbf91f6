/**
 * The `tijori` command (contract §2): finds the command named by the leading words, parses its
 * flags from its declaration (node's util.parseArgs, strict), and runs it. Every command takes
 * --json and then prints exactly one JSON object on standard output. Errors go to standard error
 * as one line (and at most one hint line): exit 2 for a usage error, 1 for a failure of the
 * service or of the connection to it.
 */
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { adminBaseUrl, createAdminClient } from './admin-client.js';
import { type CliCommand, type CommandResult, commandHelp, type FlagValues, usageLine } from './command.js';
import { CliError, UsageError } from './errors.js';
import { cliCommands } from './registry.js';

/** Flags that may stand before the command's words. */
const LEADING_FLAGS = new Set(['--json', '--help', '-h', '--version']);

function version(): string {
  // ../../package.json from both src/cli/ and dist/cli/.
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

function groupOf(cmd: CliCommand): string {
  return cmd.name.split(' ')[0] as string;
}

function groups(): string[] {
  return [...new Set(cliCommands.map(groupOf))];
}

function globalUsage(): string {
  return [
    'usage: tijori COMMAND [ARGUMENTS] [FLAGS] [--json]',
    '',
    ...cliCommands.map((c) => `  ${usageLine(c)}`),
    '',
    "  tijori help COMMAND, tijori COMMAND --help   that command's flags",
    '  tijori --version                             the version',
    '',
    `Every command takes --json: it then prints exactly one JSON object on standard output.`,
    `Environment: ADMIN_URL (default http://127.0.0.1:INTERNAL_PORT, INTERNAL_PORT default 8081; now ${adminBaseUrl()}),`,
    '             ADMIN_TOKEN (default: the file DATA_DIR/admin-token, DATA_DIR default ./data)',
  ].join('\n');
}

function groupUsage(group: string): string {
  return [`usage: tijori ${group} SUBCOMMAND ...`, '', ...cliCommands.filter((c) => groupOf(c) === group).map((c) => `  ${usageLine(c)}`), '', `tijori ${group} SUBCOMMAND --help: its flags`].join('\n');
}

/** The command named by the longest prefix of `words`, and how many words its name takes. */
function findCommand(words: string[]): { cmd: CliCommand; used: number } | undefined {
  for (let n = Math.min(words.length, 3); n > 0; n--) {
    const name = words.slice(0, n).join(' ');
    const cmd = cliCommands.find((c) => c.name === name);
    if (cmd) return { cmd, used: n };
  }
  return undefined;
}

/** For an unknown name: what exists in its place. */
function unknownCommand(words: string[]): UsageError {
  const group = words[0] as string;
  const subs = cliCommands.filter((c) => groupOf(c) === group).map((c) => c.name.split(' ').slice(1).join(' '));
  if (subs.length === 0) return new UsageError(`unknown command "${group}"`, `commands: ${groups().join(', ')} (tijori help COMMAND for one)`);
  if (words.length === 1) return new UsageError(`"${group}" needs a subcommand: ${subs.join(', ')}`, `tijori help ${group} for their flags`);
  return new UsageError(`unknown command "${group} ${words[1]}"`, `${group} commands: ${subs.join(', ')}`);
}

/** Levenshtein distance, for "did you mean" on a mistyped flag. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number;
      row[j] = Math.min(cur + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length] as number;
}

function flagError(err: Error & { code?: string }, cmd: CliCommand | undefined): UsageError {
  const where = cmd ? `tijori ${cmd.name}` : 'tijori';
  const help = `${where} --help`;
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'([^']+)'/.exec(err.message)?.[1] ?? err.message;
    const known = Object.keys(cmd?.flags ?? {});
    const near = known.find((k) => distance(k, flag.replace(/^-+/, '')) <= 2);
    return new UsageError(`${cmd ? `${cmd.name}: ` : ''}unknown flag ${flag}`, near ? `did you mean --${near}? (${help})` : `its flags: ${help}`);
  }
  // "Option '--name <value>' argument missing" and the like: the first sentence, in our words.
  const first = err.message.split('. ')[0] ?? err.message;
  const missing = /^Option '(--[^ ']+)[^']*' argument missing/.exec(first);
  const text = missing ? `${missing[1]} needs a value` : first.replace(/^Option '([^']+)'/, '$1');
  return new UsageError(`${cmd ? `${cmd.name}: ` : ''}${text}`, `usage: ${help}`);
}

function optionsOf(cmd: CliCommand): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } };
  for (const [name, f] of Object.entries(cmd.flags ?? {})) options[name] = { type: f.type, ...(f.multiple ? { multiple: true } : {}) };
  return options;
}

function print(json: boolean, value: CommandResult["json"], text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

async function dispatch(argv: string[]): Promise<number> {
  // The command's words: the leading arguments that are not flags (global flags may precede them).
  const leading = new Set<string>();
  const words: number[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a.startsWith('-')) {
      if (!LEADING_FLAGS.has(a) || words.length > 0) break;
      leading.add(a);
    } else words.push(i);
  }
  const wordList = words.map((i) => argv[i] as string);
  const json = argv.includes('--json');

  if (wordList[0] === 'help') {
    const topic = wordList.slice(1);
    if (topic.length === 0) return printHelp(json, globalUsage());
    const found = findCommand(topic);
    if (found && found.used === topic.length) return printHelp(json, commandHelp(found.cmd));
    if (topic.length === 1 && groups().includes(topic[0] as string)) return printHelp(json, groupUsage(topic[0] as string));
    throw unknownCommand(topic);
  }
  if (wordList.length === 0) {
    // No command: only the global flags make sense.
    try {
      parseArgs({ args: argv, strict: true, options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } } });
    } catch (err) {
      throw flagError(err as Error, undefined);
    }
    if (argv.includes('--version')) {
      print(json, { version: version() }, `tijori ${version()}`);
      return 0;
    }
    if (leading.has('--help') || leading.has('-h')) return printHelp(json, globalUsage());
    throw new UsageError('a command is needed', `commands: ${groups().join(', ')} (tijori help for all, with their flags)`);
  }

  const found = findCommand(wordList);
  if (!found) {
    if (wordList.length === 1 && groups().includes(wordList[0] as string) && (leading.has('--help') || argv.includes('--help') || argv.includes('-h'))) {
      return printHelp(json, groupUsage(wordList[0] as string));
    }
    throw unknownCommand(wordList);
  }
  const { cmd, used } = found;
  const nameAt = new Set(words.slice(0, used));
  const rest = argv.filter((_, i) => !nameAt.has(i));
  let values: FlagValues;
  let positionals: string[];
  try {
    const parsed = parseArgs({ args: rest, strict: true, allowPositionals: true, options: optionsOf(cmd) });
    values = parsed.values as FlagValues;
    positionals = parsed.positionals;
  } catch (err) {
    throw flagError(err as Error, cmd);
  }
  if (values.help) return printHelp(json, commandHelp(cmd));

  const usage = `usage: tijori ${usageLine(cmd)} [--json]`;
  const expected = cmd.args ?? [];
  if (positionals.length < expected.length) throw new UsageError(`${cmd.name}: ${expected.slice(positionals.length).map((a) => a.name).join(' ')} is required`, usage);
  if (positionals.length > expected.length) throw new UsageError(`${cmd.name}: unexpected argument "${positionals[expected.length]}"`, usage);
  for (const [name, f] of Object.entries(cmd.flags ?? {})) {
    if (f.required && (values[name] === undefined || values[name] === '')) throw new UsageError(`${cmd.name}: --${name} is required`, usage);
  }

  const admin = cmd.local ? { request: () => Promise.reject(new CliError('this command does not use the admin API')) } : createAdminClient();
  const result = await cmd.run({ admin, args: positionals, flags: values });
  if (result) print(json, result.json, result.text);
  return 0;
}

function printHelp(json: boolean, text: string): number {
  print(json, { usage: text }, text);
  return 0;
}

export async function runCli(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`tijori: ${err.message}\n${err.hint ? `${err.hint}\n` : ''}`);
      return 2;
    }
    if (err instanceof CliError) {
      process.stderr.write(`tijori: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`tijori: unexpected error: ${(err as Error).message}\n`);
    return 1;
  }
}
