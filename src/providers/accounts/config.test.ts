import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../domain/errors.js';
import { validateProviderConfig } from './config.js';

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
