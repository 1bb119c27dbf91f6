/** The SQL CHECK lists of payment orders agree with the domain's one list of states and triggers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ORDER_TRIGGERS, PAYMENT_ORDER_STATUSES } from '../../src/domain/payment-order.js';

const sql = readFileSync('src/store/migrations/0002_payin.sql', 'utf8');
const listAfter = (marker: string): string[] => {
  const start = sql.indexOf(marker);
  const block = sql.slice(start, sql.indexOf(')', start));
  return [...block.matchAll(/'([A-Za-z_]+)'/g)].map((m) => m[1] as string);
};

test('status CHECK = PAYMENT_ORDER_STATUSES', () => {
  assert.deepEqual(listAfter('status                   text NOT NULL CHECK'), [...PAYMENT_ORDER_STATUSES]);
});

test('trigger CHECK = created + ORDER_TRIGGERS', () => {
  assert.deepEqual(listAfter('trigger      text NOT NULL CHECK'), ['created', ...ORDER_TRIGGERS]);
});
