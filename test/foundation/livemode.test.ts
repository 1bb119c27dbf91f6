/**
 * Live or test (contract §7, §8; issue #16 item 8). Every order and payout carries `livemode`,
 * fixed at create from the provider's adapter (the sandbox: false), in every answer, in its row
 * and in every event payload; the batched create statements carry it; a livemode order's checkout
 * never offers "Simulate payment"; and NODE_ENV=production on the sandbox is refused unless the
 * operator sets SANDBOX_IN_PRODUCTION=true.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { AppError } from '../../src/domain/errors.js';
import { createSandboxProvider } from '../../src/providers/sandbox/adapter.js';
import { refuseTestProviderInProduction, StartRefusedError } from '../../src/service.js';
import { insertKeyedCreate } from '../../src/store/repos/payout-writes-repo.js';
import { newRowId } from '../../src/store/row-id.js';
import { checkoutBody, createOrder, intentBody, tokenOf } from '../payin/helpers.js';
import { createPayout, eventsOf, payoutBody, type PayoutWorld, startPayoutWorld, waitFor, waitForStatus } from '../payout/helpers.js';
import { startTestService } from '../support/service.js';

describe('livemode on the sandbox: false everywhere', () => {
  let w: PayoutWorld;
  before(async () => {
    w = await startPayoutWorld();
  });
  after(() => w?.t.stop());

  const rowLivemode = async (table: 'payment_orders' | 'payouts', id: string) =>
    (await w.t.database.db.query<{ livemode: boolean }>(`SELECT livemode FROM ${table} WHERE id = $1`, [id])).rows[0]!.livemode;

  test('orders: CHECKOUT and INTENT creates, retrievals, cancel and the collection.received payload', async () => {
    const checkout = await createOrder(w.t, w.client, checkoutBody());
    assert.equal(checkout.livemode, false);
    const got = await w.t.api('GET', `/merchant/payment-orders/${checkout.order_id}`, { client: w.client });
    assert.equal(got.body.data.livemode, false);
    const cancelled = await w.t.api('POST', `/merchant/payment-orders/${checkout.id}/cancel`, { client: w.client });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.data.livemode, false);
    assert.equal(await rowLivemode('payment_orders', checkout.id), false);

    const intent = await createOrder(w.t, w.client, intentBody());
    assert.equal(intent.livemode, false);
    const paid = await w.t.admin('POST', `/sandbox/payment-orders/${intent.order_id}/pay`, { utr: '271828182845' });
    assert.ok(paid.status < 300, paid.text);
    // The sandbox's callback is taken in and applied by a worker: wait for the event it causes.
    const events = await waitFor('collection.received', async () => {
      const found = await eventsOf(w, intent.id);
      return found.length > 0 ? found : undefined;
    });
    assert.deepEqual(events.map((e) => e.kind), ['collection.received']);
    assert.equal(events[0]!.body.data.livemode, false);
    const after = await w.t.api('GET', `/merchant/payment-orders/${intent.id}`, { client: w.client });
    assert.equal(after.body.data.status, 'PAID');
    assert.equal(after.body.data.livemode, false);
  });

  test('payouts: create, retrieval, row and every event payload', async () => {
    const r = await createPayout(w, payoutBody(10_000));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.data.livemode, false);
    const done = await waitForStatus(w, r.body.data.id, 'SUCCESS');
    assert.equal(done.livemode, false);
    assert.equal(await rowLivemode('payouts', done.id), false);
    const events = await eventsOf(w, done.id);
    assert.deepEqual(events.map((e) => e.kind).sort(), ['payout.created', 'payout.success']);
    for (const e of events) assert.equal(e.body.data.livemode, false, e.kind);
  });

  test('the batched payout create statement writes the livemode it is given (a live provider\'s payouts keep true)', async () => {
    const first = await createPayout(w, payoutBody(10_000));
    const ben = first.body.data.beneficiary;
    const clientPk = (await w.t.database.db.query<{ client_pk: string }>('SELECT client_pk FROM payouts WHERE id = $1', [first.body.data.id])).rows[0]!.client_pk;
    const make = (livemode: boolean) => {
      const id = newRowId();
      return {
        payout: {
          id, attemptId: newRowId(), transactionId: `TJPLM${randomBytes(8).toString('hex').toUpperCase()}`, orgId: w.client.orgId, clientPk,
          bankConnectionId: w.bankConnectionId, beneficiary: { id: ben.id, name: ben.name, last4: ben.account_number_last4, ifsc: ben.ifsc, bankName: ben.bank_name },
          amountPaise: 10_000, mode: 'IMPS' as const, clientReference: null, remarks: null, livemode, createdAt: new Date(), leaseMs: 60_000,
          status: 'PROCESSING' as const, approvalRequired: false, makerUserId: null, checkerUserId: null, bulk: null,
        },
        key: { client_pk: clientPk, key: randomUUID(), fingerprint: 'fp', response_status: 201, response_body: '{}', resource_type: 'payout' },
      };
    };
    const batch = [make(true), make(false), make(true)];
    // Written directly (not through the service), so no worker submits them: the attempt is leased for a minute.
    const db = w.t.database.db;
    assert.deepEqual(await db.tx((tx) => Promise.all(batch.map((c) => insertKeyedCreate(tx, c)))), [true, true, true]);
    for (const c of batch) assert.equal(await rowLivemode('payouts', c.payout.id), c.payout.livemode);
  });

  test('checkout: a sandbox order is marked "Test mode" and offers "Simulate payment"; a livemode order does neither and /simulate refuses', async () => {
    const order = await createOrder(w.t, w.client, checkoutBody());
    const token = tokenOf(order);
    const post = (path: string, body: unknown) =>
      fetch(`${w.t.svc.publicUrl}/checkout/${token}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const details = await post('/details', { customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true });
    assert.equal(details.status, 200);
    const sandboxPage = await (await fetch(order.checkout_url)).text();
    assert.match(sandboxPage, /Test mode/);
    assert.match(sandboxPage, /data-simulate="pay"/);

    // The same order as a live provider would have made it (only the row differs: no live provider exists yet).
    await w.t.database.db.query('UPDATE payment_orders SET livemode = true WHERE id = $1', [order.id]);
    const livePage = await (await fetch(order.checkout_url)).text();
    assert.doesNotMatch(livePage, /Test mode|\[Test\]/);
    assert.doesNotMatch(livePage, /data-simulate|Simulate payment|Sandbox only/);
    const simulate = await post('/simulate', { outcome: 'pay' });
    assert.equal(simulate.status, 404);
    const byAdmin = await w.t.admin('POST', `/sandbox/payment-orders/${order.order_id}/pay`, {});
    assert.equal(byAdmin.status, 409, byAdmin.text);
    await assert.rejects(w.t.svc.ctx.paymentOrders.simulateSandboxOutcome(token, 'pay'), (e) => e instanceof AppError && e.code === 'INVALID_STATE');
    const status = (await (await fetch(`${order.checkout_url}/status`)).json()) as { data: { status: string } };
    assert.equal(status.data.status, 'PENDING_PAYMENT', 'nothing decided it');
  });
});

describe('production on the sandbox provider', () => {
  const MASTER_KEY = randomBytes(32).toString('base64');
  const sandbox = createSandboxProvider({ baseUrl: () => 'http://127.0.0.1:1', signingSecret: 'x' });
  const production = (extra: Record<string, string> = {}) =>
    loadConfig({ NODE_ENV: 'production', MASTER_KEY, DATABASE_URL: 'postgres://127.0.0.1:1/none', DATA_DIR: mkdtempSync(join(tmpdir(), 'tijori-lm-')), ...extra });

  test('the rule: refused without SANDBOX_IN_PRODUCTION, allowed with it, never in development', () => {
    assert.equal(sandbox.livemode, false);
    assert.throws(() => refuseTestProviderInProduction(production(), sandbox), (e) => e instanceof StartRefusedError && /SANDBOX_IN_PRODUCTION=true/.test(e.message));
    assert.throws(() => refuseTestProviderInProduction(production({ SANDBOX_IN_PRODUCTION: 'false' }), sandbox), StartRefusedError);
    refuseTestProviderInProduction(production({ SANDBOX_IN_PRODUCTION: 'true' }), sandbox);
    refuseTestProviderInProduction(loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'tijori-lm-')) }), sandbox);
    assert.throws(() => production({ SANDBOX_IN_PRODUCTION: 'maybe' }), /SANDBOX_IN_PRODUCTION must be true or false/);
  });

  test('`node src/main.ts` with NODE_ENV=production: one line on standard error, exit 1, nothing started', { timeout: 30_000 }, async () => {
    // DATABASE_URL names a port nobody listens on: a refusal that tried the database would say so instead.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        MASTER_KEY,
        DATABASE_URL: 'postgres://127.0.0.1:1/none',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'tijori-lm-')),
        PORT: '0',
        INTERNAL_PORT: '0',
        SANDBOX_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    assert.equal(code, 1);
    assert.equal(stdout, '');
    const lines = stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, stderr);
    assert.match(lines[0]!, /^tijori: refusing to start: NODE_ENV=production with the test provider "sandbox" .*set SANDBOX_IN_PRODUCTION=true/);
  });

  test('with SANDBOX_IN_PRODUCTION=true it starts, says so in its log, and its orders say livemode false', { timeout: 60_000 }, async () => {
    const t = await startTestService({ NODE_ENV: 'production', MASTER_KEY, SANDBOX_IN_PRODUCTION: 'true', CALLBACK_ALLOW_PRIVATE_NETWORKS: 'false' });
    try {
      assert.equal(t.config.production, true);
      assert.ok(t.logs.some((l) => l.includes('SANDBOX_IN_PRODUCTION=true')), 'the operator is reminded at start');
      const client = await t.createClient({});
      const order = await createOrder(t, client, checkoutBody());
      assert.equal(order.livemode, false);
    } finally {
      await t.stop();
    }
  });
});
