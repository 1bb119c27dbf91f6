/** `tijori client set --client CLIENT_ID [--scopes S1,S2] [--allow-ips IP1,CIDR2|none] [--rate-limit PER_MINUTE]`. */
import { list, optionalInt, requireString } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../errors.js';

export const clientSet: CliCommand = {
  name: 'client set',
  summary: "Changes an API client's scopes, IP allow list (replaced whole) and/or rate limit; prints the settings. Audited.",
  flags: {
    client: { type: 'string', required: true, value: 'CLIENT_ID', help: 'the API client' },
    scopes: { type: 'string', multiple: true, list: true, value: 'S1,S2', help: 'the new scopes (comma-separated)' },
    'allow-ips': { type: 'string', multiple: true, list: true, value: 'IP1,CIDR2', help: 'the new allow list of addresses and CIDR ranges; "none" allows any address' },
    'rate-limit': { type: 'string', value: 'PER_MINUTE', help: 'requests per minute' },
  },
  async run({ admin, flags }) {
    const client = requireString(flags, 'client');
    const scopes = list(flags, 'scopes');
    const ips = list(flags, 'allow-ips');
    const rate = optionalInt(flags, 'rate-limit');
    if (scopes.length === 0 && ips.length === 0 && rate === undefined) {
      throw new UsageError('name at least one of --scopes, --allow-ips, --rate-limit');
    }
    const r = await admin.request<{ client_id: string; scopes: string[]; allowed_ips: string[]; rate_limit_per_minute: number }>(
      'PATCH',
      `/admin/clients/${encodeURIComponent(client)}`,
      {
        ...(scopes.length > 0 ? { scopes } : {}),
        ...(ips.length > 0 ? { allow_ips: ips.length === 1 && ips[0] === 'none' ? [] : ips } : {}),
        ...(rate !== undefined ? { rate_limit: rate } : {}),
      },
    );
    return {
      json: r,
      text: `client ${r.client_id}\nscopes:      ${r.scopes.join(', ')}\nallowed IPs: ${r.allowed_ips.length > 0 ? r.allowed_ips.join(', ') : 'any'}\nrate limit:  ${r.rate_limit_per_minute}/min`,
    };
  },
};
