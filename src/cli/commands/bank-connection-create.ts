/** `tijori route create --org ORG --modes IMPS,NEFT,RTGS [--name N] [--provider-account ID]` (contract §2, §8). */
import { list, optionalString, requireString } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../errors.js';

export const bankConnectionCreate: CliCommand = {
  name: 'route create',
  summary: "Creates a payout route (bank connection) of an organization; its first route is its default.",
  flags: {
    org: { type: 'string', required: true, value: 'ORG', help: 'the organization (id)' },
    modes: { type: 'string', required: true, multiple: true, list: true, value: 'IMPS,NEFT,RTGS', help: 'the transfer modes it allows (comma-separated)' },
    name: { type: 'string', value: 'N', help: 'a name to recognise the route by' },
    'provider-account': { type: 'string', value: 'ID', help: 'the provider account it sends through (`tijori provider list`); without it, the built-in sandbox' },
  },
  async run({ admin, flags }) {
    const modes = list(flags, 'modes');
    if (modes.length === 0) throw new UsageError('--modes needs at least one mode (comma-separated: IMPS, NEFT, RTGS)');
    const name = optionalString(flags, 'name');
    const account = optionalString(flags, 'provider-account');
    const r = await admin.request<{ bank_connection_id: string; modes: string[]; name: string; is_default: boolean }>('POST', '/admin/routes', {
      org: requireString(flags, 'org'),
      modes,
      ...(name ? { name } : {}),
      ...(account ? { provider_account: account } : {}),
    });
    return {
      json: { bank_connection_id: r.bank_connection_id, modes: r.modes },
      text: `payout route ${r.bank_connection_id} (${r.name}) modes ${r.modes.join(', ')}${r.is_default ? ' — the organization default' : ''}`,
    };
  },
};
