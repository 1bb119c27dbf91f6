import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderError } from '../provider.js';
import { parsePspCallback, toCollectionStatus, toRefundStatus } from './psp-client.js';

test('statuses map exactly; unknown or incomplete answers are errors, never a guess', () => {
  assert.deepEqual(toCollectionStatus({ status: 'PENDING' }), { status: 'PENDING', providerStatus: 'PENDING' });
  const ok = toCollectionStatus({ status: 'SUCCESS', utr: '123456789012', paid_at: '2025-01-01T00:00:00.000Z', amount_paise: 49_900, provider_reference: 'SBX1' });
  assert.deepEqual(ok, { status: 'SUCCESS', providerStatus: 'SUCCESS', utr: '123456789012', paidAt: new Date('2025-01-01T00:00:00.000Z'), amountPaise: 49_900, providerReference: 'SBX1' });
  // A confirmation without the amount paid or the provider's reference cannot be checked: an error.
  assert.throws(() => toCollectionStatus({ status: 'SUCCESS', utr: '123456789012', paid_at: '2025-01-01T00:00:00.000Z', provider_reference: 'SBX1' }), ProviderError);
  assert.throws(() => toCollectionStatus({ status: 'SUCCESS', utr: '123456789012', paid_at: '2025-01-01T00:00:00.000Z', amount_paise: 49_900 }), ProviderError);
  assert.throws(() => toCollectionStatus({ status: 'SUCCESS', utr: null, paid_at: '2025-01-01T00:00:00.000Z' }), ProviderError);
  assert.throws(() => toCollectionStatus({ status: 'SUCCESS', utr: '12', paid_at: '2025-01-01T00:00:00.000Z' }), ProviderError);
  assert.throws(() => toCollectionStatus({ status: 'PROCESSING' }), ProviderError);
  assert.deepEqual(toCollectionStatus({ status: 'FAILED', failure_reason: 'x' }), { status: 'FAILED', providerStatus: 'FAILED', reason: 'x' });
});

test('parsePspCallback', () => {
  const cb = parsePspCallback({ id: 'e1', type: 'collection.updated', reference: 'PO1', status: 'SUCCESS', utr: '123456789012', paid_at: '2025-01-01T00:00:00.000Z', amount_paise: 100, provider_reference: 'SBX1' });
  assert.equal(cb?.kind, 'collection');
  assert.equal(cb?.kind === 'collection' && cb.status.status === 'SUCCESS' ? cb.status.amountPaise : null, 100);
  assert.equal(cb?.eventId, 'e1');
  assert.equal(parsePspCallback({ id: 'e1', reference: 'PO1', status: 'WHATEVER' }), null);
  assert.equal(parsePspCallback({ reference: 'PO1', status: 'FAILED' }), null);
  assert.equal(parsePspCallback({ id: 'e2', reference: 'PO1', status: 'PENDING' }), null);
});

test('refund statuses map exactly; anything else is an error', () => {
  assert.deepEqual(toRefundStatus({ status: 'COMPLETED', provider_reference: 'SBXR1', completed_at: '2025-01-01T00:00:00.000Z' }), {
    status: 'COMPLETED',
    providerReference: 'SBXR1',
    completedAt: new Date('2025-01-01T00:00:00.000Z'),
  });
  assert.deepEqual(toRefundStatus({ status: 'FAILED', failure_reason: 'declined' }), { status: 'FAILED', reason: 'declined' });
  assert.throws(() => toRefundStatus({ status: 'COMPLETED', completed_at: '2025-01-01T00:00:00.000Z' }), ProviderError);
  assert.throws(() => toRefundStatus({ status: 'PENDING' }), ProviderError);
});
