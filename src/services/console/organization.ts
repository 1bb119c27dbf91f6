/**
 * The organization's settings page (contract §5: admins change organization settings; every role
 * reads them): its name (what payers see as the payee on the checkout page and in UPI apps) and
 * `refund_review` (contract §6, the setting `tijori org set --refund-review` changes; the console
 * may turn it on, never off: only the operator's CLI does, issue #29 item 4). A change
 * locks the organization's row and writes its audit entry `organization.updated` (before and
 * after) in the same transaction; a save that changes nothing writes nothing.
 */
import { AppError, notFound, validationError } from '../../domain/errors.js';
import type { Db } from '../../store/db.js';
import * as repo from '../../store/repos/organizations-repo.js';
import { type Actor, recordAudit } from './audit.js';

export interface OrgSettingsView {
  id: string;
  name: string;
  refund_review: 'none' | 'required';
  created_at: string;
}

export interface OrgSettingsChanges {
  name?: string | undefined;
  refundReview?: string | undefined;
}

const view = (r: repo.OrgSettingsRow): OrgSettingsView => ({ id: r.id, name: r.name, refund_review: r.refund_review, created_at: r.created_at.toISOString() });

export class ConsoleOrganization {
  constructor(private readonly deps: { db: Db; /** Told after a rename commits, so cached names are dropped. */ onRenamed: (orgId: string) => void }) {}

  async settings(orgId: string): Promise<OrgSettingsView> {
    const row = await repo.findOrgSettings(this.deps.db, orgId);
    if (!row) throw notFound('organization');
    return view(row);
  }

  async update(orgId: string, changes: OrgSettingsChanges, actor: Actor): Promise<OrgSettingsView> {
    const issues: { field: string; issue: string }[] = [];
    const name = changes.name?.trim();
    if (name !== undefined && (name.length < 1 || name.length > 200)) issues.push({ field: 'name', issue: 'must be 1 to 200 characters' });
    // Control characters would reach payers' UPI apps and the checkout page: refused.
    if (name !== undefined && /\p{Cc}/u.test(name)) issues.push({ field: 'name', issue: 'must not contain control characters' });
    const review = changes.refundReview;
    if (review !== undefined && review !== 'none' && review !== 'required') issues.push({ field: 'refund_review', issue: 'must be none or required' });
    if (name === undefined && review === undefined && issues.length === 0) issues.push({ field: 'changes', issue: 'name at least one of name, refund_review' });
    if (issues.length > 0) throw validationError(issues);
    const { row, renamed } = await this.deps.db.tx(async (tx) => {
      const before = await repo.lockOrgSettings(tx, orgId);
      if (!before) throw notFound('organization');
      const next = { name: name ?? before.name, refund_review: (review as 'none' | 'required' | undefined) ?? before.refund_review };
      if (next.name === before.name && next.refund_review === before.refund_review) return { row: before, renamed: false };
      // Turning refund review off lets whoever holds a collections:write secret refund alone (issue
      // #29 item 4): contract §6 gives it to the operator's CLI only. Turning it on is anyone's.
      if (next.refund_review === 'none' && before.refund_review !== 'none') {
        throw new AppError('API_SCOPE_DENIED', 'Refund review can be turned off only by the operator (tijori org set --refund-review none): without it one person could refund alone.');
      }
      const after = await repo.updateOrgSettings(tx, orgId, next);
      const diff = (r: repo.OrgSettingsRow) => ({
        ...(next.name !== before.name ? { name: r.name } : {}),
        ...(next.refund_review !== before.refund_review ? { refund_review: r.refund_review } : {}),
      });
      await recordAudit(tx, actor, { orgId, action: 'organization.updated', targetType: 'organization', targetId: orgId, before: diff(before), after: diff(after) });
      return { row: after, renamed: next.name !== before.name };
    });
    if (renamed) this.deps.onRenamed(orgId);
    return view(row);
  }
}
