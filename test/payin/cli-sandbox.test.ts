/** `tijori sandbox pay|fail|stats` against a running service, as an operator runs them (contract §2). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { serviceWithClient } from '../support/service.js';
import { createOrder, intentBody, waitFor } from './helpers.js';

const run = promisify(execFile);
const w = serviceWithClient();

async function tijori(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, ['bin/tijori.js', ...args], { env: { ...process.env, ADMIN_URL: w.t.svc.internalUrl, ADMIN_TOKEN: w.t.config.adminToken } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err: any) {
    return { code: err.code ?? 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

const status = async (id: string): Promise<any> => (await w.t.database.db.query('SELECT status, bank_transaction_id FROM payment_orders WHERE id = $1', [id])).rows[0]!;

test('pay ORDER --utr: the sandbox pays and calls back; --json prints one object', async () => {
  const o = await createOrder(w.t, w.client, intentBody());
  const r = await tijori('sandbox', 'pay', o.order_id, '--utr', '246813579024', '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out, { id: o.id, order_id: o.order_id, status: 'SUCCESS', utr: '246813579024', callback: true });
  const row = await waitFor(async () => {
    const s = await status(o.id);
    return s.status === 'PAID' ? s : null;
  });
  assert.equal(row.bank_transaction_id, '246813579024');
});

test('pay ORDER --no-callback: the order changes only after a status check', async () => {
  const o = await createOrder(w.t, w.client, intentBody());
  const r = await tijori('sandbox', 'pay', o.id, '--no-callback', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).callback, false);
  await new Promise((res) => setTimeout(res, 300));
  assert.equal((await status(o.id)).status, 'PENDING_PAYMENT');
  const got = await w.t.api('GET', `/merchant/payment-orders/${o.id}`, { client: w.client });
  assert.equal(got.body.data.status, 'PAID');
});

test('fail ORDER, stats, and errors', async () => {
  const o = await createOrder(w.t, w.client, intentBody());
  const f = await tijori('sandbox', 'fail', o.order_id, '--json');
  assert.equal(f.code, 0, f.stderr);
  assert.equal(JSON.parse(f.stdout).status, 'FAILED');
  await waitFor(async () => (await status(o.id)).status === 'FAILED');
  await w.t.api('GET', `/merchant/payment-orders/${o.id}`, { client: w.client });
  const s = await tijori('sandbox', 'stats', '--json');
  assert.equal(s.code, 0, s.stderr);
  const stats = JSON.parse(s.stdout);
  assert.deepEqual(Object.keys(stats).sort(), ['payin_status_checks', 'payout_executions', 'refund_executions']);
  assert.deepEqual(stats.payout_executions, {});
  assert.equal(typeof stats.payin_status_checks, 'object');
  const again = await tijori('sandbox', 'pay', o.order_id, '--json');
  assert.notEqual(again.code, 0);
  assert.match(again.stderr, /INVALID_STATE/);
  const unknown = await tijori('sandbox', 'pay', 'PONOSUCHORDER', '--json');
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /NOT_FOUND/);
  assert.equal(unknown.stdout, '');
});
