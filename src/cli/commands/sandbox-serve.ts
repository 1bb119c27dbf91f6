/** `tijori sandbox serve [--port PORT]`: the sandbox provider as its own process (a server, not an admin API call). */
import { optionalInt } from '../args.js';
import type { CliCommand } from '../command.js';
import { CliError } from '../errors.js';

export const sandboxServe: CliCommand = {
  name: 'sandbox serve',
  summary:
    'Runs the sandbox provider as a process of its own (start the service with SANDBOX_URL pointing at it). Needs DATABASE_URL and MASTER_KEY, the same as the service. Prints one JSON line once listening; stops on SIGTERM or SIGINT.',
  local: true,
  flags: { port: { type: 'string', value: 'PORT', help: 'its listener (default SANDBOX_PORT, 8082)' } },
  async run({ flags }) {
    const { serveSandbox } = await import('../../sandbox/standalone.js');
    try {
      await serveSandbox({ port: optionalInt(flags, 'port') });
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    return undefined;
  },
};
