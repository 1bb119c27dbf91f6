import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from './errors.js';
import {
  applyTrigger,
  assertTransition,
  canTransition,
  confirmationOutcome,
  failureOutcome,
  initialOrderStatus,
  isFinal,
  isOpen,
  isPaymentOrderStatus,
  isTerminal,
  judgeConfirmation,
  OPEN_ORDER_STATUSES,
  ORDER_TRANSITIONS,
  ORDER_TRIGGERS,
  PAYMENT_ORDER_STATUSES,
  transitionTrigger,
} from './payment-order.js';
import type { PaymentOrderStatus } from './payment-order.js';

// Written out by hand from contract §4 so the table is checked against an independent copy.
const LEGAL: Record<string, string> = {
  'AWAITING_CUSTOMER>PENDING_PAYMENT': 'payer_details',
  'PENDING_PAYMENT>AWAITING_CONFIRMATION': 'payer_reference',
  'AWAITING_CUSTOMER>PAID': 'provider_confirmed',
  'PENDING_PAYMENT>PAID': 'provider_confirmed',
  'AWAITING_CONFIRMATION>PAID': 'provider_confirmed',
  'AWAITING_CUSTOMER>MANUALLY_CONFIRMED': 'operations_review',
  'PENDING_PAYMENT>MANUALLY_CONFIRMED': 'operations_review',
  'AWAITING_CONFIRMATION>MANUALLY_CONFIRMED': 'operations_review',
  'AWAITING_CUSTOMER>FAILED': 'provider_failed',
  'PENDING_PAYMENT>FAILED': 'provider_failed',
  'AWAITING_CONFIRMATION>FAILED': 'provider_failed',
  'AWAITING_CUSTOMER>EXPIRED': 'expired',
  'PENDING_PAYMENT>EXPIRED': 'expired',
  'AWAITING_CONFIRMATION>EXPIRED': 'expired',
  'AWAITING_CUSTOMER>CANCELLED': 'merchant_cancel',
  'PENDING_PAYMENT>CANCELLED': 'merchant_cancel',
  'AWAITING_CONFIRMATION>CANCELLED': 'merchant_cancel',
  'EXPIRED>MANUALLY_CONFIRMED': 'operations_review',
  'CANCELLED>MANUALLY_CONFIRMED': 'operations_review',
  'FAILED>MANUALLY_CONFIRMED': 'operations_review',
  'PAID>REFUNDED': 'refund_completed',
  'MANUALLY_CONFIRMED>REFUNDED': 'refund_completed',
};

test('every pair of states is legal exactly when the contract says so', () => {
  let checked = 0;
  for (const from of PAYMENT_ORDER_STATUSES) {
    for (const to of PAYMENT_ORDER_STATUSES) {
      const expected = LEGAL[`${from}>${to}`];
      checked += 1;
      assert.equal(canTransition(from, to), expected !== undefined, `${from} -> ${to}`);
      assert.equal(transitionTrigger(from, to), expected, `${from} -> ${to}`);
      if (expected === undefined) {
        assert.throws(() => assertTransition(from, to), (err: unknown) =>
          err instanceof AppError && err.code === 'INVALID_STATE' && err.status === 409 &&
          err.message.includes(from) && err.message.includes(to));
      } else {
        assert.equal(assertTransition(from, to), expected);
      }
    }
  }
  assert.equal(checked, 81);
  assert.equal(ORDER_TRANSITIONS.length, Object.keys(LEGAL).length, 'no duplicate rows');
});

test('late provider confirmations are never a legal move out of a closed order', () => {
  for (const from of ['EXPIRED', 'CANCELLED', 'FAILED'] as const) {
    assert.equal(canTransition(from, 'PAID'), false);
    assert.equal(confirmationOutcome(from), 'flag_for_review');
  }
  for (const from of ['PAID', 'MANUALLY_CONFIRMED', 'REFUNDED'] as const) {
    assert.equal(confirmationOutcome(from), 'already_applied');
  }
  for (const from of OPEN_ORDER_STATUSES) assert.equal(confirmationOutcome(from), 'apply');
});

