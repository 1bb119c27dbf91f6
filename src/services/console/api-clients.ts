/**
 * API clients as the console manages them: the organization's list, create (the secret answered
 * once), rotate, revoke, the IP allow list. Creation and validation are ClientsService's (the CLI
 * calls the same); this adds the organization check and the audit entry, written through the
 * service's change hook inside the change's own transaction (both commit or neither does). Secrets
 * never enter the audit log.
 */
import { AppError } from '../../domain/errors.js';
import type { Db } from '../../store/db.js';
import * as repo from '../../store/repos/clients-repo.js';
import type { ClientChanges, ClientsService } from '../shared/clients.js';
import { type Actor, recordAudit } from './audit.js';

export interface ApiClientView {
  client_id: string;
  name: string | null;
  scopes: string[];
  allowed_ips: string[];
  rate_limit_per_minute: number;
  status: 'active' | 'revoked';
  created_at: string;
  secret_rotated_at: string | null;
  /** When it last authenticated (to the minute), null if never since it was made. */
  last_used_at: string | null;
}

function view(r: repo.ClientListRow): ApiClientView {
  return {
    client_id: r.client_id,
    name: r.name,
    scopes: r.scopes,
    allowed_ips: r.allowed_ips,
    rate_limit_per_minute: r.rate_limit_per_minute,
    status: r.active ? 'active' : 'revoked',
    created_at: r.created_at.toISOString(),
    secret_rotated_at: r.secret_rotated_at?.toISOString() ?? null,
    last_used_at: r.last_used_at?.toISOString() ?? null,
  };
}

export class ConsoleApiClients {
  constructor(private readonly deps: { db: Db; clients: ClientsService }) {}

  async list(orgId: string): Promise<ApiClientView[]> {
    return (await this.deps.clients.listOfOrg(orgId)).map(view);
  }

  private async ofOrg(orgId: string, clientId: string): Promise<repo.ClientRow> {
    const row = clientId.length <= 100 ? await repo.findClientByClientId(this.deps.db, clientId) : null;
    if (!row || row.org_id !== orgId) throw new AppError('NOT_FOUND', 'No such API client.');
    return row;
  }

  async create(
    orgId: string,
    input: { name?: string | undefined; scopes: string[]; allowIps?: string[] | undefined; rateLimitPerMinute?: number | undefined },
    actor: Actor,
  ): Promise<{ client: ApiClientView; client_secret: string }> {
    const { row, secret } = await this.deps.clients.createClient({ orgId, ...input }, (tx, r) =>
      recordAudit(tx, actor, {
        orgId,
        action: 'api_client.created',
        targetType: 'api_client',
        targetId: r.client_id,
        after: { name: r.name, scopes: r.scopes, allowed_ips: r.allowed_ips, rate_limit_per_minute: r.rate_limit_per_minute },
      }),
    );
    const listed = (await this.deps.clients.listOfOrg(orgId)).find((c) => c.client_id === row.client_id);
    if (!listed) throw new AppError('INTERNAL_ERROR', 'The new client was not found.');
    return { client: view(listed), client_secret: secret };
  }

  async rotate(orgId: string, clientId: string, actor: Actor): Promise<{ client_id: string; client_secret: string }> {
    const row = await this.ofOrg(orgId, clientId);
    if (!row.active) throw new AppError('INVALID_STATE', 'A revoked client cannot get a new secret.');
    const secret = await this.deps.clients.rotateSecret(clientId, (tx) => recordAudit(tx, actor, { orgId, action: 'api_client.secret_rotated', targetType: 'api_client', targetId: clientId }));
    return { client_id: clientId, client_secret: secret };
  }

  async revoke(orgId: string, clientId: string, actor: Actor): Promise<void> {
    const row = await this.ofOrg(orgId, clientId);
    await this.deps.clients.revoke(row.client_id, (tx) =>
      recordAudit(tx, actor, { orgId, action: 'api_client.revoked', targetType: 'api_client', targetId: clientId, before: { status: 'active' }, after: { status: 'revoked' } }),
    );
  }

  /** Scopes, IP allow list, rate limit: ClientsService.updateClient (as `tijori client set`), audited in its transaction. */
  async update(orgId: string, clientId: string, changes: ClientChanges, actor: Actor): Promise<ApiClientView> {
    await this.deps.clients.updateClient(clientId, changes, {
      orgId,
      onChanged: (q, { before, after }) => recordAudit(q, actor, { orgId, action: 'api_client.updated', targetType: 'api_client', targetId: clientId, before: { ...before }, after: { ...after } }),
    });
    const listed = (await this.deps.clients.listOfOrg(orgId)).find((c) => c.client_id === clientId);
    if (!listed) throw new AppError('NOT_FOUND', 'No such API client.');
    return view(listed);
  }

  async allowIp(orgId: string, clientId: string, ip: string, actor: Actor): Promise<string[]> {
    await this.ofOrg(orgId, clientId);
    return this.deps.clients.allowIp(clientId, ip, async (tx, { before, after }) => {
      // An address already on the list changes nothing: nothing to audit.
      if (after.length !== before.length) {
        await recordAudit(tx, actor, { orgId, action: 'api_client.ip_allowed', targetType: 'api_client', targetId: clientId, before: { allowed_ips: before }, after: { allowed_ips: after } });
      }
    });
  }
}
