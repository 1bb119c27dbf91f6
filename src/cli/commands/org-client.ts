/** `tijori org create` and `tijori client create|allow-ip|rotate-secret` (contract §2). */
import type { AdminClient } from '../admin-client.js';
import { CliError } from '../admin-client.js';
import { type Flags, list, optionalInt, optionalString, requireString } from '../args.js';

export type CommandResult = { json: Record<string, unknown>; text: string };

export async function orgCommand(admin: AdminClient, sub: string | undefined, flags: Flags): Promise<CommandResult> {
  if (sub !== 'create') throw new CliError('usage: tijori org create --name NAME [--json]');
  const org = await admin.request<{ id: string; name: string }>('POST', '/admin/orgs', { name: requireString(flags, 'name') });
  return { json: { id: org.id, name: org.name }, text: `organization ${org.id} (${org.name}) created` };
}

export async function clientCommand(admin: AdminClient, sub: string | undefined, flags: Flags): Promise<CommandResult> {
  switch (sub) {
    case 'create': {
      const scopes = list(flags, 'scopes');
      if (scopes.length === 0) throw new CliError('--scopes is required (comma-separated)');
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
    }
    case 'allow-ip': {
      const client = requireString(flags, 'client');
      const r = await admin.request<{ client_id: string; allowed_ips: string[] }>('POST', `/admin/clients/${encodeURIComponent(client)}/allowed-ips`, {
        ip: requireString(flags, 'ip'),
      });
      return { json: { client_id: r.client_id, allowed_ips: r.allowed_ips }, text: `allowed IPs of ${r.client_id}: ${r.allowed_ips.join(', ')}` };
    }
    case 'rotate-secret': {
      const client = requireString(flags, 'client');
      const r = await admin.request<{ client_id: string; client_secret: string }>('POST', `/admin/clients/${encodeURIComponent(client)}/rotate-secret`);
      return {
        json: { client_id: r.client_id, client_secret: r.client_secret },
        text: `client_id:     ${r.client_id}\nclient_secret: ${r.client_secret}\nThe old secret no longer works (within 2 s on every instance).`,
      };
    }
    default:
      throw new CliError('usage: tijori client create|allow-ip|rotate-secret ...');
  }
}
