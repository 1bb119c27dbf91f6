/** Cashfree pieces without I/O: exact amounts, the webhook signature and its window, status tables, config rules. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { livemodeOfConfig, validateProviderConfig } from '../accounts/config.js';
import { cashfreeAmountToPaise, jsonWithAmounts, rupeeLiteral } from './amount.js';
import { istTimestamp } from './adapter.js';
import { cashfreeSignature, verifyCashfreeSignature } from './signature.js';
import { PAYMENT_STATUS, paymentMeaning, REFUND_STATUS, refundMeaning } from './statuses.js';

test('paise to a two-decimal rupee literal and back, exactly', () => {
  assert.equal(rupeeLiteral(100), '1.00');
  assert.equal(rupeeLiteral(1015), '10.15');
  assert.equal(rupeeLiteral(49_900), '499.00');
  assert.equal(rupeeLiteral(1_000_000_001), '10000000.01');
  assert.equal(jsonWithAmounts({ order_id: 'A', order_amount: 0, note: 'x' }, { order_amount: 1_000 }), '{"order_id":"A","order_amount":10.00,"note":"x"}');
  for (const [given, paise] of [[10.15, 1015], [499, 49_900], [0.1, 10], [1.01, 101], [170.0, 17_000], [10_000_000.01, 1_000_000_001]] as const) {
    assert.equal(cashfreeAmountToPaise(given), paise, String(given));
  }
  for (const bad of [10.155, '10.15', -1, Number.NaN, 1e21, null, undefined]) assert.equal(cashfreeAmountToPaise(bad), null, String(bad));
  // Parsing what we wrote gives the same paise back for every amount up to 10,000.00.
  for (let p = 1; p <= 1_000_000; p += 7) assert.equal(cashfreeAmountToPaise(JSON.parse(rupeeLiteral(p))), p);
});

test('webhook signature: Base64 HMAC-SHA256 of timestamp + raw body; stale, forged, missing, re-serialised all refused', () => {
  // The documents' algorithm (signature-verification.md) with their example timestamp; they give no secret or signature to compare with.
  const ts = '1617695238078';
  const body = '{"data":{"order":{"order_id":"order_OFRs2nq","order_amount":170.00}},"type":"PAYMENT_SUCCESS_WEBHOOK"}';
  const sig = cashfreeSignature('secret', ts, body);
  assert.match(sig, /^[A-Za-z0-9+/]{43}=$/);
  const now = 1617695238078;
  assert.equal(verifyCashfreeSignature('secret', body, ts, sig, now), 'ok');
  assert.equal(verifyCashfreeSignature('secret', body, ts, sig, now + 300_000), 'ok');
  assert.equal(verifyCashfreeSignature('secret', body, ts, sig, now + 300_001), 'stale');
  assert.equal(verifyCashfreeSignature('secret', body, ts, sig, now - 300_001), 'stale');
  assert.equal(verifyCashfreeSignature('other', body, ts, sig, now), 'bad');
  assert.equal(verifyCashfreeSignature('secret', JSON.stringify(JSON.parse(body)), ts, sig, now), 'bad', '170.00 re-serialised as 170');
  assert.equal(verifyCashfreeSignature('secret', body, undefined, sig, now), 'missing');
  assert.equal(verifyCashfreeSignature('secret', body, ts, undefined, now), 'missing');
  assert.equal(verifyCashfreeSignature('secret', body, `${ts}x`, sig, now), 'bad');
});

test('every documented status is mapped; anything else is unknown (null), never a guess', () => {
  assert.deepEqual(Object.keys(PAYMENT_STATUS).sort(), ['CANCELLED', 'FAILED', 'NOT_ATTEMPTED', 'PENDING', 'SUCCESS', 'USER_DROPPED', 'VOID']);
  assert.deepEqual(Object.keys(REFUND_STATUS).sort(), ['CANCELLED', 'FAILED', 'ONHOLD', 'PENDING', 'SUCCESS']);
  assert.equal(paymentMeaning('SUCCESS'), 'paid');
  assert.equal(paymentMeaning('USER_DROPPED'), 'failed');
  assert.equal(paymentMeaning('success'), null);
  assert.equal(paymentMeaning('toString'), null);
  assert.equal(refundMeaning('ONHOLD'), 'pending');
  assert.equal(refundMeaning('REVERSED'), null);
});

test('expiry time in the documented IST form', () => {
  assert.equal(istTimestamp(new Date('2021-07-02T04:50:12.999Z')), '2021-07-02T10:20:12+05:30');
});

test('account configs: defaults, livemode from the production address, http only to loopback outside production, unknown keys refused', () => {
  const cf = validateProviderConfig('cashfree', { client_id: 'id', client_secret: 's' }, { production: false });
  assert.deepEqual(cf, { provider: 'cashfree', base_url: 'https://api.cashfree.com/pg', client_id: 'id', client_secret: 's', api_version: '2025-01-01' });
  assert.equal(livemodeOfConfig(cf), true);
  const sb = validateProviderConfig('cashfree', { base_url: 'https://sandbox.cashfree.com/pg/', client_id: 'id', client_secret: 's', api_version: '2023-08-01' }, { production: true });
  assert.equal(livemodeOfConfig(sb), false);
  assert.equal((sb as { base_url: string }).base_url, 'https://sandbox.cashfree.com/pg');
  assert.equal(livemodeOfConfig(validateProviderConfig('cashfree', { base_url: 'http://127.0.0.1:9/pg', client_id: 'i', client_secret: 's' }, { production: false })), false);
  const issues = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      return (err as { details?: Array<{ field: string }> }).details?.map((d) => d.field);
    }
    return [];
  };
  assert.deepEqual(issues(() => validateProviderConfig('cashfree', { base_url: 'http://127.0.0.1:9/pg', client_id: 'i', client_secret: 's' }, { production: true })), ['config.base_url']);
  assert.deepEqual(issues(() => validateProviderConfig('cashfree', { base_url: 'http://example.com/pg', client_id: 'i', client_secret: 's' }, { production: false })), ['config.base_url']);
  assert.deepEqual(issues(() => validateProviderConfig('cashfree', { client_id: 'i', client_secret: 's', clientsecret: 'x' }, { production: false })), ['config.clientsecret']);
  assert.deepEqual(issues(() => validateProviderConfig('cashfree', { client_id: 'i' }, { production: false })), ['config.client_secret']);
  assert.deepEqual(issues(() => validateProviderConfig('razorpayx', { key_id: 'k', key_secret: 's' }, { production: false })), ['config.account_number', 'config.webhook_secret']);
  assert.deepEqual(issues(() => validateProviderConfig('paypal', {}, { production: false })), ['provider']);
  const rzp = validateProviderConfig('razorpayx', { key_id: 'rzp_test_1', key_secret: 's', account_number: '7878780080316316', webhook_secret: 'w' }, { production: false });
  assert.equal((rzp as { base_url: string }).base_url, 'https://api.razorpay.com');
  assert.equal(livemodeOfConfig(rzp), false, 'test keys on the one host are not live');
  assert.equal(livemodeOfConfig({ ...rzp, key_id: 'rzp_live_1' } as typeof rzp), true);
  assert.deepEqual(validateProviderConfig('sandbox', {}, { production: false }), { provider: 'sandbox' });
});
