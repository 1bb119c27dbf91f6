/**
 * Contract §9 end to end with the sandbox PSP, through the real CLI and the admin API: the sandbox
 * settles (2 % fee, 18 % GST, refunds deducted, the `91`-paise short settlement), the service
 * imports it once (sequentially and concurrently), matches its lines, posts its ledger entry, and
 * a reviewer resolves the AMOUNT_MISMATCH break with a note (audited).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceWithClient } from '../support/service.js';
import { breaks, cli, paid, q, refunded, settle, sync } from './helpers.js';

const w = serviceWithClient({ rateLimit: 100_000 });

test('settle, import, match: fees, GST, refunds, the 91-paise mismatch; the answers of §9', async () => {
  const { t, client } = w;
  const a = await paid(t, client, 49_900);
  const b = await paid(t, client, 100_091);
  const r = await refunded(t, client, a.id, 10_000);

  const made = await settle(t, client.orgId);
  assert.equal(made.settlements.length, 1);
  const s = made.settlements[0];
  assert.deepEqual(Object.keys(s).sort(), ['lines', 'net_paise', 'provider_settlement_id', 'utr']);
  assert.equal(s.utr.length, 16);
  assert.equal(s.lines, 3);
  // 49 900: fee 998, GST 180 (179.64); 100 091 settled as 99 991: fee 2 002 (2 % of 100 091 as paid: 2 001.82), GST 360; refund 10 000 deducted.
  assert.equal(s.net_paise, 49_900 + 99_991 - 998 - 180 - 2_002 - 360 - 10_000);
  assert.deepEqual(await settle(t, client.orgId), { settlements: [] }, 'nothing is settled twice');

  assert.deepEqual(await sync(t, client.orgId), { settlements_new: 1, lines_new: 3, matched: 2, breaks: 1 });
  assert.deepEqual(await sync(t, client.orgId), { settlements_new: 0, lines_new: 0, matched: 0, breaks: 0 }, 'the same settlement is stored once');

  const list = await cli(t, 'settlements', 'list', '--org', client.orgId);
  assert.equal(list.length, 1);
  assert.deepEqual(Object.keys(list[0]).sort(), [
    'adjustments_paise', 'breaks', 'fees_paise', 'gross_paise', 'lines', 'net_paise', 'provider_account_id', 'provider_settlement_id', 'refunds_paise', 'settled_at', 'settlement_id', 'tax_paise', 'utr',
  ]);
  const got = list[0];
  assert.deepEqual(
    { id: got.provider_settlement_id, utr: got.utr, gross: got.gross_paise, fees: got.fees_paise, tax: got.tax_paise, refunds: got.refunds_paise, adj: got.adjustments_paise, net: got.net_paise, lines: got.lines, breaks: got.breaks, account: got.provider_account_id },
    { id: s.provider_settlement_id, utr: s.utr, gross: 149_891, fees: 3_000, tax: 540, refunds: 10_000, adj: 0, net: s.net_paise, lines: 3, breaks: 1, account: null },
  );
  assert.equal(got.net_paise, got.gross_paise - got.fees_paise - got.tax_paise - got.refunds_paise - got.adjustments_paise);

  const lines = (await q(t, 'SELECT type, order_reference, refund_reference, amount_paise, fee_paise, tax_paise, match FROM settlement_lines WHERE settlement_id = $1 ORDER BY provider_line_id', [got.settlement_id])).rows;
  assert.deepEqual(lines, [
    { type: 'PAYMENT', order_reference: a.order_id, refund_reference: null, amount_paise: 49_900, fee_paise: 998, tax_paise: 180, match: 'MATCHED' },
    { type: 'PAYMENT', order_reference: b.order_id, refund_reference: null, amount_paise: 99_991, fee_paise: 2_002, tax_paise: 360, match: 'AMOUNT_MISMATCH' },
    { type: 'REFUND', order_reference: a.order_id, refund_reference: r.refund_id, amount_paise: 10_000, fee_paise: 0, tax_paise: 0, match: 'MATCHED' },
  ]);

  // The ledger's "settlement imported" entry, written with the settlement.
  const entry = (await q(t, `SELECT p.account, p.amount_paise FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id WHERE e.kind = 'settlement_imported' AND e.source_id = $1 ORDER BY p.account`, [got.settlement_id])).rows;
  assert.deepEqual(Object.fromEntries(entry.map((p: any) => [p.account, Number(p.amount_paise)])), { collections_receivable: -(149_891 - 10_000), fees: 3_000, settled: s.net_paise, taxes: 540 });

  // The break, and its resolution by a reviewer with a note.
  const open = await breaks(t, client.orgId, 'open');
  assert.equal(open.length, 1);
  assert.deepEqual(open[0], { break_id: open[0].break_id, kind: 'AMOUNT_MISMATCH', settlement_id: got.settlement_id, order_id: b.order_id, refund_id: null, expected_paise: 100_091, reported_paise: 99_991, detected_at: open[0].detected_at, status: 'open' });
  const resolved = await t.admin('POST', `/recon/breaks/${open[0].break_id}/resolve`, { actor: 'reviewer@example.com', note: 'PSP short-paid 1.00; claimed back in ticket 42' });
  assert.equal(resolved.status, 200, resolved.text);
  assert.equal(resolved.body.data.status, 'resolved');
  const again = await t.admin('POST', `/recon/breaks/${open[0].break_id}/resolve`, { actor: 'other', note: 'again' });
  assert.equal(again.status, 409, again.text);
  const noNote = await t.admin('POST', `/recon/breaks/${open[0].break_id}/resolve`, { actor: 'other', note: '   ' });
  assert.ok(noNote.status === 422 || noNote.status === 409, noNote.text);
  assert.deepEqual((await breaks(t, client.orgId, 'open')).length, 0);
  const kept = await breaks(t, client.orgId, 'resolved');
  assert.equal(kept.length, 1, 'a resolved break stays listed');
  const audit = (await q(t, 'SELECT actor, action, note FROM recon_break_audit WHERE break_id = $1', [open[0].break_id])).rows;
  assert.deepEqual(audit, [{ actor: 'reviewer@example.com', action: 'resolve', note: 'PSP short-paid 1.00; claimed back in ticket 42' }]);
});

test('two syncs at once store a settlement once', async () => {
  const { t } = w;
  const c2 = await t.createClient({ rateLimit: 100_000 });
  await paid(t, c2, 25_000);
  await paid(t, c2, 12_345);
  await settle(t, c2.orgId);
  const both = await Promise.all([sync(t, c2.orgId), sync(t, c2.orgId), sync(t, c2.orgId)]);
  assert.equal(both.reduce((n, r) => n + r.settlements_new, 0), 1);
  assert.equal(both.reduce((n, r) => n + r.lines_new, 0), 2);
  assert.equal(Number((await q(t, 'SELECT count(*) FROM settlements WHERE org_id = $1', [c2.orgId])).rows[0].count), 1);
  assert.equal(Number((await q(t, `SELECT count(*) FROM ledger_entries WHERE org_id = $1 AND kind = 'settlement_imported'`, [c2.orgId])).rows[0].count), 1);
});

test('org set --settlement-expected-days: 1 to 30, default 3; the answer is the settings', async () => {
  const { t } = w;
  const c3 = await t.createClient({});
  const set = await cli(t, 'org', 'set', '--org', c3.orgId, '--settlement-expected-days', '7');
  assert.deepEqual(set, { id: c3.orgId, name: set.name, refund_review: 'required', settlement_expected_days: 7 });
  const { runTijori } = await import('../support/cli.js');
  for (const bad of ['0', '31']) {
    const r = await runTijori(t, ['org', 'set', '--org', c3.orgId, '--settlement-expected-days', bad, '--json']);
    assert.equal(r.code, 2, r.stderr);
  }
  for (const args of [['recon', 'breaks', '--org', c3.orgId, '--status', 'maybe'], ['settlements', 'sync'], ['settlements', 'list']]) {
    const r = await runTijori(t, [...args, '--json']);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
  }
  const unknownOrg = await runTijori(t, ['settlements', 'sync', '--org', '00000000-0000-4000-8000-000000000000', '--json']);
  assert.equal(unknownOrg.code, 1);
  assert.match(unknownOrg.stderr, /NOT_FOUND/);
  const api = await t.admin('POST', `/orgs/${c3.orgId}/settings`, { settlement_expected_days: 31 });
  assert.equal(api.status, 422, api.text);
  assert.equal((await q(t, 'SELECT settlement_expected_days FROM organizations WHERE id = $1', [c3.orgId])).rows[0].settlement_expected_days, 7);
});

test('ledger verify computes the settlement side from the stored lines: totals that disagree with them are a mismatch', async () => {
  const { t } = w;
  const c = await t.createClient({ rateLimit: 100_000 });
  await paid(t, c, 20_000);
  await settle(t, c.orgId);
  await sync(t, c.orgId);
  const clean = await cli(t, 'ledger', 'verify', '--org', c.orgId);
  assert.deepEqual([clean.balanced, clean.mismatches], [true, []]);
  // A stored line that no longer adds up to the totals the import posted (a write behind the import).
  await q(t, "UPDATE settlement_lines SET fee_paise = fee_paise + 5 WHERE org_id = $1 AND type = 'PAYMENT'", [c.orgId]);
  const v = await cli(t, 'ledger', 'verify', '--org', c.orgId);
  assert.deepEqual(
    v.mismatches.map((m: any) => [m.account, m.records_paise - m.journal_paise]).sort(),
    [['fees', 5], ['settled', -5]],
  );
});
