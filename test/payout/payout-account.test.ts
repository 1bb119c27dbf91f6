/**
 * A payout account's balance and statement (issue #33 item 6), end to end: the real service with a
 * RazorpayX account on the simulator (over HTTP) as an organization's default payout route. The
 * console shows the balance to a maker; the statement check matches every settled payout to its
 * debit and names each break (a debit the bank lost, a debit no payout explains). The built-in
 * sandbox bank publishes no balance, and says so.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { RazorpayXSimulator, type SimWebhook } from '../providers/razorpayx-simulator.js';
import { signedInUser } from '../support/console.js';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import type { TestClient } from '../support/service.js';
import { createPayout, payoutBody, type PayoutWorld, startPayoutWorld, waitFor, waitForStatus } from './helpers.js';

let w: PayoutWorld;
let sim: RazorpayXSimulator;
let rzp: TestClient;
let accountId = '';
const from = new Date(Date.now() - 3600_000);

before(async () => {
  sim = await new RazorpayXSimulator({ balancePaise: 20_000_000 }).start();
  w = await startPayoutWorld({ PROVIDER_TIMEOUT_MS: '3000' });
  rzp = await w.t.createClient({ rateLimit: 100_000 });
  const account = await w.t.admin('POST', '/provider-accounts', { org: rzp.orgId, provider: 'razorpayx', config: sim.config(), name: 'RazorpayX (simulator)' });
  assert.equal(account.status, 201, account.text);
  accountId = account.body.data.provider_account_id;
  // The organization's first route: its default.
  const route = await w.t.admin('POST', '/routes', { org: rzp.orgId, modes: ['IMPS', 'NEFT', 'RTGS'], provider_account: accountId });
  assert.equal(route.status, 201, route.text);
});
after(async () => {
  await w?.t.stop();
  await sim?.stop();
});

async function deliver(hook: SimWebhook): Promise<void> {
  const res = await fetch(`${w.t.svc.internalUrl}/provider/${accountId}/callbacks`, { method: 'POST', headers: hook.headers, body: hook.rawBody });
  assert.equal(res.status, 200, await res.text());
}

let utr = 733815233800;
async function paid(amount: number): Promise<{ id: string; pout: string }> {
  const r = await createPayout({ ...w, client: rzp }, payoutBody(amount));
  assert.equal(r.status, 201, r.text);
  const txn = r.body.data.transaction_id as string;
  const p = await waitFor(`payout ${txn} at the simulator`, async () => sim.payoutsFor(txn)[0]);
  await deliver(sim.move(p.id as string, 'processed', { utr: String(++utr) }));
  await waitForStatus({ ...w, client: rzp }, r.body.data.id, 'SUCCESS');
  return { id: r.body.data.id as string, pout: p.id as string };
}

test("a maker sees the default route's balance as RazorpayX publishes it; the sandbox bank's organization is told it publishes none", async () => {
  const maker = await signedInUser(w.t, rzp.orgId, `maker-${Date.now()}@example.com`, 'maker');
  const r = await maker.call('GET', '/payout-balance');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.published, true);
  assert.equal(r.body.data.provider, 'razorpayx');
  assert.equal(r.body.data.balance_paise, sim.balancePaise);
  assert.equal(r.body.data.available_paise, sim.balancePaise);
  assert.match(r.body.data.refreshed_at, /^\d{4}-\d{2}-\d{2}T/);

  const sandboxMaker = await signedInUser(w.t, w.client.orgId, `maker-sb-${Date.now()}@example.com`, 'maker');
  const s = await sandboxMaker.call('GET', '/payout-balance');
  assert.equal(s.status, 200, s.text);
  assert.deepEqual(s.body.data, { published: false, provider: 'sandbox', reason: 'sandbox publishes no account balance.' });
});

test('a balance look-up RazorpayX refuses is said plainly, never a 5xx and never a balance of zero', async () => {
  const maker = await signedInUser(w.t, rzp.orgId, `maker2-${Date.now()}@example.com`, 'maker');
  const saved = sim.keySecret;
  Object.assign(sim, { keySecret: 'rotated-at-razorpay' });
  try {
    const r = await maker.call('GET', '/payout-balance');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.published, false);
    assert.match(r.body.data.reason, /could not be read from razorpayx: .*HTTP 401/);
  } finally {
    Object.assign(sim, { keySecret: saved });
  }
});

test('the statement check matches settled payouts to their debits, then names a lost debit and a debit without a payout', async () => {
  const a = await paid(120_000);
  const b = await paid(230_000);
  const clean = await w.t.svc.ctx.payoutAccounts.reconcileStatement(rzp.orgId, accountId, from, new Date(Date.now() + 5_000));
  assert.equal(clean.matched, 2);
  assert.deepEqual(clean.breaks, []);
  assert.ok(clean.lines >= 2);

  sim.dropDebitOf(b.pout);
  const outside = sim.externalDebit(99_900);
  const r = await w.t.svc.ctx.payoutAccounts.reconcileStatement(rzp.orgId, accountId, from, new Date(Date.now() + 5_000));
  assert.equal(r.matched, 1, `only ${a.id} still matches`);
  const kinds = r.breaks.map((x) => x.kind).sort();
  assert.deepEqual(kinds, ['DEBIT_WITHOUT_PAYOUT', 'PAYOUT_NOT_DEBITED']);
  const lost = r.breaks.find((x) => x.kind === 'PAYOUT_NOT_DEBITED')!;
  assert.equal(lost.payoutId, b.id);
  assert.equal(lost.expectedPaise, 230_000);
  const stray = r.breaks.find((x) => x.kind === 'DEBIT_WITHOUT_PAYOUT')!;
  assert.equal(stray.providerPayoutId, (outside.source as { id: string }).id);
  assert.equal(stray.reportedPaise, 99_900);
});

test("another organization's provider account is not found", async () => {
  await assert.rejects(w.t.svc.ctx.payoutAccounts.reconcileStatement(w.client.orgId, accountId, from, new Date()), /not found|Provider account/i);
});

test('the statement check records its breaks once as reconciliation breaks naming the payout; a reviewer resolves one; the CLI runs it', async () => {
  // The earlier test left a lost debit and a debit without a payout in the statement.
  const first = await w.t.svc.ctx.payoutAccounts.checkStatements(rzp.orgId, { lagMs: 0 });
  assert.equal(first.accounts, 1);
  assert.equal(first.breaks_new, 2);
  const again = await w.t.svc.ctx.payoutAccounts.checkStatements(rzp.orgId, { lagMs: 0 });
  assert.equal(again.breaks_new, 0, 'checked again, recorded once');

  const list = await w.t.admin('GET', `/recon/breaks?org=${rzp.orgId}&status=open`);
  assert.equal(list.status, 200, list.text);
  const lost = list.body.data.find((b: any) => b.kind === 'PAYOUT_NOT_DEBITED');
  const stray = list.body.data.find((b: any) => b.kind === 'DEBIT_WITHOUT_PAYOUT');
  assert.ok(lost?.payout_id && lost.provider_ref?.startsWith('pout_'), list.text);
  assert.equal(lost.expected_paise, 230_000);
  assert.equal(stray.payout_id, null);
  assert.equal(stray.reported_paise, 99_900);
  const resolved = await w.t.admin('POST', `/recon/breaks/${lost.break_id}/resolve`, { actor: 'ops@asha.example', note: 'RazorpayX support confirmed the debit on 7 Dec (ticket 4411).' });
  assert.equal(resolved.status, 200, resolved.text);
  assert.equal(resolved.body.data.status, 'resolved');

  const out = await runTijori(w.t, ['recon', 'payout-check', '--org', rzp.orgId, '--json']);
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(Object.keys(parseJsonOutput(out)).sort(), ['accounts', 'breaks_new', 'lines', 'matched']);
  // The contract's `recon breaks` answer keeps exactly its fields.
  const breaks = parseJsonOutput(await runTijori(w.t, ['recon', 'breaks', '--org', rzp.orgId, '--json']));
  assert.deepEqual(Object.keys(breaks[0]).sort(), ['break_id', 'detected_at', 'expected_paise', 'kind', 'order_id', 'refund_id', 'reported_paise', 'settlement_id', 'status']);
});

test('a payout debited before the window and reported a success inside it is matched, not taken for one without its debit', async () => {
  const r = await createPayout({ ...w, client: rzp }, payoutBody(77_700));
  assert.equal(r.status, 201, r.text);
  const txn = r.body.data.transaction_id as string;
  const p = await waitFor(`payout ${txn} at the simulator`, async () => sim.payoutsFor(txn)[0]);
  // The debit is written at creation; the window starts after it (the statement is kept in whole seconds).
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  const windowFrom = new Date(Date.now() - 500);
  await deliver(sim.move(p.id as string, 'processed', { utr: String(++utr) }));
  await waitForStatus({ ...w, client: rzp }, r.body.data.id, 'SUCCESS');
  const check = await w.t.svc.ctx.payoutAccounts.reconcileStatement(rzp.orgId, accountId, windowFrom, new Date(Date.now() + 5_000));
  assert.deepEqual(check.breaks.filter((b) => b.payoutId === r.body.data.id), []);
  assert.ok(check.matched >= 1);
});
