/**
 * API clients as the console manages them: the organization's list, create (the secret answered
 * once), rotate, revoke, the IP allow list. Creation and validation are ClientsService's (the CLI
 * calls the same); this adds the organization check and the audit entry, written through the
 * service's change hook inside the change's own transaction (both commit or neither does). Secrets
 * never enter the audit log.
 */
import { AppError } from '../../domain/errors.js';
import { isUuid } from '../../domain/text.js';
import { movesMoney } from '../../domain/scopes.js';
import { samePerson } from '../shared/dual-control.js';
import type { Db } from '../../store/db.js';
import { newRowId } from '../../store/row-id.js';
import * as requestsRepo from '../../store/repos/api-client-requests-repo.js';
import * as repo from '../../store/repos/clients-repo.js';
import type { ClientChanges } from '../shared/client-input.js';
import type { ClientsService } from '../shared/clients.js';
import { type Actor, recordAudit } from './audit.js';

/** A change that would hand out a payouts:write credential: it becomes a request for a second admin. */
class NeedsSecondAdmin extends Error {}

export interface ClientRequestView {
  request_id: string;
  kind: requestsRepo.ClientRequestKind;
  client_id: string | null;
  change: Record<string, unknown>;
  requested_by: string;
  status: requestsRepo.ClientRequestStatus;
  decided_at: string | null;
  created_at: string;
}

/** What a change that needs a second admin answers instead of the change. */
export interface ApprovalRequired {
  approval_required: true;
  request: ClientRequestView;
}

