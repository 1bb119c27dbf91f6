import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProviderSettlement, ProviderSettlementLine } from '../../providers/provider.js';
import { sanitizeSettlement } from './settlement-sanitize.js';

const line = (lineId: string, over: Partial<ProviderSettlementLine> = {}): ProviderSettlementLine => ({
  lineId, type: 'PAYMENT', orderReference: 'PO1', refundReference: null, providerPaymentId: '9', amountPaise: 100, feePaise: 2, taxPaise: 0, currency: 'INR', ...over,
});
const settlement = (over: Partial<ProviderSettlement>): ProviderSettlement => ({
  providerSettlementId: 'S1', utr: 'UTR1', settledAt: new Date(0), currency: 'INR', totals: null, charges: null, lines: [], ...over,
});

test('a repeated line id is stored once; a repeat that says something else is a problem of the settlement', () => {
  const same = sanitizeSettlement(settlement({ lines: [line('A'), line('A'), line('B')] }));
  assert.ok('settlement' in same);
  assert.deepEqual(same.settlement.lines.map((l) => l.lineId), ['A', 'B']);
  assert.equal(same.settlement.problems, undefined);
  const other = sanitizeSettlement(settlement({ lines: [line('A'), line('A', { amountPaise: 999 })] }));
  assert.ok('settlement' in other);
  assert.deepEqual(other.settlement.lines.map((l) => l.amountPaise), [100]);
  assert.match(other.settlement.problems![0]!, /sent twice with different data/);
});

test('over-long fields are cut to their column and the line marked invalid; a UTR too long is not stored; an id too long rejects the settlement', () => {
  const r = sanitizeSettlement(settlement({ utr: 'U'.repeat(65), lines: [line('L'.repeat(101), { orderReference: 'O'.repeat(200) }), line('ok')] }));
  assert.ok('settlement' in r);
  assert.equal(r.settlement.utr, null);
  assert.match(r.settlement.problems![0]!, /utr is 65 characters/);
  const [long, ok] = r.settlement.lines;
  assert.equal(long!.lineId.length, 100);
  assert.equal(long!.orderReference!.length, 100);
  assert.match(long!.invalid!, /line id is 101 characters.*order reference is 200 characters/);
  assert.equal(ok!.invalid, undefined);
  assert.ok('rejected' in sanitizeSettlement(settlement({ providerSettlementId: 'S'.repeat(101) })));
  assert.ok('rejected' in sanitizeSettlement(settlement({ providerSettlementId: '' })));
});
