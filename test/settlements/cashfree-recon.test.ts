/**
 * Cashfree PG settlements over HTTP (contract §9): the real service with a Cashfree account whose
 * base_url is the simulator, which answers `POST /pg/settlement/recon` as Cashfree documents it
 * (test/providers/cashfree-recon-sim.ts). Imported through the cursor, matched, once; a payment
 * settled twice is a DUPLICATE; bad provider data (a negative fee, an unknown event type, charges
 * the lines do not add up to, another currency) is an anomaly: stored, logged, counted in
 * /metrics, and no order changes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CashfreeSimulator, collectThroughSimulator } from '../providers/cashfree-simulator.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { breaks, createOrder, intentBody, q, waitFor } from './helpers.js';

let t: TestService;
let client: TestClient;
let sim: CashfreeSimulator;
let accountId: string;

before(async () => {
  sim = new CashfreeSimulator({ clientId: 'TEST2000sim', clientSecret: 'cfsk_ma_test_simulated_secret_0002' });
  await sim.start();
  t = await startTestService({ PROVIDER_TIMEOUT_MS: '1500' });
  client = await t.createClient({ rateLimit: 100_000 });
  accountId = (await collectThroughSimulator(t, client.orgId, sim, { name: 'Cashfree (simulator)', config: { api_version: '2025-01-01' } })).accountId;
});
after(async () => {
  await t?.stop();
  await sim?.stop();
});

async function paidAtCashfree(amountPaise: number): Promise<{ id: string; order_id: string }> {
  const o = await createOrder(t, client, intentBody({ amount_paise: amountPaise }));
  await sim.decide(o.order_id, 'SUCCESS');
  await waitFor(async () => (await q(t, 'SELECT status FROM payment_orders WHERE id = $1', [o.id])).rows[0]?.status === 'PAID', 10_000);
  return o;
}

const syncAccount = async () => {
  const r = await t.admin('POST', '/settlements/sync', { org: client.orgId, provider_account_id: accountId });
  assert.equal(r.status, 200, r.text);
  return r.body.data;
};
const anomalies = async (settlementId: number) => (await q(t, 'SELECT kind, provider_line_id FROM settlement_anomalies WHERE provider_settlement_id = $1 ORDER BY kind', [String(settlementId)])).rows;

test('a Cashfree settlement is read page by page with its cursor, matched, stored once; a payment settled twice is a DUPLICATE', async () => {
  sim.reconMaxPage = 2;
  const a = await paidAtCashfree(49_900);
  const b = await paidAtCashfree(25_050);
  const c = await paidAtCashfree(10_000);
  const first = sim.settle();
  const before = sim.requests.length;
  assert.deepEqual(await syncAccount(), { settlements_new: 1, lines_new: 3, matched: 3, breaks: 0 });
  const recon = sim.requests.slice(before).filter((r) => r.path === '/pg/settlement/recon');
  assert.equal(recon.length, 2, 'three events at two a page: two calls, the second with the first answer\'s cursor');
  const [p1, p2] = recon.map((r) => JSON.parse(r.body));
  assert.equal(p1.pagination.cursor, null);
  assert.equal(typeof p2.pagination.cursor, 'string');
  assert.match(p1.filters.start_date, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  assert.equal(recon[0]!.headers['x-api-version'], '2025-01-01');

  const s = (await q(t, 'SELECT * FROM settlements WHERE provider_settlement_id = $1', [String(first)])).rows[0];
  assert.equal(s.provider_account_id, accountId);
  // 2 % fee and 18 % GST in the simulator: 998 + 501 + 200; 180 + 90 + 36.
  assert.deepEqual([s.gross_paise, s.fees_paise, s.tax_paise, s.net_paise], [84_950, 1_699, 306, 84_950 - 1_699 - 306]);
  assert.deepEqual(await syncAccount(), { settlements_new: 0, lines_new: 0, matched: 0, breaks: 0 }, 'the same settlement fetched again is stored once');

  const dup = sim.settle({ again: b.order_id });
  assert.deepEqual(await syncAccount(), { settlements_new: 1, lines_new: 1, matched: 0, breaks: 1 });
  const found = (await breaks(t, client.orgId)).filter((x: any) => x.kind === 'DUPLICATE');
  assert.equal(found.length, 1);
  assert.equal(found[0].order_id, b.order_id);
  assert.deepEqual(await anomalies(dup), []);
  void a;
  void c;
});

test('bad provider data never changes an order: stored as anomalies, logged, counted in /metrics', async () => {
  sim.reconMaxPage = 1_000;
  const neg = await paidAtCashfree(30_000);
  const other = await paidAtCashfree(40_000);
  const s1 = sim.settle({ negativeFeeFor: neg.order_id, unknownEventType: 'REFUND_REVERSAL', chargesOffByPaise: 7 });
  const statusBefore = (await q(t, 'SELECT id, status, updated_at FROM payment_orders WHERE org_id = $1 ORDER BY id', [client.orgId])).rows;
  const r = await syncAccount();
  assert.equal(r.settlements_new, 1);
  assert.equal(r.lines_new, 3);
  assert.equal(r.matched + r.breaks, r.lines_new);
  assert.equal(r.matched, 1, 'only the sound payment matches');
  const kinds = (await anomalies(s1)).map((x: any) => x.kind);
  assert.deepEqual(kinds, ['NEGATIVE_AMOUNT', 'TOTALS_MISMATCH', 'UNKNOWN_LINE_TYPE']);
  const lines = (await q(t, 'SELECT reported_type, type, match, order_reference FROM settlement_lines l JOIN settlements s ON s.id = l.settlement_id WHERE s.provider_settlement_id = $1 ORDER BY provider_line_id', [String(s1)])).rows;
  assert.deepEqual(lines.map((l: any) => [l.reported_type, l.type, l.match]).sort(), [['PAYMENT', 'PAYMENT', 'ANOMALY'], ['PAYMENT', 'PAYMENT', 'MATCHED'], ['REFUND_REVERSAL', 'ADJUSTMENT', 'ANOMALY']]);
  assert.equal(lines.find((l: any) => l.match === 'MATCHED').order_reference, other.order_id);
  assert.deepEqual((await q(t, 'SELECT id, status, updated_at FROM payment_orders WHERE org_id = $1 ORDER BY id', [client.orgId])).rows, statusBefore, 'no order changed');
  assert.ok(t.logs.some((l) => l.includes('settlement anomaly')), 'logged');

  // Another currency: the whole settlement is an anomaly, no line matched, no ledger entry.
  await paidAtCashfree(11_100);
  const usd = sim.settle({ currency: 'USD' });
  const u = await syncAccount();
  assert.deepEqual(u, { settlements_new: 1, lines_new: 1, matched: 0, breaks: 1 });
  assert.deepEqual((await anomalies(usd)).map((x: any) => x.kind), ['NOT_INR', 'NOT_INR']);
  const entries = await q(t, "SELECT count(*)::int AS n FROM ledger_entries e JOIN settlements s ON s.id = e.source_id WHERE s.provider_settlement_id = $1", [String(usd)]);
  assert.equal(entries.rows[0].n, 0);

  const metrics = await (await fetch(`${t.svc.internalUrl}/metrics`)).text();
  for (const kind of ['NEGATIVE_AMOUNT', 'UNKNOWN_LINE_TYPE', 'TOTALS_MISMATCH', 'NOT_INR']) {
    assert.match(metrics, new RegExp(`tijori_settlement_anomalies_total\\{provider="cashfree",kind="${kind}"\\} [1-9]`));
  }
  // Again: nothing new, counted once.
  assert.deepEqual(await syncAccount(), { settlements_new: 0, lines_new: 0, matched: 0, breaks: 0 });
  // The ledger still agrees with the records: a settlement that posts no entry is not counted on either side.
  const v = await t.admin('GET', `/orgs/${client.orgId}/ledger/verify`);
  assert.equal(v.status, 200, v.text);
  assert.equal(v.body.data.balanced, true);
  assert.deepEqual(v.body.data.mismatches, []);
});

test('bad provider data in one answer is never a 5xx nor a stuck sync: repeated, over-long and unreadable items are anomalies of their lines', async () => {
  sim.reconMaxPage = 1_000;
  const good = await paidAtCashfree(12_300);
  const odd = await paidAtCashfree(45_600);
  const id = sim.settle();
  const events = sim.reconEvents.filter((e) => e.cf_settlement_id === id);
  const goodEvent = events.find((e) => e.order_id === good.order_id)!;
  const oddEvent = events.find((e) => e.order_id === odd.order_id)!;
  oddEvent.amountLiteral = '456.001'; // three decimals: no amount in rupees
  for (const e of events) {
    e.utr = `U${'9'.repeat(80)}`; // longer than any UTR
    e.settlementDateText = 'yesterday-ish';
  }
  // The cursor drifted: the same event sent twice; and an event whose ids are far too long.
  sim.reconEvents.push({ ...goodEvent }, { ...goodEvent, event_id: `E${'7'.repeat(150)}`, order_id: `PO${'X'.repeat(150)}`, cf_payment_id: null });

  const r = await syncAccount();
  assert.deepEqual(r, { settlements_new: 1, lines_new: 3, matched: 1, breaks: 2 }, 'the repeated event stored once; the readable payment matches');
  const s = (await q(t, 'SELECT utr, settled_at FROM settlements WHERE provider_settlement_id = $1', [String(id)])).rows[0];
  assert.equal(s.utr, null, 'a UTR too long is not stored');
  const lines = (await q(t, 'SELECT order_reference, match, amount_paise, char_length(provider_line_id) AS idlen FROM settlement_lines l JOIN settlements s ON s.id = l.settlement_id WHERE s.provider_settlement_id = $1 ORDER BY match, idlen', [String(id)])).rows;
  assert.deepEqual(lines.map((l: any) => [l.match, l.idlen, l.order_reference?.length]), [
    ['ANOMALY', String(oddEvent.event_id).length, odd.order_id.length],
    ['ANOMALY', 100, 100],
    ['MATCHED', String(goodEvent.event_id).length, good.order_id.length],
  ]);
  const found = await anomalies(id);
  assert.ok(found.filter((a: any) => a.kind === 'BAD_DATA').length >= 3, JSON.stringify(found));
  assert.ok(found.some((a: any) => a.kind === 'BAD_DATA' && a.provider_line_id === oddEvent.event_id), 'the unreadable amount is an anomaly of its line');
  assert.equal((await q(t, 'SELECT status FROM payment_orders WHERE id = $1', [odd.id])).rows[0].status, 'PAID', 'no order changed');
  // The next round is not stuck on the same answer.
  assert.deepEqual(await syncAccount(), { settlements_new: 0, lines_new: 0, matched: 0, breaks: 0 });
});
