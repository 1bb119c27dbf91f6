/** The settlement worker (contract §9): every SETTLEMENT_SYNC_INTERVAL_MS it imports what the providers settled, with no CLI call. */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { paid, q, settle, waitFor } from './helpers.js';

let t: TestService;
let client: TestClient;
before(async () => {
  t = await startTestService({ SETTLEMENT_SYNC_INTERVAL_MS: '300' });
  client = await t.createClient({ rateLimit: 100_000 });
});
after(async () => t?.stop());

test('the worker imports a new settlement by itself, once', async () => {
  assert.equal(t.config.settlementSyncIntervalMs, 300);
  await paid(t, client, 15_000);
  const made = await settle(t, client.orgId);
  const id: string = made.settlements[0].provider_settlement_id;
  await waitFor(async () => (await q(t, 'SELECT 1 FROM settlements WHERE provider_settlement_id = $1', [id])).rows.length === 1, 10_000);
  // Three more rounds, each begun after the import (a second import would show as a second settlement).
  await t.workerRounds('settlement-sync', 3);
  const rows = (await q(t, 'SELECT s.id, (SELECT count(*)::int FROM settlement_lines l WHERE l.settlement_id = s.id) AS lines FROM settlements s WHERE org_id = $1', [client.orgId])).rows;
  assert.deepEqual(rows.map((r) => r.lines), [1]);
});
