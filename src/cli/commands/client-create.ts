/** `tijori client create --org ORG --scopes S1,S2 [--name N] [--allow-ip IP]... [--rate-limit PER_MINUTE]` (contract §2). */
import { list, optionalInt, optionalString, requireString } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { SCOPES } from '../../domain/scopes.js';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../../domain/rate-limit.js';

export const clientCreate: CliCommand = {
  name: 'client create',
  summary: 'Creates an API client of an organization. Its secret is shown once, here, and never again.',
  flags: {
    org: { type: 'string', required: true, value: 'ORG', help: 'the organization (id)' },
    scopes: { type: 'string', required: true, multiple: true, list: true, value: 'S1,S2', help: `comma-separated: ${SCOPES.join(', ')}` },
    name: { type: 'string', value: 'N', help: 'a name to recognise the client by' },
    'allow-ip': { type: 'string', multiple: true, value: 'IP', help: 'an address or CIDR the client may call from (default: any)' },
    'rate-limit': { type: 'string', value: 'PER_MINUTE', help: `requests per minute (default ${DEFAULT_RATE_LIMIT_PER_MINUTE})` },
  },
  async run({ admin, flags }) {
    const scopes = list(flags, 'scopes');
    if (scopes.length === 0) throw new UsageError('--scopes needs at least one scope (comma-separated)');
    const name = optionalString(flags, 'name');
    const rate = optionalInt(flags, 'rate-limit');
    const ips = list(flags, 'allow-ip');
    const c = await admin.request<{ client_id: string; client_secret: string; scopes: string[] }>('POST', '/admin/clients', {
      org: requireString(flags, 'org'),
      scopes,
      ...(name ? { name } : {}),
      ...(ips.length > 0 ? { allow_ips: ips } : {}),
      ...(rate !== undefined ? { rate_limit: rate } : {}),
    });
    return {
      json: { client_id: c.client_id, client_secret: c.client_secret, scopes: c.scopes },
      text: `client_id:     ${c.client_id}\nclient_secret: ${c.client_secret}\nscopes:        ${c.scopes.join(', ')}\nThe secret is shown only now: store it in a secrets manager.`,
    };
  },
};
