/**
 * What `tijori sandbox stats` reports (contract §2). The PSP side counts status inquiries per
 * collection reference (= the service's order_id); the bank side counts executions per
 * payout reference (= the service's transaction_id), and the PSP's refund executions per refund
 * reference (= the service's refund_id).
 */
import * as bankRepo from './repos/bank-repo.js';
import * as pspRepo from './repos/psp-repo.js';
import type { SandboxDeps } from './deps.js';

export interface SandboxStats {
  payin_status_checks: Record<string, number>;
  payout_executions: Record<string, number>;
  refund_executions: Record<string, number>;
}

export async function payinStatusCheckStats(deps: Pick<SandboxDeps, 'db'>): Promise<Record<string, number>> {
  return pspRepo.statusCheckCounts(deps.db);
}

/** Executions per payout transaction_id, from the sandbox bank's ledger. */
export async function payoutExecutionStats(deps: Pick<SandboxDeps, 'db'>): Promise<Record<string, number>> {
  return bankRepo.executionCounts(deps.db);
}

export async function sandboxStats(deps: Pick<SandboxDeps, 'db'>): Promise<SandboxStats> {
  const [payin, payout, refunds] = await Promise.all([payinStatusCheckStats(deps), payoutExecutionStats(deps), pspRepo.refundExecutionCounts(deps.db)]);
  return { payin_status_checks: payin, payout_executions: payout, refund_executions: refunds };
}
