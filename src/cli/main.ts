/**
 * The `tijori` command. Every command takes --json and then prints exactly one JSON object on
 * standard output; errors go to standard error with exit code 1 (2 for usage errors).
 */
import { parseArgs } from 'node:util';
import { CliError, createAdminClient } from './admin-client.js';
import type { Flags } from './args.js';
import { cliCommands } from './registry.js';

const USAGE = `usage: tijori <command> [options] [--json]

  org create --name NAME
  client create --org ORG --scopes S1,S2 [--name N] [--allow-ip IP]... [--rate-limit PER_MINUTE]
  client allow-ip --client CLIENT_ID --ip IP
  client rotate-secret --client CLIENT_ID
  sandbox serve [--port PORT]    (the sandbox provider as its own process; needs DATABASE_URL)
${cliCommands.map((c) => `  ${c.usage}`).join('\n')}

Environment: ADMIN_URL (default http://127.0.0.1:8081), ADMIN_TOKEN (default: DATA_DIR/admin-token)`;

export async function runCli(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        name: { type: 'string' },
        org: { type: 'string' },
        scopes: { type: 'string', multiple: true },
        'allow-ip': { type: 'string', multiple: true },
        'rate-limit': { type: 'string' },
        client: { type: 'string' },
        ip: { type: 'string' },
        kind: { type: 'string' },
        url: { type: 'string' },
        modes: { type: 'string', multiple: true },
        utr: { type: 'string' },
        'no-callback': { type: 'boolean' },
        'refund-review': { type: 'string' },
        port: { type: 'string' },
      },
    });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [group, sub, ...rest] = parsed.positionals;
  const flags = parsed.values as Flags;
  if (!group || flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return group ? 0 : 2;
  }
  if (group === 'sandbox' && sub === 'serve') {
    // A long-running server, not an admin API call.
    const { serveSandbox } = await import('../providers/sandbox/standalone.js');
    try {
      await serveSandbox({ port: typeof flags.port === 'string' ? Number(flags.port) : undefined });
      return 0;
    } catch (err) {
      process.stderr.write(`tijori: ${(err as Error).message}\n`);
      return 1;
    }
  }
  const { orgCommand, clientCommand } = await import('./commands/org-client.js');
  const admin = createAdminClient();
  try {
    let result: { json: Record<string, unknown>; text: string };
    if (group === 'org' && sub !== 'set') result = await orgCommand(admin, sub, flags);
    else if (group === 'client') result = await clientCommand(admin, sub, flags);
    else {
      const cmd = cliCommands.find((c) => c.group === group);
      if (!cmd) {
        process.stderr.write(`unknown command "${group}"\n${USAGE}\n`);
        return 2;
      }
      result = await cmd.run({ admin, sub, args: rest, flags });
    }
    process.stdout.write(flags.json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`tijori: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`tijori: unexpected error: ${(err as Error).message}\n`);
    return 1;
  }
}
