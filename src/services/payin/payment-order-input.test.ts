import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../domain/errors.js';
import { DEFAULT_EXPIRES_IN_MINUTES, payerDetailsIssues, validateCreatePaymentOrder } from './payment-order-input.js';

const fields = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof AppError);
    return (e.details ?? []).map((d) => d.field);
  }
  return [];
};

test('defaults: CHECKOUT, 30 minutes, no callback', () => {
  const i = validateCreatePaymentOrder({ amount_paise: 100, purpose: 'abc' });
  assert.equal(i.responseMode, 'CHECKOUT');
  assert.equal(i.expiresInMinutes, DEFAULT_EXPIRES_IN_MINUTES);
  assert.equal(DEFAULT_EXPIRES_IN_MINUTES, 30);
  assert.equal(i.callback, null);
});

test('INTENT needs every payer field; all issues reported at once', () => {
  assert.deepEqual(fields(() => validateCreatePaymentOrder({ amount_paise: 100, purpose: 'abc', response_mode: 'INTENT' })), [
    'customer_name',
    'customer_email',
    'customer_phone',
    'customer_consent',
  ]);
});

test('callback pair and HTTPS', () => {
  assert.deepEqual(fields(() => validateCreatePaymentOrder({ amount_paise: 100, purpose: 'abc', callback_secret: 'x'.repeat(32) })), ['callback_url']);
  assert.deepEqual(fields(() => validateCreatePaymentOrder({ amount_paise: 100, purpose: 'abc', callback_url: 'https://a.example' })), ['callback_secret']);
  assert.deepEqual(fields(() => validateCreatePaymentOrder({ amount_paise: 100, purpose: 'abc', callback_url: 'ftp://a.example', callback_secret: 'x'.repeat(32) })), ['callback_url']);
});

test('payer details from the checkout page', () => {
  assert.deepEqual(payerDetailsIssues({ name: 'A', email: 'a@b.in', phone: '9999999999', consent: true }, ''), []);
  assert.deepEqual(
    payerDetailsIssues({ name: '', email: 'x', phone: '0999999999', consent: false }, '').map((i) => i.field),
    ['name', 'email', 'phone', 'consent'],
  );
});

test('a callback_url on a non-public address is refused unless private networks are allowed', () => {
  const body = (host: string) => ({ amount_paise: 100, purpose: 'abc', callback_url: `https://${host}/hook`, callback_secret: 'x'.repeat(32) });
  for (const host of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '[fd00:ec2::254]', 'localhost']) {
    assert.deepEqual(fields(() => validateCreatePaymentOrder(body(host))), ['callback_url'], host);
    assert.equal(validateCreatePaymentOrder(body(host), { allowPrivateNetworks: true }).callback?.url, `https://${host}/hook`);
  }
  assert.equal(validateCreatePaymentOrder(body('merchant.example')).callback?.url, 'https://merchant.example/hook');
});
