/**
 * `tijori sandbox serve`: the sandbox as a process of its own. The service, started with
 * SANDBOX_URL, reaches it over HTTP; its callbacks reach the service's intake; both share the
 * database (the sandbox in its own tables) and MASTER_KEY.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { spawnNode, type Spawned } from '../../bench/support.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService, type TestService } from '../support/service.js';
import { intentBody, waitFor } from './helpers.js';

let database: TestDatabase;
let sandbox: Spawned;
let ts: TestService;
const MASTER_KEY = randomBytes(32).toString('base64');

before(async () => {
  database = await createTestDatabase();
  // The service's internal port must be known to the sandbox before the service starts.
  const internalPort = String(20_000 + Math.floor(Math.random() * 20_000));
  const child = await spawnNode(['bin/tijori.js', 'sandbox', 'serve', '--port', '0'], {
    DATABASE_URL: database.url,
    MASTER_KEY,
    SANDBOX_CALLBACK_URL: `http://127.0.0.1:${internalPort}/provider/sandbox/callbacks`,
    LOG_LEVEL: 'warn',
  });
  sandbox = child;
  assert.match(sandbox.line.sandbox as string, /^http:\/\/127\.0\.0\.1:\d+$/);
  ts = await startTestService({ MASTER_KEY, SANDBOX_URL: sandbox.line.sandbox as string, INTERNAL_PORT: internalPort }, { database });
});
after(async () => {
  await ts?.svc.stop();
  await sandbox?.stop();
  await database?.drop();
});

test('an INTENT order is issued by the standalone sandbox, paid there, and confirmed by its callback', async () => {
  const client = await ts.createClient({});
  const created = await ts.api('POST', '/merchant/payment-orders', { client, body: intentBody(), idempotencyKey: randomUUID() });
  assert.equal(created.status, 201, created.text);
  assert.equal(ts.svc.sandboxUrl, sandbox.line.sandbox, 'no in-process sandbox was started');
  const order = created.body.data;
  assert.match(order.upi_intent, /^upi:\/\/pay\?/);
  const paid = await fetch(`${sandbox.line.sandbox}/psp/collections/${order.order_id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ utr: '246824682468', callback: true }),
  });
  assert.ok(paid.status < 300, await paid.text());
  const row = await waitFor(async () => {
    const r = await ts.database.db.query('SELECT status, bank_transaction_id FROM payment_orders WHERE id = $1', [order.id]);
    return r.rows[0]?.status === 'PAID' ? r.rows[0] : null;
  }, 10_000);
  assert.equal(row.bank_transaction_id, '246824682468');
});

test('serve without DATABASE_URL explains what it needs', async () => {
  await assert.rejects(spawnNode(['bin/tijori.js', 'sandbox', 'serve'], { DATABASE_URL: '', DATA_DIR: '/tmp/nonexistent-tijori' }), /needs DATABASE_URL/);
});
