import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { paymentLine, percentHalfUp, refundLine, settlementTotals } from './settlement-rules.js';

test('2 % fee rounds half up to the paisa at the edges', () => {
  assert.equal(percentHalfUp(24, 2), 0); // 0.48
  assert.equal(percentHalfUp(25, 2), 1); // 0.50 exactly: up
  assert.equal(percentHalfUp(74, 2), 1); // 1.48
  assert.equal(percentHalfUp(75, 2), 2); // 1.50
  assert.equal(percentHalfUp(125, 2), 3); // 2.50
  assert.equal(percentHalfUp(100, 2), 2);
  assert.equal(percentHalfUp(0, 2), 0);
  assert.equal(percentHalfUp(10_000_000_000, 2), 200_000_000);
});

test('18 % GST of a fee rounds half up to the paisa at the edges', () => {
  assert.equal(percentHalfUp(2, 18), 0); // 0.36
  assert.equal(percentHalfUp(3, 18), 1); // 0.54
  assert.equal(percentHalfUp(25, 18), 5); // 4.50 exactly: up
  assert.equal(percentHalfUp(75, 18), 14); // 13.50 exactly: up
  assert.equal(percentHalfUp(36, 18), 6); // 6.48
  assert.throws(() => percentHalfUp(-1, 18), RangeError);
  assert.throws(() => percentHalfUp(1.5, 18), RangeError);
});

test('rounding agrees with exact decimal arithmetic for any amount', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.constantFrom(2, 18), (amount, pct) => {
      const exact = BigInt(amount) * BigInt(pct); // in hundredths of a paisa
      const expected = Number(exact / 100n + (exact % 100n >= 50n ? 1n : 0n));
      assert.equal(percentHalfUp(amount, pct), expected);
    }),
  );
});

test('a payment line: fee and GST; an amount ending in 91 paise settles 100 paise short', () => {
  assert.deepEqual(paymentLine({ collectionReference: 'O1', providerReference: 'P1', paidPaise: 49_900 }), {
    type: 'PAYMENT', collectionReference: 'O1', refundReference: null, providerReference: 'P1', amountPaise: 49_900, feePaise: 998, taxPaise: 180,
  });
  const short = paymentLine({ collectionReference: 'O2', providerReference: 'P2', paidPaise: 100_091 });
  assert.equal(short.amountPaise, 99_991);
  // §9: the fee is 2 % of the payment as paid (2001.82), not of the shortened amount (1999.82 → 2000).
  assert.equal(short.feePaise, 2_002);
  assert.equal(short.taxPaise, 360); // 360.36
  // 191 paise ends in 91 too.
  assert.equal(paymentLine({ collectionReference: 'O3', providerReference: 'P3', paidPaise: 191 }).amountPaise, 91);
});

test('settlement totals: refunds deducted with no fee, net = gross − fees − tax − refunds', () => {
  const lines = [
    paymentLine({ collectionReference: 'O1', providerReference: 'P1', paidPaise: 49_900 }),
    paymentLine({ collectionReference: 'O2', providerReference: 'P2', paidPaise: 125 }),
    refundLine({ collectionReference: 'O1', refundReference: 'R1', providerReference: 'X1', amountPaise: 10_000 }),
  ];
  assert.equal(lines[2]!.feePaise, 0);
  // GST per line: 180 on the fee of 998 and 1 on the fee of 3 (0.54), not 18 % of the summed fees.
  assert.deepEqual(settlementTotals(lines), { gross: 50_025, fees: 1_001, tax: 181, refunds: 10_000, adjustments: 0, net: 50_025 - 1_001 - 181 - 10_000 });
});

test('the worked example of docs/accounting.md: 1,000.00 and 499.91 paid, 200.00 refunded, one settlement', () => {
  const lines = [
    paymentLine({ collectionReference: 'O1', providerReference: 'P1', paidPaise: 100_000 }),
    paymentLine({ collectionReference: 'O2', providerReference: 'P2', paidPaise: 49_991 }),
    refundLine({ collectionReference: 'O1', refundReference: 'R1', providerReference: 'X1', amountPaise: 20_000 }),
  ];
  // 499.91 settles as 498.91; its fee is 2 % of 499.91 = 9.9982 → 10.00, GST 1.80.
  assert.deepEqual(lines[1]!.amountPaise, 49_891);
  assert.deepEqual(settlementTotals(lines), { gross: 149_891, fees: 3_000, tax: 540, refunds: 20_000, adjustments: 0, net: 126_351 });
});
