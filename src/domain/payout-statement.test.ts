import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcilePayoutStatement, type StatementEntry, type StatementPayout } from './payout-statement.js';

const payout = (id: string, status: StatementPayout['status'], amountPaise: number, providerPayoutId: string | null): StatementPayout => ({ payoutId: id, status, amountPaise, providerPayoutId });
const debit = (lineId: string, pout: string, debitPaise: number, feesPaise = 0): StatementEntry => ({ lineId, kind: 'PAYOUT', providerPayoutId: pout, debitPaise, creditPaise: 0, feesPaise });
const reversal = (lineId: string, pout: string, creditPaise: number): StatementEntry => ({ lineId, kind: 'REVERSAL', providerPayoutId: pout, debitPaise: 0, creditPaise, feesPaise: 0 });

test('a success debited for its amount, or its amount plus the fees, matches', () => {
  const r = reconcilePayoutStatement(
    [payout('a', 'SUCCESS', 1000, 'pout_a'), payout('b', 'SUCCESS', 2000, 'pout_b')],
    [debit('t1', 'pout_a', 1000), debit('t2', 'pout_b', 2590, 590)],
    new Set(['pout_a', 'pout_b']),
  );
  assert.deepEqual(r, { matched: 2, breaks: [] });
});

test('each break kind, with the payout, the line and both amounts', () => {
  const r = reconcilePayoutStatement(
    [
      payout('notdebited', 'SUCCESS', 1000, 'pout_1'),
      payout('mismatch', 'SUCCESS', 1000, 'pout_2'),
      payout('failed', 'FAILED', 3000, 'pout_3'),
      payout('reversed', 'REVERSED', 4000, 'pout_4'),
      payout('failedok', 'FAILED', 5000, 'pout_5'),
      payout('neversent', 'FAILED', 6000, null),
      payout('processing', 'PROCESSING', 7000, 'pout_7'),
    ],
    [
      debit('t2', 'pout_2', 1100, 0),
      debit('t3', 'pout_3', 3000),
      debit('t4', 'pout_4', 4000),
      debit('t5', 'pout_5', 5000),
      reversal('t5r', 'pout_5', 5000),
      debit('t9', 'pout_9', 900),
      { lineId: 'topup', kind: 'OTHER', providerPayoutId: null, debitPaise: 0, creditPaise: 100000, feesPaise: 0 },
    ],
    new Set(['pout_1', 'pout_2', 'pout_3', 'pout_4', 'pout_5', 'pout_7']),
  );
  const byKind = Object.fromEntries(r.breaks.map((b) => [b.kind, b]));
  assert.deepEqual(Object.keys(byKind).sort(), ['DEBIT_AMOUNT_MISMATCH', 'DEBIT_WITHOUT_PAYOUT', 'FAILED_BUT_DEBITED', 'PAYOUT_NOT_DEBITED', 'REVERSED_NOT_CREDITED']);
  assert.deepEqual(byKind.PAYOUT_NOT_DEBITED, { kind: 'PAYOUT_NOT_DEBITED', payoutId: 'notdebited', providerPayoutId: 'pout_1', lineId: null, expectedPaise: 1000, reportedPaise: null });
  assert.deepEqual(byKind.DEBIT_AMOUNT_MISMATCH, { kind: 'DEBIT_AMOUNT_MISMATCH', payoutId: 'mismatch', providerPayoutId: 'pout_2', lineId: 't2', expectedPaise: 1000, reportedPaise: 1100 });
  assert.deepEqual(byKind.DEBIT_WITHOUT_PAYOUT, { kind: 'DEBIT_WITHOUT_PAYOUT', payoutId: null, providerPayoutId: 'pout_9', lineId: 't9', expectedPaise: null, reportedPaise: 900 });
  assert.equal(byKind.FAILED_BUT_DEBITED!.payoutId, 'failed');
  assert.equal(byKind.REVERSED_NOT_CREDITED!.payoutId, 'reversed');
  // failedok (credited back) and neversent (never reached the provider) are fine; processing is not judged yet.
  assert.equal(r.matched, 2);
  assert.equal(r.breaks.length, 5);
});

test('a debit of an older payout Tijori holds is not taken for one without a payout', () => {
  const r = reconcilePayoutStatement([], [debit('t', 'pout_old', 100)], new Set(['pout_old']));
  assert.deepEqual(r, { matched: 0, breaks: [] });
});
