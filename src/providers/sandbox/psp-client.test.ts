import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderError } from '../provider.js';
import { parsePspCallback, toCollectionStatus } from './psp-client.js';

test('statuses map exactly; unknown or incomplete answers are errors, never a guess', () => {
  assert.deepEqual(toCollectionStatus({ status: 'PENDING' }), { status: 'PENDING', providerStatus: 'PENDING' });
  const ok = toCollectionStatus({ status: 'SUCCESS', utr: '123456789012', paid_at: '2025-01-01T00:00:00.000Z' });
  assert.equal(ok.status, 'SUCCESS');
  assert.throws(() => toCollectionStatus({ status: 'SUCCESS', utr: null, paid_at: '2025-01-01T00:00:00.000Z' }), ProviderError);
  assert.throws(() => toCollectionStatus({ status: 'SUCCESS', utr: '12', paid_at: '2025-01-01T00:00:00.000Z' }), ProviderError);
  assert.throws(() => toCollectionStatus({ status: 'PROCESSING' }), ProviderError);
  assert.deepEqual(toCollectionStatus({ status: 'FAILED', failure_reason: 'x' }), { status: 'FAILED', providerStatus: 'FAILED', reason: 'x' });
});

test('parsePspCallback', () => {
  const cb = parsePspCallback({ id: 'e1', type: 'collection.updated', reference: 'PO1', status: 'SUCCESS', utr: '123456789012', paid_at: '2025-01-01T00:00:00.000Z' });
  assert.equal(cb?.kind, 'collection');
  assert.equal(cb?.eventId, 'e1');
  assert.equal(parsePspCallback({ id: 'e1', reference: 'PO1', status: 'WHATEVER' }), null);
  assert.equal(parsePspCallback({ reference: 'PO1', status: 'FAILED' }), null);
  assert.equal(parsePspCallback({ id: 'e2', reference: 'PO1', status: 'PENDING' }), null);
});