test('a confirmation is applied only when amount and provider reference match the order', () => {
  const order = (status: PaymentOrderStatus, bankTransactionId: string | null = null) => ({ status, amountPaise: 5_000_000, providerReference: 'SBX1', bankTransactionId });
  const reported = (extra: Partial<{ utr: string; amountPaise: number; providerReference: string }> = {}) => ({ utr: '123456789012', amountPaise: 5_000_000, providerReference: 'SBX1', ...extra });
  for (const open of OPEN_ORDER_STATUSES) {
    assert.equal(judgeConfirmation({ order: order(open), reported: reported() }), 'apply');
    assert.equal(judgeConfirmation({ order: order(open), reported: reported({ amountPaise: 100 }) }), 'review_mismatch');
    assert.equal(judgeConfirmation({ order: order(open), reported: reported({ providerReference: 'SBX2' }) }), 'review_mismatch');
    assert.equal(judgeConfirmation({ order: { ...order(open), providerReference: null }, reported: reported() }), 'review_mismatch');
  }
  // FAILED too: money may have moved after the provider reported the failure (docs/payin.md).
  for (const closed of ['EXPIRED', 'CANCELLED', 'FAILED'] as const) {
    assert.equal(judgeConfirmation({ order: order(closed), reported: reported() }), 'review_late');
    assert.equal(judgeConfirmation({ order: order(closed), reported: reported({ amountPaise: 4_999_999 }) }), 'review_mismatch');
  }
  assert.equal(judgeConfirmation({ order: order('PAID', '123456789012'), reported: reported() }), 'duplicate');
  assert.equal(judgeConfirmation({ order: order('PAID', '123456789012'), reported: reported({ utr: '999999999999' }) }), 'record_only');
});

test('provider failures apply only to open orders', () => {
  for (const status of PAYMENT_ORDER_STATUSES) {
    assert.equal(failureOutcome(status), isOpen(status) ? 'apply' : 'ignore', status);
    assert.equal(failureOutcome(status) === 'apply', canTransition(status, 'FAILED'), status);
  }
});

test('open, final and terminal partition the states as documented', () => {
  const open = PAYMENT_ORDER_STATUSES.filter(isOpen);
  assert.deepEqual(open, ['AWAITING_CUSTOMER', 'PENDING_PAYMENT', 'AWAITING_CONFIRMATION']);
  assert.deepEqual(PAYMENT_ORDER_STATUSES.filter(isFinal),
    ['PAID', 'MANUALLY_CONFIRMED', 'FAILED', 'EXPIRED', 'CANCELLED', 'REFUNDED']);
  const terminal: PaymentOrderStatus[] = ['REFUNDED'];
  assert.deepEqual(PAYMENT_ORDER_STATUSES.filter(isTerminal), terminal);
  assert.equal(isTerminal('PAID'), false);
  // Operations review can still confirm an expired, cancelled or failed order (contract §6).
  assert.equal(isTerminal('EXPIRED'), false);
  assert.equal(isTerminal('FAILED'), false);
  assert.equal(isFinal('PAID'), true);
});

test('applyTrigger follows the table and refuses triggers that do not apply', () => {
  for (const from of PAYMENT_ORDER_STATUSES) {
    for (const trigger of ORDER_TRIGGERS) {
      const row = ORDER_TRANSITIONS.find((t) => t.from === from && t.trigger === trigger);
      if (row === undefined) {
        assert.throws(() => applyTrigger(from, trigger), (e: unknown) => e instanceof AppError && e.code === 'INVALID_STATE');
      } else {
        assert.equal(applyTrigger(from, trigger), row.to);
      }
    }
  }
});

test('initial states, guards and the enum list', () => {
  assert.equal(initialOrderStatus('CHECKOUT'), 'AWAITING_CUSTOMER');
  assert.equal(initialOrderStatus('INTENT'), 'PENDING_PAYMENT');
  assert.equal(isPaymentOrderStatus('PAID'), true);
  assert.equal(isPaymentOrderStatus('paid'), false);
  assert.equal(isPaymentOrderStatus(undefined), false);
  assert.equal(new Set(PAYMENT_ORDER_STATUSES).size, 9);
});
