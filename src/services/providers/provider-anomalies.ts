/**
 * Provider anomalies recorded durably (issue #22, migration 0028) and read by the console. The
 * connectors report through a sink bound to their account (src/providers/anomalies.ts); the sink
 * writes the row in the background, so a connector's synchronous paths (webhook parsing) stay
 * synchronous. Anomalies are rare (a provider that answers outside its documents), so each is one
 * plain insert: not batched, not in the store's batch table (src/store/batched.ts). The callback intake waits for the writes of the anomalies its request caused
 * (`settled`) before it answers, so a provider that gets its answer finds its anomaly recorded.
 * A failed write is logged and dropped: the anomaly is also in the log and the metric, and never
 * moved money.
 */
import { validationError } from '../../domain/errors.js';
import { isUuid } from '../../domain/text.js';
import type { Logger } from '../../observability/logger.js';
import { type AnomalyReport, type AnomalySink, cut, safeExcerpt, storableText } from '../../providers/anomalies.js';
import type { Db } from '../../store/db.js';
import * as repo from '../../store/repos/provider-anomalies-repo.js';
import { newRowId } from '../../store/row-id.js';
import { type Page, rowsPage } from '../shared/list-page.js';

export interface AnomalyView {
  id: string;
  provider_account_id: string;
  provider: string;
  kind: string;
  operation: string | null;
  /** The order (`payment_order`, its order_id) or payout (`payout`, its transaction_id) the provider named. */
  resource: { type: string; ref: string } | null;
  excerpt: string;
  created_at: string;
}

function viewOf(r: repo.AnomalyRow): AnomalyView {
  return {
    id: r.id,
    provider_account_id: r.provider_account_id,
    provider: r.provider,
    kind: r.kind,
    operation: r.operation,
    resource: r.resource_type && r.resource_ref ? { type: r.resource_type, ref: r.resource_ref } : null,
    excerpt: r.excerpt,
    created_at: r.created_at.toISOString(),
  };
}

/** A list cursor is the id of the last row shown. */
function cursorId(cursor: string): string {
  if (!isUuid(cursor)) throw validationError([{ field: 'cursor', issue: 'must be the next_cursor of a previous page' }]);
  return cursor.toLowerCase();
}

/** A provider-given string, storable and at most `n` code points. */
const short = (s: string, n: number) => cut(storableText(s), n);

export class ProviderAnomalies {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: { db: Db; log: Logger }) {}

  /** The sink of one provider account's connector. */
  sinkFor(accountId: string, provider: string): AnomalySink {
    return (report: AnomalyReport) => void this.record(accountId, provider, report);
  }

  /** Starts the write; the promise (also tracked for `settled`) never rejects: a failure is logged. */
  record(accountId: string, provider: string, report: AnomalyReport): Promise<void> {
    const row: repo.NewAnomaly = {
      id: newRowId(),
      provider_account_id: accountId,
      provider: short(provider, 20),
      kind: short(report.kind, 64) || 'unknown',
      operation: short(report.operation, 32) || null,
      resource_type: report.resource && report.resource.ref ? report.resource.type : null,
      resource_ref: report.resource && report.resource.ref ? short(report.resource.ref, 200) : null,
      excerpt: safeExcerpt(report.detail),
    };
    const write = repo.insertAnomalies(this.deps.db, [row]).then(() => undefined).catch((err: unknown) => {
      this.deps.log.error({ provider_account_id: accountId, anomaly: report.kind, err: (err as Error).message }, 'provider anomaly not recorded (it is logged and counted)');
    });
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
    return write;
  }

  /**
   * A bank answer the payout rules refused after the connector passed it on (a success whose UTR
   * has not the mode's shape): recorded against the provider account of the attempt's bank
   * connection, naming the payout. The built-in sandbox has no account: logged and counted only.
   */
  recordForAttempt(attemptId: string, report: Omit<AnomalyReport, 'resource'>): void {
    const write = (async () => {
      const a = await repo.accountOfAttempt(this.deps.db, attemptId);
      if (!a?.provider_account_id) return;
      await this.record(a.provider_account_id, a.provider, { ...report, resource: { type: 'payout', ref: a.transaction_id } });
    })().catch((err: unknown) => {
      this.deps.log.error({ attempt_id: attemptId, anomaly: report.kind, err: (err as Error).message }, 'provider anomaly not recorded (it is logged and counted)');
    });
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  /**
   * Resolves when every anomaly reported so far is written (or its failure logged): the writes in
   * flight now, not those started while waiting, so a steady stream of other anomalies never
   * holds a caller (the callback intake) up.
   */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** The console's list: one account's, one resource's, or all of the organization's, newest first. */
  async list(q: {
    orgId: string;
    accountId?: string | undefined;
    resource?: { type: 'payment_order' | 'payout'; ref: string } | undefined;
    cursor?: string | undefined;
    limit: number;
  }): Promise<Page<AnomalyView>> {
    if (q.accountId !== undefined && !isUuid(q.accountId)) throw validationError([{ field: 'provider_account_id', issue: 'must be a provider account id (UUID)' }]);
    const rows = await repo.listAnomalies(this.deps.db, {
      orgId: q.orgId,
      accountId: q.accountId?.toLowerCase(),
      resource: q.resource,
      ...(q.cursor !== undefined ? { beforeId: cursorId(q.cursor) } : {}),
      limit: q.limit + 1,
    });
    return rowsPage(rows, q.limit, viewOf, (last) => last.id);
  }
}
