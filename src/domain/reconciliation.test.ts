import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineAnomalies, lineNet, matchPayment, matchRefund, totalsDifferences, totalsOfLines } from './reconciliation.js';

const line = (o: Partial<{ type: string; amountPaise: number; feePaise: number; taxPaise: number; currency: string }> = {}) => ({ type: 'PAYMENT', amountPaise: 10_000, feePaise: 200, taxPaise: 36, currency: 'INR', ...o });

test('a payment line against the order', () => {
  assert.deepEqual(matchPayment(null, line(), false), { match: 'UNKNOWN_ORDER', expectedPaise: null });
  assert.deepEqual(matchPayment({ status: 'PAID', amountPaise: 10_000 }, line(), false), { match: 'MATCHED', expectedPaise: 10_000 });
  assert.deepEqual(matchPayment({ status: 'REFUNDED', amountPaise: 10_000 }, line(), false).match, 'MATCHED');
  assert.deepEqual(matchPayment({ status: 'MANUALLY_CONFIRMED', amountPaise: 10_100 }, line(), false), { match: 'AMOUNT_MISMATCH', expectedPaise: 10_100 });
  assert.equal(matchPayment({ status: 'PAID', amountPaise: 10_000 }, line(), true).match, 'DUPLICATE');
  for (const s of ['EXPIRED', 'CANCELLED', 'PENDING_PAYMENT', 'FAILED']) assert.equal(matchPayment({ status: s, amountPaise: 10_000 }, line(), false).match, 'NOT_PAID_IN_TIJORI');
});

test('a refund line against the refund', () => {
  assert.equal(matchRefund(null, line(), false).match, 'UNKNOWN_ORDER');
  assert.equal(matchRefund({ status: 'COMPLETED', amountPaise: 10_000 }, line(), false).match, 'MATCHED');
  assert.equal(matchRefund({ status: 'COMPLETED', amountPaise: 9_000 }, line(), false).match, 'AMOUNT_MISMATCH');
  assert.equal(matchRefund({ status: 'PROCESSING', amountPaise: 10_000 }, line(), false).match, 'NOT_PAID_IN_TIJORI');
  assert.equal(matchRefund({ status: 'COMPLETED', amountPaise: 10_000 }, line(), true).match, 'DUPLICATE');
});

test('bad data of a line', () => {
  assert.deepEqual(lineAnomalies(line()), []);
  assert.deepEqual(lineAnomalies(line({ feePaise: -1 })).map((a) => a.kind), ['NEGATIVE_AMOUNT']);
  assert.deepEqual(lineAnomalies(line({ type: 'REFUND_REVERSAL' })).map((a) => a.kind), ['UNKNOWN_LINE_TYPE']);
  assert.deepEqual(lineAnomalies(line({ currency: 'USD', amountPaise: -5 })).map((a) => a.kind), ['NEGATIVE_AMOUNT', 'NOT_INR']);
});

test('totals of lines and their differences from what the provider states', () => {
  const t = totalsOfLines([line(), line({ type: 'REFUND', amountPaise: 3_000, feePaise: 0, taxPaise: 0 }), line({ type: 'CHARGEBACK', amountPaise: 500, feePaise: 0, taxPaise: 0 })]);
  assert.deepEqual(t, { grossPaise: 10_000, feesPaise: 200, taxPaise: 36, refundsPaise: 3_000, adjustmentsPaise: 500, netPaise: 10_000 - 200 - 36 - 3_000 - 500 });
  assert.deepEqual(totalsDifferences({ feesPaise: 200, taxPaise: 36 }, t), []);
  assert.deepEqual(totalsDifferences({ feesPaise: 207 }, t), ['fees stated 207, lines add up to 200']);
  assert.equal(lineNet(line()), 10_000 - 236);
  assert.equal(lineNet(line({ type: 'REFUND', amountPaise: 3_000, feePaise: 0, taxPaise: 0 })), -3_000);
});
