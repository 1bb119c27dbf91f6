/**
 * A payout account's statement against Tijori's payouts (issue #33 item 6): pure, so the rule is
 * tested without a provider or a database. The provider's statement is the bank's word on what
 * left the account; Tijori's payouts are what it told merchants. Breaks:
 * - PAYOUT_NOT_DEBITED: a payout Tijori holds as SUCCESS has no debit in the statement;
 * - DEBIT_WITHOUT_PAYOUT: a payout debit Tijori has no payout for (made outside Tijori, or lost);
 * - DEBIT_AMOUNT_MISMATCH: the debit is neither the amount nor the amount plus the provider's fees
 *   (whether fees are debited with the payout depends on the account's fee model);
 * - FAILED_BUT_DEBITED: a payout Tijori holds as FAILED was debited and not credited back;
 * - REVERSED_NOT_CREDITED: a payout Tijori holds as REVERSED was debited and not credited back.
 * A line that is neither a payout's debit nor its reversal (a top-up, a fee) is not Tijori's to match.
 */
import type { PayoutStatus } from './payout.js';

export const STATEMENT_BREAK_KINDS = ['PAYOUT_NOT_DEBITED', 'DEBIT_WITHOUT_PAYOUT', 'DEBIT_AMOUNT_MISMATCH', 'FAILED_BUT_DEBITED', 'REVERSED_NOT_CREDITED'] as const;
export type StatementBreakKind = (typeof STATEMENT_BREAK_KINDS)[number];

export interface StatementPayout {
  payoutId: string;
  status: PayoutStatus;
  amountPaise: number;
  /** The provider's id of the payout (its bank_reference); null when it never reached the provider. */
  providerPayoutId: string | null;
}

export interface StatementEntry {
  lineId: string;
  kind: 'PAYOUT' | 'REVERSAL' | 'OTHER';
  providerPayoutId: string | null;
  debitPaise: number;
  creditPaise: number;
  feesPaise: number;
}

export interface StatementBreak {
  kind: StatementBreakKind;
  payoutId: string | null;
  providerPayoutId: string | null;
  lineId: string | null;
  expectedPaise: number | null;
  reportedPaise: number | null;
}

export interface StatementReconciliation {
  matched: number;
  breaks: StatementBreak[];
}

/**
 * `payouts`: every payout of the account that the statement's window can concern (the caller
 * includes payouts made shortly before the window); `lines`: the window's statement.
 * `knownProviderIds`: every provider payout id Tijori holds for the account, whatever its date, so
 * that a debit of an older payout is not taken for one without a payout.
 */
export function reconcilePayoutStatement(payouts: readonly StatementPayout[], lines: readonly StatementEntry[], knownProviderIds: ReadonlySet<string>): StatementReconciliation {
  const debits = new Map<string, StatementEntry[]>();
  const credited = new Set<string>();
  const breaks: StatementBreak[] = [];
  for (const l of lines) {
    if (l.kind === 'REVERSAL' && l.providerPayoutId) credited.add(l.providerPayoutId);
    if (l.kind !== 'PAYOUT' || !l.providerPayoutId) continue;
    debits.set(l.providerPayoutId, [...(debits.get(l.providerPayoutId) ?? []), l]);
    if (!knownProviderIds.has(l.providerPayoutId)) {
      breaks.push({ kind: 'DEBIT_WITHOUT_PAYOUT', payoutId: null, providerPayoutId: l.providerPayoutId, lineId: l.lineId, expectedPaise: null, reportedPaise: l.debitPaise });
    }
  }
  let matched = 0;
  for (const p of payouts) {
    const mine = p.providerPayoutId ? (debits.get(p.providerPayoutId) ?? []) : [];
    const at = (kind: StatementBreakKind, line: StatementEntry | null): StatementBreak => ({
      kind, payoutId: p.payoutId, providerPayoutId: p.providerPayoutId, lineId: line?.lineId ?? null, expectedPaise: p.amountPaise, reportedPaise: line?.debitPaise ?? null,
    });
    if (p.status === 'SUCCESS') {
      const line = mine[0];
      if (!line) breaks.push(at('PAYOUT_NOT_DEBITED', null));
      else if (line.debitPaise !== p.amountPaise && line.debitPaise !== p.amountPaise + line.feesPaise) breaks.push(at('DEBIT_AMOUNT_MISMATCH', line));
      else matched += 1;
    } else if ((p.status === 'FAILED' || p.status === 'REVERSED') && mine[0] && !credited.has(p.providerPayoutId!)) {
      breaks.push(at(p.status === 'FAILED' ? 'FAILED_BUT_DEBITED' : 'REVERSED_NOT_CREDITED', mine[0]));
    } else if (p.status === 'FAILED' || p.status === 'REVERSED') {
      matched += 1;
    }
  }
  return { matched, breaks };
}
