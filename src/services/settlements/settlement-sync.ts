/**
 * Fetching settlements from each collections account and importing them (contract §9): by the
 * worker every SETTLEMENT_SYNC_INTERVAL_MS and by `tijori settlements sync`. For each account it
 * asks the provider for the settlements made since a day before the newest one stored (an overlap:
 * the import is idempotent), page by page with the provider's cursor; before a settlement is
 * stored, every settled payment of an order Tijori does not hold as confirmed gets the normal
 * provider status check (settlement-check.ts). Then that account's confirmed collections in no
 * settlement after `settlement_expected_days` become UNSETTLED breaks (only for an account whose
 * sync succeeded; only orders confirmed since the organization's `settlements_from`).
 */
import { AppError, notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/text.js';
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import { collectingMerchant, type Provider, ProviderError, type ProviderSettlement, type ProviderSettlementLine } from '../../providers/provider.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { Db } from '../../store/db.js';
import * as staging from '../../store/repos/settlement-staging-repo.js';
import * as repo from '../../store/repos/settlements-repo.js';
import { newRowId } from '../../store/row-id.js';
import { checkSettledOrder } from './settlement-check.js';
import { type ImportCounts, type ImportTarget, importSettlement, isStored, MATCH_BATCH, NO_COUNTS } from './settlement-import.js';
import { sanitizeSettlement } from './settlement-sanitize.js';

/** Pages of one sync at most (a provider that never ends its cursor must not hold the worker). */
const MAX_PAGES = 500;
const OVERLAP_MS = 86_400_000;
/** Order states the settlement check applies to: open ones, and the closed ones (FAILED, EXPIRED, CANCELLED) a late payment goes to review from. */
const CHECKED_STATUSES = new Set(['AWAITING_CUSTOMER', 'PENDING_PAYMENT', 'AWAITING_CONFIRMATION', 'FAILED', 'EXPIRED', 'CANCELLED']);

export interface SettlementSyncDeps {
  db: Db;
  log: Logger;
  metrics: Metrics;
  providers: Pick<ProviderRegistry, 'forAccount'>;
}

export class SettlementSyncService {
  private readonly anomaliesTotal;
  private readonly breaksTotal;
  private readonly log: Logger;

  constructor(private readonly deps: SettlementSyncDeps) {
    this.log = deps.log.child({ component: 'settlements' });
    this.anomaliesTotal = deps.metrics.counter('tijori_settlement_anomalies_total', 'Bad provider settlement data found at import (never moves an order)', ['provider', 'kind']);
    this.breaksTotal = deps.metrics.counter('tijori_recon_breaks_total', 'Reconciliation breaks found', ['kind']);
  }

  /** `tijori settlements sync --org ORG [--provider-account ID]`. */
  async sync(orgId: string, providerAccountId?: string | undefined): Promise<ImportCounts> {
    if (!isUuid(orgId)) throw notFound('organization');
    const targets = await repo.syncTargets(this.deps.db, orgId);
    if (targets.length === 0) throw notFound('organization');
    const chosen = providerAccountId === undefined ? targets : targets.filter((t) => t.provider_account_id === providerAccountId);
    if (chosen.length === 0) throw new AppError('NOT_FOUND', 'No collections account of this organization with that id has settlements to fetch.');
    const total = { ...NO_COUNTS };
    for (const t of chosen) {
      let c: ImportCounts;
      try {
        c = await this.syncAndDetect({ orgId: t.org_id, providerAccountId: t.provider_account_id, provider: t.provider });
      } catch (err) {
        if (err instanceof ProviderError) throw new AppError('SERVICE_UNAVAILABLE', `The provider did not answer with its settlements: ${err.message}`, { cause: err });
        throw err;
      }
      for (const k of Object.keys(total) as Array<keyof ImportCounts>) total[k] += c[k];
    }
    return total;
  }

  /** One round of the worker: every organization's accounts; a failing account is logged and skipped. */
  async syncAll(): Promise<number> {
    const targets = await repo.syncTargets(this.deps.db, null);
    let settlements = 0;
    for (const t of targets) {
      try {
        settlements += (await this.syncAndDetect({ orgId: t.org_id, providerAccountId: t.provider_account_id, provider: t.provider })).settlements_new;
      } catch (err) {
        this.log.warn({ org_id: t.org_id, provider_account_id: t.provider_account_id, err: (err as Error).message }, 'settlement sync of an account failed');
      }
    }
    return settlements;
  }

  /**
   * One account's settlements, then its UNSETTLED breaks: only for an account whose settlements were
   * just read in full (a provider outage of days must not make every order of the account
   * UNSETTLED, and one account's sync says nothing of another's orders).
   */
  private async syncAndDetect(t: ImportTarget): Promise<ImportCounts> {
    const c = await this.syncAccount(t);
    if (c !== null) await this.detectUnsettled(t);
    return c ?? { ...NO_COUNTS };
  }

  /** null: the account's provider has no settlements to fetch (nothing read, so nothing is judged UNSETTLED). */
  async syncAccount(t: ImportTarget): Promise<ImportCounts | null> {
    const provider = await this.deps.providers.forAccount(t.providerAccountId);
    if (!provider.fetchSettlements) return null;
    const latest = await repo.latestSettledAt(this.deps.db, t.orgId, t.providerAccountId);
    const since = latest ? new Date(latest.getTime() - OVERLAP_MS) : null;
    const total = { ...NO_COUNTS };
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const got = await provider.fetchSettlements({ merchant: collectingMerchant(t.orgId, t.providerAccountId), since, cursor });
      for (const r of got.rejected ?? []) await this.reject(t, r.providerSettlementId, r.detail);
      for (const raw of got.settlements) {
        const clean = sanitizeSettlement(raw);
        if ('rejected' in clean) {
          await this.reject(t, raw.providerSettlementId, clean.rejected);
          continue;
        }
        const c = await this.importOne(t, clean.settlement, provider);
        for (const k of Object.keys(total) as Array<keyof ImportCounts>) total[k] += c[k];
      }
      if (got.cursor === null || got.cursor === cursor) break;
      cursor = got.cursor;
    }
    return total;
  }

  /** A settlement that cannot be stored at all: an anomaly (once), logged and counted; the rest of the window goes on. */
  private async reject(t: ImportTarget, providerSettlementId: string, detail: string): Promise<void> {
    const id = providerSettlementId.slice(0, 200);
    const fresh = await repo.insertAnomaly(this.deps.db, { id: newRowId(), org_id: t.orgId, provider_account_id: t.providerAccountId, provider_settlement_id: id, provider_line_id: '', kind: 'BAD_DATA', detail });
    if (!fresh) return;
    this.anomaliesTotal.inc({ provider: t.provider, kind: 'BAD_DATA' });
    this.log.warn({ org_id: t.orgId, provider_account_id: t.providerAccountId, provider_settlement_id: id, kind: 'BAD_DATA', detail }, 'settlement anomaly: bad provider data, settlement not stored');
  }

  private async importOne(t: ImportTarget, s: ProviderSettlement, provider: Provider): Promise<ImportCounts> {
    if (await isStored(this.deps.db, t, s.providerSettlementId)) return { ...NO_COUNTS };
    const r = await importSettlement(this.deps.db, t, s, { moreLines: this.restOfLines(t, s, provider), beforeComplete: (importId, lineCount) => this.checkUnconfirmed(t, importId, lineCount) });
    for (const a of r.anomalies) {
      this.anomaliesTotal.inc({ provider: t.provider, kind: a.kind });
      this.log.warn({ org_id: t.orgId, provider_account_id: t.providerAccountId, provider_settlement_id: a.providerSettlementId, line: a.providerLineId, kind: a.kind, detail: a.detail }, 'settlement anomaly: bad provider data, no order changed');
    }
    if (r.counts.breaks > 0 && r.settlementId) {
      for (const k of await repo.breakKindsOf(this.deps.db, r.settlementId)) this.breaksTotal.inc({ kind: k.kind }, k.n);
    }
    if (r.counts.settlements_new > 0) this.log.info({ org_id: t.orgId, provider_settlement_id: s.providerSettlementId, ...r.counts }, 'settlement imported');
    return r.counts;
  }

  /**
   * The pages of a long settlement's lines after those in its list answer, by the provider's line
   * cursor. The next page is asked for while the caller stages this one (one page ahead, never
   * more: memory stays two pages), so the provider's answer and our database work overlap.
   */
  private async *restOfLines(t: ImportTarget, s: ProviderSettlement, provider: Provider): AsyncIterable<ProviderSettlementLine[]> {
    const first = s.linesCursor ?? null;
    if (first === null) return;
    const fetchLines = provider.fetchSettlementLines?.bind(provider);
    if (!fetchLines) throw new ProviderError(`settlement ${s.providerSettlementId} has more lines than its answer and no way to fetch them`, false);
    const ask = (cursor: string) => fetchLines({ merchant: collectingMerchant(t.orgId, t.providerAccountId), providerSettlementId: s.providerSettlementId, cursor });
    let cursor = first;
    let next = ask(cursor);
    for (;;) {
      const page = await next;
      const more = page.cursor !== null && page.cursor !== cursor;
      if (more) {
        cursor = page.cursor as string;
        next = ask(cursor);
        // A failure of the page asked ahead surfaces when it is awaited, not as an unhandled rejection.
        next.catch(() => undefined);
      }
      yield page.lines;
      if (!more) return;
    }
  }

  /** The normal provider check for each settled payment of an order open, expired or cancelled in Tijori (never a move by the settlement itself). */
  private async checkUnconfirmed(t: ImportTarget, importId: string, lineCount: number): Promise<void> {
    // A batch of positions per statement, as the matching (each statement short on a long settlement).
    for (let from = 1; from <= lineCount; from += MATCH_BATCH) {
      const range = { from, to: from + MATCH_BATCH - 1 };
      for (const o of await staging.stagedOrdersIn(this.deps.db, importId, range, t.orgId, [...CHECKED_STATUSES])) {
        try {
          await checkSettledOrder(this.deps, o);
        } catch (err) {
          this.log.warn({ order_id: o.order_id, err: (err as Error).message }, 'settlement: the provider check of a settled order failed');
        }
      }
    }
  }

  private async detectUnsettled(t: ImportTarget): Promise<void> {
    const days = await repo.expectedDaysOf(this.deps.db, t.orgId);
    if (days === null) return;
    const n = await repo.openUnsettledBreaks(this.deps.db, t.orgId, t.providerAccountId, days, newRowId);
    if (n > 0) this.breaksTotal.inc({ kind: 'UNSETTLED' }, n);
  }
}
