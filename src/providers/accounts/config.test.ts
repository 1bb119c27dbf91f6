import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../domain/errors.js';
import { consoleBaseUrlIssue, validateProviderConfig } from './config.js';

const razorpayx = { base_url: 'https://api.razorpay.com', key_id: 'rzp_live_abc', key_secret: 's', account_number: '7878780080316316', webhook_secret: 'w' };

const issuesOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof AppError && err.code === 'VALIDATION_FAILED');
    return (err.details ?? []).map((d) => `${d.field}: ${d.issue}`);
  }
  assert.fail('expected VALIDATION_FAILED');
};

test('razorpayx: the webhook secret rotation pair is kept for the connector', () => {
  const until = '2026-12-01T00:00:00Z';
  const cfg = validateProviderConfig('razorpayx', { ...razorpayx, previous_webhook_secret: 'old', previous_webhook_secret_until: until }, { production: true });
  assert.equal(cfg.provider, 'razorpayx');
  assert.deepEqual([cfg.provider === 'razorpayx' && cfg.previous_webhook_secret, cfg.provider === 'razorpayx' && cfg.previous_webhook_secret_until], ['old', until]);
});

test("razorpayx: what the connector would refuse is refused when the account is added", () => {
  assert.match(issuesOf(() => validateProviderConfig('razorpayx', { ...razorpayx, base_url: 'https://api.razorpay.com/v1' }, { production: true })).join(' '), /bare host/);
  assert.match(issuesOf(() => validateProviderConfig('razorpayx', { ...razorpayx, previous_webhook_secret: 'old' }, { production: true })).join(' '), /previous_webhook_secret_until/);
});

test('an account added in the console names the provider\'s own address, unless the operator allowed private networks', () => {
  const cashfree = (base_url: string) => validateProviderConfig('cashfree', { base_url, client_id: 'id', client_secret: 'secret' }, { production: false });
  const rzpx = (base_url: string) => validateProviderConfig('razorpayx', { ...razorpayx, base_url }, { production: false });
  const strict = { allowPrivateNetworks: false };
  assert.equal(consoleBaseUrlIssue(cashfree('https://api.cashfree.com/pg'), strict), null);
  assert.equal(consoleBaseUrlIssue(cashfree('https://sandbox.cashfree.com/pg'), strict), null);
  assert.equal(consoleBaseUrlIssue(rzpx('https://api.razorpay.com'), strict), null);
  assert.equal(consoleBaseUrlIssue(validateProviderConfig('sandbox', {}, { production: false }), strict), null);
  for (const probe of ['https://10.0.0.5:8443/pg', 'https://internal.example.com/pg', 'https://api.cashfree.com.evil.example/pg']) {
    assert.match(consoleBaseUrlIssue(cashfree(probe), strict) ?? '', /provider's own address/, probe);
  }
  assert.match(consoleBaseUrlIssue(rzpx('https://razorpay.internal.example'), strict) ?? '', /api\.razorpay\.com/);
  // A demo or test set-up with simulators: the operator allowed private networks.
  assert.equal(consoleBaseUrlIssue(cashfree('http://127.0.0.1:4010/pg'), { allowPrivateNetworks: true }), null);
});
