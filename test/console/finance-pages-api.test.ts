/**
 * The console API of the finance pages (contract §9, issue #33 item 5), against the real service,
 * PostgreSQL and the sandbox's settlement API: Balances equal the ledger's balances to the paisa
 * (the same journal `tijori ledger balances` prints) with collected against settled per day;
 * settlements in keyset pages, one settlement and its lines with their match; the CSV exports
 * (dated names, rupees); breaks filtered by kind; another organization's settlement is 404; bad
 * input is 422 in the envelope with a request_id; no session is 401.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceWithClient } from '../support/service.js';
import { consoleCaller, signedInUser } from '../support/console.js';
import { cli, paid, refunded, settle, sync } from '../settlements/helpers.js';

const w = serviceWithClient({ rateLimit: 100_000 });

function assertEnvelopeError(r: { status: number; body: any; text: string }, status: number, code?: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.success, false, r.text);
  assert.equal(typeof r.body.request_id, 'string', r.text);
  if (code) assert.equal(r.body.error.code, code, r.text);
}

test('balances, settlements, lines, exports and break filters of the console; scoped to the organization', async () => {
  const { t, client } = w;
  const a = await paid(t, client, 49_900);
  const b = await paid(t, client, 100_091); // settled 100 paise short: an AMOUNT_MISMATCH
  const r = await refunded(t, client, a.id, 10_000);
  await settle(t, client.orgId);
  assert.deepEqual(await sync(t, client.orgId), { settlements_new: 1, lines_new: 3, matched: 2, breaks: 1 });
  await paid(t, client, 30_000); // paid after the settlement: still unsettled

  const viewer = await signedInUser(t, client.orgId, 'viewer@finance.example', 'viewer');

  // Balances: the ledger's balances, per provider account, renamed and signed for reading.
  const bal = await viewer.call('GET', '/balances?tz=Asia/Kolkata');
  assert.equal(bal.status, 200, bal.text);
  const ledger: Array<{ provider_account_id: string; account: string; balance_paise: number }> = await cli(t, 'ledger', 'balances', '--org', client.orgId);
  const of = (account: string) => Number(ledger.find((l) => l.account === account)?.balance_paise ?? 0);
  assert.equal(bal.body.data.accounts.length, 1);
  const acct = bal.body.data.accounts[0];
  assert.equal(acct.provider_account_id, ledger[0]?.provider_account_id);
  assert.deepEqual(
    { collected: acct.collected_paise, refunded: acct.refunded_paise, fees: acct.fees_paise, taxes: acct.taxes_paise, settled: acct.settled_paise, unsettled: acct.unsettled_paise, provider: acct.provider },
    { collected: -of('collections'), refunded: of('refunds'), fees: of('fees'), taxes: of('taxes'), settled: of('settled'), unsettled: of('collections_receivable'), provider: 'sandbox' },
  );
  // And the figures themselves: 1 79 991 collected; 49 900 + 99 991 − 3 000 − 540 − 10 000 settled;
  // unsettled: the 100 paise the provider kept short and the order paid after the settlement.
  assert.deepEqual([acct.collected_paise, acct.refunded_paise, acct.fees_paise, acct.taxes_paise, acct.settled_paise, acct.unsettled_paise], [179_991, 10_000, 3_000, 540, 136_351, 30_100]);
  assert.deepEqual(bal.body.data.totals.unsettled_paise, 30_100);
  const daily = bal.body.data.daily as Array<{ date: string; collected_paise: number; settled_paise: number }>;
  assert.equal(daily.length, 30);
  assert.equal(daily[29]?.date, bal.body.data.today);
  assert.equal(daily.reduce((s, d) => s + d.collected_paise, 0), 179_991);
  assert.equal(daily.reduce((s, d) => s + d.settled_paise, 0), 136_351);
  assert.deepEqual(acct.daily, daily, 'the one account\'s own days are all of them');
  assertEnvelopeError(await viewer.call('GET', '/balances?tz=Not/AZone'), 422, 'VALIDATION_FAILED');
  assertEnvelopeError(await viewer.call('GET', '/balances?zone=x'), 422);

  // Settlements: one page, and its cursor.
  const list = await viewer.call('GET', '/settlements?limit=25');
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.data.length, 1);
  assert.equal(list.body.next_cursor, null);
  const s = list.body.data[0];
  assert.deepEqual([s.gross_paise, s.fees_paise, s.tax_paise, s.refunds_paise, s.adjustments_paise, s.net_paise, s.lines, s.breaks, s.open_breaks], [149_891, 3_000, 540, 10_000, 0, 136_351, 3, 1, 1]);
  assert.equal(s.utr.length, 16);
  assert.deepEqual([s.provider, s.provider_account_name], ['sandbox', 'Built-in sandbox']);
  assertEnvelopeError(await viewer.call('GET', '/settlements?cursor=bm90LWEtY3Vyc29y'), 422, 'VALIDATION_FAILED');
  assertEnvelopeError(await viewer.call('GET', '/settlements?limit=abc'), 422);

  // A second settlement makes two pages of one.
  const c = await paid(t, client, 20_000);
  await settle(t, client.orgId);
  assert.equal((await sync(t, client.orgId)).settlements_new, 1);
  const p1 = await viewer.call('GET', '/settlements?limit=1');
  assert.equal(p1.body.data.length, 1);
  assert.equal(typeof p1.body.next_cursor, 'string');
  const p2 = await viewer.call('GET', `/settlements?limit=1&cursor=${p1.body.next_cursor}`);
  assert.equal(p2.status, 200, p2.text);
  assert.deepEqual([p2.body.data.length, p2.body.data[0].settlement_id, p2.body.next_cursor], [1, s.settlement_id, null]);
  assert.notEqual(p1.body.data[0].settlement_id, s.settlement_id, 'newest settled first');

  // One settlement and its lines, with their orders, refunds and match.
  const one = await viewer.call('GET', `/settlements/${s.settlement_id}`);
  assert.equal(one.status, 200, one.text);
  assert.equal(one.body.data.net_paise, 136_351);
  const lines = await viewer.call('GET', `/settlements/${s.settlement_id}/lines?limit=2`);
  assert.equal(lines.status, 200, lines.text);
  assert.equal(lines.body.data.length, 2);
  const rest = await viewer.call('GET', `/settlements/${s.settlement_id}/lines?limit=2&cursor=${lines.body.next_cursor}`);
  assert.equal(rest.body.data.length, 1);
  assert.equal(rest.body.next_cursor, null);
  const all = [...lines.body.data, ...rest.body.data].map((l: any) => [l.type, l.order_id, l.refund_id, l.amount_paise, l.fee_paise, l.tax_paise, l.net_paise, l.match]);
  assert.deepEqual(
    all.sort((x, y) => String(x[0]).localeCompare(String(y[0])) || Number(x[3]) - Number(y[3])),
    [
      ['PAYMENT', a.order_id, null, 49_900, 998, 180, 49_900 - 998 - 180, 'MATCHED'],
      ['PAYMENT', b.order_id, null, 99_991, 2_002, 360, 99_991 - 2_002 - 360, 'AMOUNT_MISMATCH'],
      ['REFUND', a.order_id, r.refund_id, 10_000, 0, 0, -10_000, 'MATCHED'], // net as stored: what the line takes off the credit
    ],
  );

  // CSV exports: dated names, rupees, every row.
  const csv = await viewer.call('GET', '/settlements/export');
  assert.equal(csv.status, 200, csv.text);
  assert.match(csv.headers.get('content-disposition') ?? '', /^attachment; filename="settlements-\d{4}-\d{2}-\d{2}\.csv"$/);
  const rows = csv.text.trim().split('\n');
  assert.equal(rows[0], 'settled_at,settlement_id,provider_account_id,provider,provider_account_name,provider_settlement_id,utr,gross_rupees,fees_rupees,tax_rupees,refunds_rupees,adjustments_rupees,net_rupees,lines,breaks');
  assert.equal(rows.length, 3);
  assert.ok(rows.some((row) => row.includes(`,${s.utr},1498.91,30.00,5.40,100.00,0.00,1363.51,3,1`)), csv.text);
  const lcsv = await viewer.call('GET', `/settlements/${s.settlement_id}/lines/export`);
  assert.equal(lcsv.status, 200, lcsv.text);
  assert.match(lcsv.headers.get('content-disposition') ?? '', new RegExp(`^attachment; filename="settlement-${s.utr}-lines-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
  // Every cell but the provider's payment id (its own random reference).
  const cells = lcsv.text.trim().split('\n').slice(1).map((row) => row.split(',').filter((_c, k) => k !== 3));
  assert.ok(cells.some((c) => c.join() === ['PAYMENT', b.order_id, '', '999.91', '20.02', '3.60', '976.29', 'AMOUNT_MISMATCH'].join()), lcsv.text);
  assert.ok(cells.some((c) => c.join() === ['REFUND', a.order_id, r.refund_id, '100.00', '0.00', '0.00', '100.00', 'MATCHED'].join()), lcsv.text);
  assert.equal(lcsv.text.trim().split('\n').length, 4);

  // Breaks by kind.
  const mism = await viewer.call('GET', '/recon/breaks?kind=AMOUNT_MISMATCH');
  assert.deepEqual(mism.body.data.map((x: any) => [x.kind, x.order_id]), [['AMOUNT_MISMATCH', b.order_id]]);
  assert.deepEqual((await viewer.call('GET', '/recon/breaks?kind=DUPLICATE&status=open')).body.data, []);
  assertEnvelopeError(await viewer.call('GET', '/recon/breaks?kind=BOGUS'), 422, 'VALIDATION_FAILED');
  void c;

  // Another organization sees none of it; a bad id is not found; no session is 401.
  const other = await t.createClient({});
  const stranger = await signedInUser(t, other.orgId, 'viewer@other.example', 'viewer');
  for (const path of [`/settlements/${s.settlement_id}`, `/settlements/${s.settlement_id}/lines`, `/settlements/${s.settlement_id}/lines/export`, '/settlements/not-a-uuid']) {
    assertEnvelopeError(await stranger.call('GET', path), 404, 'NOT_FOUND');
  }
  assert.deepEqual((await stranger.call('GET', '/settlements')).body.data, []);
  assert.equal((await stranger.call('GET', '/settlements/export')).text.trim().split('\n').length, 1, 'only the header');
  const theirs = await stranger.call('GET', '/balances');
  assert.deepEqual([theirs.body.data.totals.collected_paise, theirs.body.data.totals.unsettled_paise], [0, 0]);
  assertEnvelopeError(await consoleCaller(t).call('GET', '/balances'), 401);
  assertEnvelopeError(await consoleCaller(t).call('GET', '/settlements'), 401);
});
