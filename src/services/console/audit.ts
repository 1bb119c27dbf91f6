/**
 * The console's audit log: who changed what, when, from where, with the state before and after.
 * Callers write the entry in the transaction of the change itself. Secrets never enter it: the
 * entry's before/after are built by the services from non-secret fields only.
 */
import { newRowId } from '../../store/row-id.js';
import type { Db, Queryable } from '../../store/db.js';
import * as auditRepo from '../../store/repos/console-audit-repo.js';
import { rowsPage } from '../shared/list-page.js';

/** Who acts: a console user, or the operator through the CLI (admin API). */
export interface Actor {
  userId: string | null;
  /** The user's email, or "operator" for the CLI. */
  label: string;
  ip: string | null;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const OPERATOR: Actor = { userId: null, label: 'operator', ip: null };

/** The service itself (a worker), e.g. disabling a failing callback destination. */
export const SYSTEM: Actor = { userId: null, label: 'system', ip: null };

export interface AuditEntry {
  orgId: string;
  action: string;
  targetType: string;
  targetId: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** An entry as the console shows it: the stored row's fields, with `at` for `created_at` and no ids of organization or user. */
export type AuditView = { id: string; at: string } & Pick<auditRepo.AuditRow, 'actor' | 'action' | 'target_type' | 'target_id' | 'before' | 'after' | 'ip'>;

export async function recordAudit(q: Queryable, actor: Actor, e: AuditEntry): Promise<void> {
  await auditRepo.insertAudit(q, {
    id: newRowId(),
    org_id: e.orgId,
    actor_id: actor.userId,
    actor: actor.label,
    action: e.action,
    target_type: e.targetType,
    target_id: e.targetId,
    before: e.before ?? null,
    after: e.after ?? null,
    ip: actor.ip,
  });
}

export class AuditService {
  constructor(private readonly db: Db) {}

  /** Newest first; `cursor` is the `next_cursor` of the previous page. */
  async list(f: { orgId: string; action?: string; actor?: string; from?: Date; to?: Date; cursor?: string; limit: number }): Promise<{ rows: AuditView[]; next_cursor: string | null }> {
    const beforeId = f.cursor && UUID_RE.test(f.cursor) ? f.cursor : undefined;
    // A list: from the standby while it is within REPLICA_MAX_LAG_MS (contract §10).
    const rows = await this.db.replicaReads.read((r) => auditRepo.listAudit(r, { orgId: f.orgId, action: f.action, actor: f.actor, from: f.from, to: f.to, beforeId, limit: f.limit + 1 }));
    return rowsPage(
      rows,
      f.limit,
      (r) => ({
        id: r.id,
        at: r.created_at.toISOString(),
        actor: r.actor,
        action: r.action,
        target_type: r.target_type,
        target_id: r.target_id,
        before: r.before,
        after: r.after,
        ip: r.ip,
      }),
      (last) => last.id,
    );
  }
}

