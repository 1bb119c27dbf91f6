import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  collectionConfirmed,
  compareBalances,
  isBalanced,
  LEDGER_ACCOUNTS,
  payoutCreated,
  payoutFailed,
  payoutReversed,
  payoutSucceeded,
  type Posting,
  refundCompleted,
  settlementImported,
} from './ledger.js';

/** Balances after a sequence of entries' postings. */
function balances(...entries: Posting[][]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of entries.flat()) out[p.account] = (out[p.account] ?? 0) + p.amountPaise;
  for (const k of Object.keys(out)) if (out[k] === 0) delete out[k];
  return out;
}

test('every builder gives a balanced entry of known accounts', () => {
  const s = settlementImported({ grossPaise: 100_000, feesPaise: 2_000, taxPaise: 360, refundsPaise: 5_000, adjustmentsPaise: 40, netPaise: 92_600 });
  for (const e of [collectionConfirmed(49_900), refundCompleted(100), payoutCreated(1_00_00_000), payoutSucceeded(101), payoutFailed(101), payoutReversed(101), s]) {
    assert.equal(isBalanced(e.postings), true, e.kind);
    for (const p of e.postings) assert.ok((LEDGER_ACCOUNTS as readonly string[]).includes(p.account), p.account);
  }
});

test('a confirmed collection, a partial refund and a settlement: collections_receivable holds what §9 says', () => {
  // Two collections of 1,000.00 and 499.91, a refund of 200.00 of the first, then a settlement of both
  // payments by the sandbox's rules: 499.91 ends in 91 paise, so it settles as 498.91 (gross 1,498.91);
  // fees 2 % of each payment as paid = 20.00 + 10.00, GST 18 % = 3.60 + 1.80; refund 200.00 deducted.
  const c1 = collectionConfirmed(100_000).postings;
  const c2 = collectionConfirmed(49_991).postings;
  const r = refundCompleted(20_000).postings;
  assert.deepEqual(balances(c1, c2, r), { collections_receivable: 129_991, collections: -149_991, refunds: 20_000 });
  const s = settlementImported({ grossPaise: 149_891, feesPaise: 3_000, taxPaise: 540, refundsPaise: 20_000, adjustmentsPaise: 0, netPaise: 126_351 }).postings;
  // confirmed − refunds − (gross − refunds deducted) = 149,991 − 20,000 − 129,891 = 100: the 1.00 the
  // PSP settled short stays receivable (and the line is an AMOUNT_MISMATCH break).
  assert.deepEqual(balances(c1, c2, r, s), { collections_receivable: 100, collections: -149_991, refunds: 20_000, settled: 126_351, fees: 3_000, taxes: 540 });
});

test('a settlement of part of what was collected leaves the rest receivable', () => {
  const s = settlementImported({ grossPaise: 30_000, feesPaise: 600, taxPaise: 108, refundsPaise: 0, adjustmentsPaise: 0, netPaise: 29_292 }).postings;
  assert.deepEqual(balances(collectionConfirmed(30_000).postings, collectionConfirmed(45_000).postings, s), {
    collections_receivable: 45_000, collections: -75_000, settled: 29_292, fees: 600, taxes: 108,
  });
});

test('payouts: in flight until final; success pays; failure releases; a reversal brings the amount back', () => {
  const created = payoutCreated(5_000).postings;
  assert.deepEqual(balances(created), { payouts_in_flight: 5_000, payout_funding: -5_000 });
  assert.deepEqual(balances(created, payoutSucceeded(5_000).postings), { payouts_paid: 5_000, payout_funding: -5_000 });
  assert.deepEqual(balances(created, payoutFailed(5_000).postings), {});
  assert.deepEqual(balances(created, payoutSucceeded(5_000).postings, payoutReversed(5_000).postings), {});
});

test('a settlement whose totals do not add up, a negative fee, or a fractional amount is refused', () => {
  assert.throws(() => settlementImported({ grossPaise: 10_000, feesPaise: 200, taxPaise: 36, refundsPaise: 0, adjustmentsPaise: 0, netPaise: 9_765 }), /is not gross/);
  assert.throws(() => settlementImported({ grossPaise: 10_000, feesPaise: -200, taxPaise: 36, refundsPaise: 0, adjustmentsPaise: 0, netPaise: 10_164 }), /fees must be/);
  assert.throws(() => collectionConfirmed(10.5), RangeError);
  assert.throws(() => refundCompleted(0), RangeError);
});

test('a settlement whose refunds exceed its gross has a negative net (the bank was debited) and stays balanced', () => {
  const e = settlementImported({ grossPaise: 1_000, feesPaise: 20, taxPaise: 4, refundsPaise: 5_000, adjustmentsPaise: 0, netPaise: -4_024 });
  assert.equal(isBalanced(e.postings), true);
  assert.deepEqual(balances(e.postings), { settled: -4_024, fees: 20, taxes: 4, collections_receivable: 4_000 });
});

test('compareBalances: equal sums match whatever their terms; a missing side counts as zero', () => {
  const pa = '00000000-0000-0000-0000-000000000000';
  const j = [{ provider_account_id: pa, account: 'collections_receivable', balance_paise: 800 }, { provider_account_id: pa, account: 'payouts_in_flight', balance_paise: 0 }];
  const r = [
    { provider_account_id: pa, account: 'collections_receivable', balance_paise: 1_000 },
    { provider_account_id: pa, account: 'collections_receivable', balance_paise: -200 },
  ];
  assert.deepEqual(compareBalances(j, r), []);
  assert.deepEqual(compareBalances(j, [...r, { provider_account_id: pa, account: 'refunds', balance_paise: 200 }]), [
    { provider_account_id: pa, account: 'refunds', journal_paise: 0, records_paise: 200 },
  ]);
});
