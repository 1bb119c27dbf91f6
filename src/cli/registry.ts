/** CLI command groups added by features (sandbox, route, destination, callbacks). */
import type { AdminClient } from './admin-client.js';
import type { Flags } from './args.js';
import { callbacksCommand } from './commands/callbacks.js';
import { destinationCommand } from './commands/destination.js';
import { orgSettingsCommand } from './commands/org-settings.js';
import { routeCommand } from './commands/route.js';
import { sandboxCommand } from './commands/sandbox.js';

export interface CliCommand {
  group: string;
  usage: string;
  run(input: { admin: AdminClient; sub: string | undefined; args: string[]; flags: Flags }): Promise<{ json: Record<string, unknown>; text: string }>;
}

export const cliCommands: CliCommand[] = [sandboxCommand, routeCommand, destinationCommand, callbacksCommand, orgSettingsCommand];
