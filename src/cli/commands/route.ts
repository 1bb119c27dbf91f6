/** `tijori route create --org ORG --modes IMPS,NEFT,RTGS [--name N]` (contract §2). */
import { CliError } from '../admin-client.js';
import { list, optionalString, requireString } from '../args.js';
import type { CliCommand } from '../registry.js';

export const routeCommand: CliCommand = {
  group: 'route',
  usage: 'route create --org ORG --modes IMPS,NEFT,RTGS [--name N]',
  async run({ admin, sub, flags }) {
    if (sub !== 'create') throw new CliError('usage: tijori route create --org ORG --modes IMPS,NEFT,RTGS [--name N] [--json]');
    const modes = list(flags, 'modes');
    if (modes.length === 0) throw new CliError('--modes is required (comma-separated: IMPS, NEFT, RTGS)');
    const name = optionalString(flags, 'name');
    const r = await admin.request<{ bank_connection_id: string; modes: string[]; name: string; is_default: boolean }>('POST', '/admin/routes', {
      org: requireString(flags, 'org'),
      modes,
      ...(name ? { name } : {}),
    });
    return {
      json: { bank_connection_id: r.bank_connection_id, modes: r.modes },
      text: `payout route ${r.bank_connection_id} (${r.name}) modes ${r.modes.join(', ')}${r.is_default ? ' — the organization default' : ''}`,
    };
  },
};
