/**
 * What the admin API (and so the CLI) and the console read and decide about settlements (contract
 * §9): the list of an organization's settlements, its reconciliation breaks, a reviewer resolving
 * one with a note (audited), the organization's `settlement_expected_days`, and the sandbox's
 * "settle now" control.
 */
import { settlementView } from './merchant-settlements.js';
import { AppError, notFound, validationError } from '../../domain/errors.js';
import { RECON_BREAK_KINDS, BREAK_STATUSES, isExpectedDays, SETTLEMENT_EXPECTED_DAYS } from '../../domain/reconciliation.js';
import { isUuid } from '../../domain/text.js';
import { collectingMerchant, ProviderError } from '../../providers/provider.js';
import type { SandboxControls } from '../../providers/sandbox/adapter.js';
import type { Db, Queryable } from '../../store/db.js';
import * as repo from '../../store/repos/settlements-repo.js';
import { newRowId } from '../../store/row-id.js';

export const BREAK_NOTE_MAX = 2000;

export interface SettlementsDeps {
  db: Db;
  sandbox: Pick<SandboxControls, 'settle'> | undefined;
}

export interface BreakView {
  break_id: string;
  kind: string;
  settlement_id: string | null;
  order_id: string | null;
  refund_id: string | null;
  expected_paise: number | null;
  reported_paise: number | null;
  detected_at: string;
  status: 'open' | 'resolved';
  resolved_by: string | null;
  resolution_note: string | null;
  resolved_at: string | null;
  /** Payout statement breaks (src/domain/payout-statement.ts): the payout and the provider's payout id; null otherwise. */
  payout_id: string | null;
  provider_ref: string | null;
}

function breakView(b: repo.BreakRow): BreakView {
  return {
    break_id: b.id,
    kind: b.kind,
    settlement_id: b.settlement_id,
    order_id: b.order_id,
    refund_id: b.refund_id,
    expected_paise: b.expected_paise,
    reported_paise: b.reported_paise,
    detected_at: b.detected_at.toISOString(),
    status: b.status,
    resolved_by: b.resolved_by,
    resolution_note: b.resolution_note,
    resolved_at: b.resolved_at?.toISOString() ?? null,
    payout_id: b.payout_id,
    provider_ref: b.provider_ref,
  };
}

export class SettlementsService {
  constructor(private readonly deps: SettlementsDeps) {}

  private async requireOrg(q: Queryable, orgId: string): Promise<void> {
    if (!isUuid(orgId) || (await repo.expectedDaysOf(q, orgId)) === null) throw notFound('organization');
  }

  /** `tijori settlements list --org ORG`: newest first. */
  async list(orgId: string, limit = 1000) {
    await this.requireOrg(this.deps.db, orgId);
    const rows = await repo.listSettlements(this.deps.db, orgId, Math.min(Math.max(limit, 1), 1000));
    return rows.map(settlementView);
  }

  /** `tijori recon breaks --org ORG [--status open|resolved]`: newest first; a resolved break stays listed. */
  async breaks(orgId: string, status?: string | undefined, limit = 500, kind?: string | undefined): Promise<BreakView[]> {
    if (status !== undefined && !(BREAK_STATUSES as readonly string[]).includes(status)) {
      throw validationError([{ field: 'status', issue: `one of ${BREAK_STATUSES.join(', ')}` }]);
    }
    // The console's filter by kind (the CLI lists every kind).
    if (kind !== undefined && !(RECON_BREAK_KINDS as readonly string[]).includes(kind)) {
      throw validationError([{ field: 'kind', issue: `one of ${RECON_BREAK_KINDS.join(', ')}` }]);
    }
    await this.requireOrg(this.deps.db, orgId);
    return (await repo.listBreaks(this.deps.db, orgId, status ?? null, Math.min(Math.max(limit, 1), 5000), kind ?? null)).map(breakView);
  }

  /**
   * A reviewer resolves a break with a written note; the row is locked first, so of two reviewers at
   * once one resolves it and the other gets 409 INVALID_STATE. The audit row is written in the same
   * statement. `orgId`, when given (the console's user), hides the breaks of other organizations.
   */
  async resolve(r: {
    breakId: string;
    actor: string;
    note: string;
    orgId?: string | undefined;
    /** Runs in the resolution's transaction (the console writes its audit entry here). */
    onResolved?: ((tx: Queryable, before: BreakView, after: BreakView) => Promise<void>) | undefined;
  }): Promise<BreakView> {
    const note = r.note.trim();
    if (note.length === 0 || note.length > BREAK_NOTE_MAX) throw validationError([{ field: 'note', issue: `a written note of 1 to ${BREAK_NOTE_MAX} characters` }]);
    if (r.actor.trim().length === 0) throw validationError([{ field: 'actor', issue: 'who resolves the break' }]);
    if (!isUuid(r.breakId)) throw notFound('break');
    return this.deps.db.tx(async (tx) => {
      const b = await repo.findBreak(tx, r.breakId, true);
      if (!b || (r.orgId !== undefined && b.org_id !== r.orgId)) throw notFound('break');
      if (b.status === 'resolved') throw new AppError('INVALID_STATE', 'The break is resolved already.');
      await repo.resolveBreak(tx, b.id, r.actor.trim(), note, newRowId());
      const after = breakView((await repo.findBreak(tx, b.id)) as repo.BreakRow);
      await r.onResolved?.(tx, breakView(b), after);
      return after;
    });
  }

  /** `tijori org set --org ORG --settlement-expected-days N` (1 to 30). */
  async setExpectedDays(orgId: string, days: unknown): Promise<void> {
    if (!isExpectedDays(days)) throw validationError([{ field: 'settlement_expected_days', issue: `a whole number of days from ${SETTLEMENT_EXPECTED_DAYS.min} to ${SETTLEMENT_EXPECTED_DAYS.max}` }]);
    if (!isUuid(orgId) || !(await repo.setExpectedDays(this.deps.db, orgId, days))) throw notFound('organization');
  }

  /** The organization's settings, as `tijori org set` prints them. */
  async orgSettings(orgId: string) {
    const s = isUuid(orgId) ? await repo.orgSettings(this.deps.db, orgId) : null;
    if (!s) throw notFound('organization');
    return s;
  }

  /**
   * `tijori sandbox settle [--org ORG]`: the sandbox PSP settles now: the organization's merchants
   * (the built-in sandbox's and each of its sandbox-kind accounts', one settlement each), or every one.
   */
  async sandboxSettle(orgId?: string | undefined) {
    const sandbox = this.deps.sandbox;
    if (!sandbox) throw new AppError('NOT_FOUND', 'The sandbox provider is not in use.');
    if (orgId !== undefined) await this.requireOrg(this.deps.db, orgId);
    const merchants = orgId === undefined ? [null] : [collectingMerchant(orgId, null), ...(await repo.sandboxAccountsOf(this.deps.db, orgId)).map((a) => collectingMerchant(orgId, a))];
    const made = [];
    try {
      for (const m of merchants) made.push(...(await sandbox.settle(m)));
    } catch (err) {
      if (err instanceof ProviderError) throw new AppError('SERVICE_UNAVAILABLE', 'The sandbox provider is not reachable.', { cause: err });
      throw err;
    }
    return { settlements: made.map((s) => ({ provider_settlement_id: s.provider_settlement_id, utr: s.utr, lines: s.lines, net_paise: s.net_paise })) };
  }
}
