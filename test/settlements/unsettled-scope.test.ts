/**
 * Which orders UNSETTLED judges (contract §9, docs/accounting.md "Upgrading"): per provider account,
 * only for an account whose sync succeeded this round (`sync --provider-account X` judges X's orders
 * only; a Cashfree outage never makes Cashfree's orders UNSETTLED); only orders confirmed on or after
 * the organization's `settlements_from` (an upgraded organization's old orders are not all UNSETTLED
 * at the first sync); and from the account's watermark on, with an index (not every order ever).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CashfreeSimulator, collectThroughSimulator } from '../providers/cashfree-simulator.js';
import { startTestService, type TestService } from '../support/service.js';
import { createOrder, intentBody, paid, q, sync, waitFor } from './helpers.js';

let t: TestService;
let sim: CashfreeSimulator;

before(async () => {
  sim = new CashfreeSimulator({ clientId: 'TEST2000sim', clientSecret: 'cfsk_ma_test_simulated_secret_0002' });
  await sim.start();
  t = await startTestService({ PROVIDER_TIMEOUT_MS: '1500' });
});
after(async () => {
  await t?.stop();
  await sim?.stop();
});

const unsettled = async (orderPk: string) => (await q(t, "SELECT count(*)::int AS n FROM recon_breaks WHERE kind = 'UNSETTLED' AND order_pk = $1", [orderPk])).rows[0].n as number;
const backdate = async (orgId: string, ...orderPks: string[]) => {
  await q(t, "UPDATE organizations SET settlements_from = now() - interval '10 days' WHERE id = $1", [orgId]);
  await q(t, "UPDATE payment_orders SET confirmed_at = now() - interval '4 days' WHERE id = ANY($1::uuid[])", [orderPks]);
};

/** An organization with a paid sandbox order (before it moved to Cashfree) and a paid Cashfree order, both 4 days old. */
async function orgWithTwoAccounts(): Promise<{ orgId: string; accountId: string; sandboxOrder: string; cashfreeOrder: string }> {
  const c = await t.createClient({ rateLimit: 100_000 });
  const s = await paid(t, c, 7_700);
  const { accountId } = await collectThroughSimulator(t, c.orgId, sim, { config: { api_version: '2025-01-01' } });
  const o = await createOrder(t, c, intentBody({ amount_paise: 8_800 }));
  await sim.decide(o.order_id, 'SUCCESS');
  await waitFor(async () => (await q(t, 'SELECT status FROM payment_orders WHERE id = $1', [o.id])).rows[0]?.status === 'PAID', 10_000);
  await backdate(c.orgId, s.id, o.id);
  return { orgId: c.orgId, accountId, sandboxOrder: s.id, cashfreeOrder: o.id };
}

test('sync --provider-account X judges only X\'s orders UNSETTLED', async () => {
  const a = await orgWithTwoAccounts();
  const r = await t.admin('POST', '/settlements/sync', { org: a.orgId, provider_account_id: a.accountId });
  assert.equal(r.status, 200, r.text);
  assert.equal(await unsettled(a.cashfreeOrder), 1, 'the synced account\'s order in no settlement after 3 days');
  assert.equal(await unsettled(a.sandboxOrder), 0, 'the sandbox was not synced: its orders are not judged');
  await sync(t, a.orgId);
  assert.equal(await unsettled(a.sandboxOrder), 1, 'judged once its own account is synced');
});

test('a worker round where Cashfree fails judges the other accounts only, never the failed one\'s orders', async () => {
  const a = await orgWithTwoAccounts();
  sim.inject(/^POST \/pg\/settlement\/recon$/, { kind: 'status', status: 500 }, 50);
  await t.svc.ctx.settlementSync.syncAll();
  assert.equal(await unsettled(a.sandboxOrder), 1, 'the sandbox synced: its unsettled order is a break');
  assert.equal(await unsettled(a.cashfreeOrder), 0, 'Cashfree did not answer: its orders are not UNSETTLED');
});

test('only orders confirmed since the organization\'s settlements_from are expected in a settlement', async () => {
  const c = await t.createClient({ rateLimit: 100_000 });
  const o = await paid(t, c, 6_100);
  // Confirmed before the cutover, as an order of an organization that existed before the upgrade.
  await q(t, "UPDATE payment_orders SET confirmed_at = now() - interval '4 days' WHERE id = $1", [o.id]);
  await q(t, "UPDATE organizations SET settlements_from = now() - interval '1 day' WHERE id = $1", [c.orgId]);
  await sync(t, c.orgId);
  assert.equal(await unsettled(o.id), 0, 'confirmed before settlements_from: not expected in a settlement');
  const newer = await paid(t, c, 6_200);
  await q(t, "UPDATE organizations SET settlements_from = now() - interval '10 days' WHERE id = $1", [c.orgId]);
  await q(t, 'DELETE FROM settlement_unsettled_marks WHERE org_id = $1', [c.orgId]);
  await sync(t, c.orgId);
  assert.equal(await unsettled(o.id), 1, 'once the cutover is before it, it is');
  assert.equal(await unsettled(newer.id), 0, 'paid just now: not due yet');
  // The migration gives an organization created now a cutover of now.
  const fresh = (await q(t, "SELECT settlements_from > now() - interval '1 minute' AS recent FROM organizations WHERE id = $1", [(await t.createClient({})).orgId])).rows[0];
  assert.equal(fresh.recent, true);
});

test('the scan starts at the account\'s watermark and reads the confirmed orders by index', async () => {
  const c = await t.createClient({ rateLimit: 100_000 });
  await q(t, "UPDATE organizations SET settlements_from = now() - interval '60 days' WHERE id = $1", [c.orgId]);
  await sync(t, c.orgId);
  const mark = (await q(t, "SELECT scanned_to BETWEEN now() - interval '3 days 1 minute' AND now() - interval '3 days' + interval '1 minute' AS ok FROM settlement_unsettled_marks WHERE org_id = $1 AND provider_account_id IS NULL", [c.orgId])).rows;
  assert.deepEqual(mark, [{ ok: true }], 'the sandbox account\'s watermark: everything confirmed before now − 3 days is judged');
  // An order that (artificially) sits 20 days before the watermark is not read again.
  const old = await paid(t, c, 6_300);
  await q(t, "UPDATE payment_orders SET confirmed_at = now() - interval '20 days' WHERE id = $1", [old.id]);
  await sync(t, c.orgId);
  assert.equal(await unsettled(old.id), 0);
  // A seeded table: a year of this organization's confirmed orders (copies of one, new ids), then the scan's plan.
  await q(t, `INSERT INTO payment_orders SELECT (jsonb_populate_record(NULL::payment_orders,
      to_jsonb(o) || jsonb_build_object('id', gen_random_uuid(), 'confirmed_at', now() - make_interval(days => 30 + g % 365, secs => g)))).*
    FROM payment_orders o, generate_series(1, 3000) g WHERE o.id = $1`, [old.id]);
  await q(t, 'ANALYZE payment_orders');
  const plan = (await q(t, `EXPLAIN SELECT id FROM payment_orders o WHERE o.org_id = $1 AND o.provider_account_id IS NULL
      AND o.status IN ('PAID', 'MANUALLY_CONFIRMED', 'REFUNDED') AND o.confirmed_at >= now() - interval '40 days' AND o.confirmed_at < now() - interval '39 days'`, [c.orgId])).rows.map((r: any) => r['QUERY PLAN']).join('\n');
  assert.match(plan, /payment_orders_unsettled_scan_idx/, plan);
});