function requestView(r: requestsRepo.ClientRequestRow): ClientRequestView {
  return {
    request_id: r.id,
    kind: r.kind,
    client_id: r.client_id,
    change: r.change,
    requested_by: r.requester_email,
    status: r.status,
    decided_at: r.decided_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
  };
}

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
  ): Promise<{ client: ApiClientView; client_secret: string } | ApprovalRequired> {
    try {
      return await this.createNow(orgId, input, actor, null);
    } catch (err) {
      if (!(err instanceof NeedsSecondAdmin)) throw err;
      const change = { name: input.name ?? null, scopes: input.scopes, allowed_ips: input.allowIps ?? [], ...(input.rateLimitPerMinute === undefined ? {} : { rate_limit_per_minute: input.rateLimitPerMinute }) };
      return this.request(orgId, 'create', null, change, actor);
    }
  }

  /**
   * Creates the client (validated by ClientsService); one that could move money is refused unless
   * `approved` names the approved request being collected, which the same transaction marks collected.
   */
  private async createNow(
    orgId: string,
    input: { name?: string | undefined; scopes: string[]; allowIps?: string[] | undefined; rateLimitPerMinute?: number | undefined },
    actor: Actor,
    approved: requestsRepo.ClientRequestRow | null,
  ): Promise<{ client: ApiClientView; client_secret: string }> {
    // The secret is shown to this user: who holds it is recorded (a refund it makes is not theirs to approve).
    const { row, secret } = await this.deps.clients.createClient({ orgId, ...input, issuedBy: actor.userId }, async (tx, r) => {
      if (movesMoney(r.scopes) && approved === null) throw new NeedsSecondAdmin();
      if (approved && !(await requestsRepo.markCollected(tx, approved.id, r.client_id))) throw new AppError('INVALID_STATE', 'This request was already collected.');
      await recordAudit(tx, actor, {
        orgId,
        action: 'api_client.created',
        targetType: 'api_client',
        targetId: r.client_id,
        after: { name: r.name, scopes: r.scopes, allowed_ips: r.allowed_ips, rate_limit_per_minute: r.rate_limit_per_minute, ...(approved ? { request_id: approved.id, approved_by: approved.decided_by } : {}) },
      });
    });
    const listed = (await this.deps.clients.listOfOrg(orgId)).find((c) => c.client_id === row.client_id);
    if (!listed) throw new AppError('INTERNAL_ERROR', 'The new client was not found.');
    return { client: view(listed), client_secret: secret };
  }

  async rotate(orgId: string, clientId: string, actor: Actor): Promise<{ client_id: string; client_secret: string } | ApprovalRequired> {
    const row = await this.ofOrg(orgId, clientId);
    if (!row.active) throw new AppError('INVALID_STATE', 'A revoked client cannot get a new secret.');
    // A new secret of a client that can move money is a new working credential: a second admin first.
    if (movesMoney(row.scopes)) return this.request(orgId, 'rotate', clientId, {}, actor);
    return this.rotateNow(orgId, clientId, actor, null);
  }

  private async rotateNow(orgId: string, clientId: string, actor: Actor, approved: requestsRepo.ClientRequestRow | null): Promise<{ client_id: string; client_secret: string }> {
    const secret = await this.deps.clients.rotateSecret(clientId, async (tx) => {
      if (approved && !(await requestsRepo.markCollected(tx, approved.id, clientId))) throw new AppError('INVALID_STATE', 'This request was already collected.');
      await recordAudit(tx, actor, { orgId, action: 'api_client.secret_rotated', targetType: 'api_client', targetId: clientId, ...(approved ? { after: { request_id: approved.id, approved_by: approved.decided_by } } : {}) });
    }, actor.userId);
    return { client_id: clientId, client_secret: secret };
  }

  async revoke(orgId: string, clientId: string, actor: Actor): Promise<void> {
    const row = await this.ofOrg(orgId, clientId);
    await this.deps.clients.revoke(row.client_id, (tx) =>
      recordAudit(tx, actor, { orgId, action: 'api_client.revoked', targetType: 'api_client', targetId: clientId, before: { status: 'active' }, after: { status: 'revoked' } }),
    );
  }

  /** Scopes, IP allow list, rate limit: ClientsService.updateClient (as `tijori client set`), audited in its transaction. */
  async update(orgId: string, clientId: string, changes: ClientChanges, actor: Actor): Promise<ApiClientView | ApprovalRequired> {
    try {
      return await this.updateNow(orgId, clientId, changes, actor, null);
    } catch (err) {
      if (!(err instanceof NeedsSecondAdmin)) throw err;
      const change = Object.fromEntries(
        Object.entries({ name: changes.name, scopes: changes.scopes, allowed_ips: changes.allowIps, rate_limit_per_minute: changes.rateLimitPerMinute }).filter(([, v]) => v !== undefined),
      );
      return this.request(orgId, 'update', clientId, change, actor);
    }
  }

  private async updateNow(orgId: string, clientId: string, changes: ClientChanges, actor: Actor, approved: requestsRepo.ClientRequestRow | null): Promise<ApiClientView> {
    await this.deps.clients.updateClient(clientId, changes, {
      orgId,
      onChanged: async (q, { before, after }) => {
        // Widening a client to payouts:write hands its holders a credential that moves money.
        if (movesMoney(after.scopes) && !movesMoney(before.scopes) && approved === null) throw new NeedsSecondAdmin();
        if (approved) await requestsRepo.markCollected(q, approved.id, clientId);
        await recordAudit(q, actor, {
          orgId, action: 'api_client.updated', targetType: 'api_client', targetId: clientId, before: { ...before },
          after: { ...after, ...(approved ? { request_id: approved.id, approved_by: approved.decided_by } : {}) },
        });
      },
    });
    const listed = (await this.deps.clients.listOfOrg(orgId)).find((c) => c.client_id === clientId);
    if (!listed) throw new AppError('NOT_FOUND', 'No such API client.');
    return view(listed);
  }

  private async request(orgId: string, kind: requestsRepo.ClientRequestKind, clientId: string | null, change: Record<string, unknown>, actor: Actor): Promise<ApprovalRequired> {
    if (actor.userId === null) throw new AppError('INTERNAL_ERROR', 'Only a console user makes requests.');
    const id = newRowId();
    const requestedBy = actor.userId;
    await this.deps.db.tx(async (q) => {
      await requestsRepo.insertRequest(q, { id, org_id: orgId, kind, client_id: clientId, change, requested_by: requestedBy });
      await recordAudit(q, actor, { orgId, action: 'api_client.approval_requested', targetType: 'api_client_request', targetId: id, after: { kind, client_id: clientId, ...change } });
    });
    const row = await requestsRepo.findRequest(this.deps.db, orgId, id);
    if (!row) throw new AppError('INTERNAL_ERROR', 'The new request was not found.');
    return { approval_required: true, request: requestView(row) };
  }

  async requests(orgId: string): Promise<ClientRequestView[]> {
    return (await requestsRepo.listRequests(this.deps.db, orgId, 100)).map(requestView);
  }

  /**
   * A second admin decides a request: not its requester, nor the same person by credentials (the
   * rule of dual-control.ts). An approved change of scopes is applied at once; a new client or a new
   * secret waits for its requester to collect it (the secret is shown to them, once).
   */
  async decideRequest(orgId: string, requestId: string, decision: 'approve' | 'reject', actor: Actor): Promise<ClientRequestView | ApiClientView> {
    if (actor.userId === null) throw new AppError('INTERNAL_ERROR', 'Only a console user decides requests.');
    const decider = actor.userId;
    const decided = await this.deps.db.tx(async (q) => {
      const r = isUuid(requestId) ? await requestsRepo.findRequest(q, orgId, requestId, { forUpdate: true }) : null;
      if (!r) throw new AppError('NOT_FOUND', 'No such request.');
      if (r.requested_by === decider) throw new AppError('SELF_APPROVAL_DENIED', 'You asked for this credential; another admin must approve or reject it.');
      if (await samePerson(q, r.requested_by, decider)) {
        throw new AppError('SELF_APPROVAL_DENIED', 'You and the requester are not two people: your credentials and theirs were issued by one of you, or by one person to both. Another admin must decide.');
      }
      if (r.status !== 'PENDING') throw new AppError('INVALID_STATE', `This request was already decided; it is ${r.status}.`);
      const status = decision === 'approve' ? 'APPROVED' : 'REJECTED';
      await requestsRepo.decideRequest(q, r.id, status, decider);
      await recordAudit(q, actor, { orgId, action: decision === 'approve' ? 'api_client.request_approved' : 'api_client.request_rejected', targetType: 'api_client_request', targetId: r.id, before: { status: r.status }, after: { status, kind: r.kind, client_id: r.client_id, requested_by: r.requester_email } });
      return { ...r, status, decided_by: decider } as requestsRepo.ClientRequestRow;
    });
    // A change of scopes needs no secret: applied now, by the approval (audited with the request).
    if (decided.status === 'APPROVED' && decided.kind === 'update' && decided.client_id) {
      const c = decided.change;
      return this.updateNow(orgId, decided.client_id, {
        name: c.name as string | null | undefined, scopes: c.scopes as string[] | undefined, allowIps: c.allowed_ips as string[] | undefined, rateLimitPerMinute: c.rate_limit_per_minute as number | undefined,
      }, actor, decided);
    }
    const fresh = await requestsRepo.findRequest(this.deps.db, orgId, decided.id);
    return requestView(fresh ?? decided);
  }

  /** The requester collects an approved new client or new secret: made now, the secret shown once. */
  async collect(orgId: string, requestId: string, actor: Actor): Promise<{ client: ApiClientView; client_secret: string } | { client_id: string; client_secret: string }> {
    const r = isUuid(requestId) ? await requestsRepo.findRequest(this.deps.db, orgId, requestId) : null;
    if (!r) throw new AppError('NOT_FOUND', 'No such request.');
    if (r.requested_by !== actor.userId) throw new AppError('API_SCOPE_DENIED', 'Only the admin or developer who asked for this credential collects it.');
    if (r.status !== 'APPROVED' || r.kind === 'update') throw new AppError('INVALID_STATE', `There is nothing to collect; the request is ${r.status}.`);
    if (r.kind === 'rotate' && r.client_id) {
      const row = await this.ofOrg(orgId, r.client_id);
      if (!row.active) throw new AppError('INVALID_STATE', 'A revoked client cannot get a new secret.');
      return this.rotateNow(orgId, r.client_id, actor, r);
    }
    const c = r.change;
    return this.createNow(orgId, {
      name: (c.name as string | null) ?? undefined, scopes: c.scopes as string[], allowIps: c.allowed_ips as string[] | undefined, rateLimitPerMinute: c.rate_limit_per_minute as number | undefined,
    }, actor, r);
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
