/**
 * End to end through the real service with the RazorpayX connector pointed at the RazorpayX
 * simulator: merchant API → payout service → connector → simulator, and the simulator's signed
 * webhooks → internal intake → payout state. The organization holds a razorpayx provider account
 * (contract §8, `tijori provider add`) whose base_url is the simulator, and a bank connection on it;
 * webhooks arrive at that account's intake address.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { RazorpayXSimulator, type SimWebhook } from '../providers/razorpayx-simulator.js';
import { createPayout, eventsOf, payoutBody, type PayoutWorld, startPayoutWorld, waitFor, waitForStatus } from './helpers.js';

let w: PayoutWorld;
let sim: RazorpayXSimulator;
let accountId = '';
let bankConnectionId = '';

before(async () => {
  sim = await new RazorpayXSimulator({
    initialStatus: (b) => ((b.amount as number) % 100 === 13 ? { status: 'failed', reason: 'bank_account_closed' } : { status: 'processing' }),
  }).start();
  w = await startPayoutWorld({ PROVIDER_TIMEOUT_MS: '3000' });
  const account = await w.t.admin('POST', '/provider-accounts', { org: w.client.orgId, provider: 'razorpayx', config: sim.config(), name: 'RazorpayX (simulator)' });
  assert.equal(account.status, 201, account.text);
  accountId = account.body.data.provider_account_id;
  const bankConnection = await w.t.admin('POST', '/routes', { org: w.client.orgId, modes: ['IMPS', 'NEFT', 'RTGS'], provider_account: accountId });
  assert.equal(bankConnection.status, 201, bankConnection.text);
  bankConnectionId = bankConnection.body.data.bank_connection_id;
  // A PayOut destination, to show that the opt-in payout.reversed is not delivered to it.
  const r = await w.t.admin('PUT', `/orgs/${w.client.orgId}/destinations/payout`, { url: 'https://merchant.example.com/hooks/payout' });
  assert.equal(r.status, 201, r.text);
});
after(async () => {
  await w?.t.stop();
  await sim?.stop();
});

async function deliver(hook: SimWebhook): Promise<{ status: number; body: any }> {
  const res = await fetch(`${w.t.svc.internalUrl}/provider/${accountId}/callbacks`, { method: 'POST', headers: hook.headers, body: hook.rawBody });
  return { status: res.status, body: await res.json() };
}

async function created(amount: number) {
  const r = await createPayout(w, payoutBody(amount, { bank_connection_id: bankConnectionId }));
  assert.equal(r.status, 201, r.text);
  const txn = r.body.data.transaction_id as string;
  const p = await waitFor(`payout ${txn} at the simulator`, async () => sim.payoutsFor(txn)[0]);
  return { id: r.body.data.id as string, txn, pout: p.id as string };
}

test('webhooks settle a payout: processed → SUCCESS with the UTR; a late initiated never moves it back; duplicates and forgeries change nothing; reversed → REVERSED with payout.reversed', async () => {
  const { id, txn, pout } = await created(150_000);
  const initiated = sim.move(pout, 'processing');
  const processed = sim.move(pout, 'processed', { utr: '933815233814' });
  assert.equal((await deliver(processed)).status, 200);
  const ok = await waitForStatus(w, id, 'SUCCESS');
  assert.equal(ok.utr, '933815233814');
  assert.equal(ok.bank_reference, pout);

  // Out of order: the older payout.initiated arrives after processed.
  assert.deepEqual((await deliver(initiated)).body, { received: true, duplicate: false });
  // Duplicate: the same event id again.
  assert.deepEqual((await deliver(processed)).body, { received: true, duplicate: true });
  // Forged: signed with another secret → 401, nothing stored.
  const forged = sim.sign(sim.move(pout, 'failed', { reason: 'forged' }).rawBody, { secret: 'attacker' });
  assert.equal((await deliver(forged)).status, 401);
  await waitFor('the late initiated event to be processed', async () => {
    // Stored under the account that verified it and what it says (the payout entity and its status).
    const r = await w.t.database.db.query<{ state: string }>("SELECT state FROM provider_events WHERE provider = 'razorpayx' AND event_id LIKE $1", [`%:payout:${pout}:processing`]);
    return r.rows[0]?.state === 'processed' ? true : undefined;
  });
  assert.equal((await w.t.api('GET', `/merchant/payouts/${id}`, { client: w.client })).body.data.status, 'SUCCESS');
  const metrics = await (await fetch(`${w.t.svc.internalUrl}/metrics`)).text();
  assert.match(metrics, /tijori_provider_webhooks_total\{provider="razorpayx",result="bad_signature"\} [1-9]/);
  const stored = await w.t.database.db.query("SELECT 1 FROM provider_events WHERE provider = 'razorpayx' AND reference = $1", [txn]);
  assert.equal(stored.rowCount, 2, 'processed and initiated once each; neither the duplicate nor the forgery');

  // Days later the bank reverses it.
  const reversed = sim.move(pout, 'reversed', { reason: 'beneficiary_bank_offline', description: 'Beneficiary bank systems are offline' });
  assert.equal((await deliver(reversed)).status, 200);
  const rev = await waitForStatus(w, id, 'REVERSED');
  assert.equal(rev.utr, '933815233814', 'keeps the UTR of the success it undid');
  assert.match(rev.failure_reason, /beneficiary_bank_offline/);
  assert.deepEqual(rev.attempts.map((a: { status: string }) => a.status), ['REVERSED']);
  const events = await eventsOf(w, id);
  assert.deepEqual(events.map((e) => e.kind).sort(), ['payout.created', 'payout.reversed', 'payout.success']);
  const ev = events.find((e) => e.kind === 'payout.reversed')!.body;
  assert.equal(ev.data.status, 'REVERSED');
  assert.equal(ev.data.utr, '933815233814');
  assert.equal(ev.data.livemode, false);
  const deliveries = await w.t.database.db.query<{ kind: string }>(
    'SELECT e.kind FROM callback_deliveries d JOIN events e ON e.id = d.event_id WHERE e.aggregate_id = $1 ORDER BY e.kind',
    [id],
  );
  assert.deepEqual(deliveries.rows.map((r) => r.kind), ['payout.created', 'payout.success'], 'payout.reversed is opt-in: not sent to an unsubscribed destination');
  const history = await w.t.database.db.query<{ entity: string; from_status: string; to_status: string; trigger: string }>(
    "SELECT entity, from_status, to_status, trigger FROM payout_transitions WHERE payout_id = $1 AND to_status = 'REVERSED' ORDER BY id",
    [id],
  );
  assert.deepEqual(history.rows, [
    { entity: 'attempt', from_status: 'SUCCESS', to_status: 'REVERSED', trigger: 'provider_reversed' },
    { entity: 'payout', from_status: 'SUCCESS', to_status: 'REVERSED', trigger: 'attempt_reversed' },
  ]);
});

test('a lost create answer: the payout stays PROCESSING, is found by reference_id, and settles by inquiry; one create, one payout', async () => {
  sim.faults.push({ kind: 'lost_answer' });
  const r = await createPayout(w, payoutBody(160_000, { bank_connection_id: bankConnectionId }));
  assert.equal(r.status, 201, r.text);
  const { id, transaction_id: txn } = r.body.data;
  const p = await waitFor('the payout at the simulator', async () => sim.payoutsFor(txn)[0]);
  await waitFor('the attempt to be accepted after inquiry', async () => {
    const a = await w.t.database.db.query<{ status: string; bank_reference: string | null }>(
      'SELECT a.status, a.bank_reference FROM payout_attempts a JOIN payouts p ON p.id = a.payout_id WHERE p.transaction_id = $1', [txn]);
    return a.rows[0]?.status === 'PROCESSING' && a.rows[0].bank_reference === p.id ? true : undefined;
  });
  // processing for a long time is never a failure: three more inquiries, each made due at once
  // (its back-off moved to now rather than waited for), find it processing and leave it so.
  const inquiries = async () => (await w.t.database.db.query<{ n: number }>(
    'SELECT a.inquiry_count AS n FROM payout_attempts a JOIN payouts p ON p.id = a.payout_id WHERE p.transaction_id = $1', [txn])).rows[0]!.n;
  let seen = await inquiries();
  for (let i = 1; i <= 3; i++) {
    await w.t.database.db.query('UPDATE payout_attempts a SET next_check_at = now() FROM payouts p WHERE p.id = a.payout_id AND p.transaction_id = $1', [txn]);
    await w.t.workerRounds('payout-inquiry');
    const now = await inquiries();
    assert.ok(now > seen, `inquiry ${i} made (${seen} → ${now})`);
    seen = now;
  }
  assert.equal((await w.t.api('GET', `/merchant/payouts/${id}`, { client: w.client })).body.data.status, 'PROCESSING');
  sim.move(p.id as string, 'processed', { utr: '412345678901' });
  const ok = await waitForStatus(w, id, 'SUCCESS');
  assert.equal(ok.utr, '412345678901');
  assert.equal(sim.requests.filter((x) => x.method === 'POST' && x.idempotencyKey === txn).length, 1, 'never sent again');
  assert.equal(sim.payoutsFor(txn).length, 1);
});

test('a refusal at create fails the payout; a reversal before any success is a failure, not REVERSED', async () => {
  const r = await createPayout(w, payoutBody(170_013, { bank_connection_id: bankConnectionId }));
  const failed = await waitForStatus(w, r.body.data.id, 'FAILED');
  assert.match(failed.failure_reason, /bank_account_closed/);

  const { id, pout } = await created(180_000);
  assert.equal((await deliver(sim.move(pout, 'reversed', { reason: 'beneficiary_bank_offline' }))).status, 200);
  const f = await waitForStatus(w, id, 'FAILED');
  assert.match(f.failure_reason, /reversed by the provider: beneficiary_bank_offline/);
  // processed arriving later changes nothing (stored when answered 200; processed by the rounds)
  assert.equal((await deliver(sim.move(pout, 'processed', { utr: '412345678902' }))).status, 200);
  await w.t.workerRounds('provider-events');
  assert.equal((await w.t.api('GET', `/merchant/payouts/${id}`, { client: w.client })).body.data.status, 'FAILED');
});

test("another organization's account cannot settle this organization's payout: its signed webhook naming it is refused, nothing stored", async () => {
  const { id, txn, pout } = await created(190_000);
  // Org B holds its own razorpayx account (its own webhook secret) and signs a "processed" for A's payout.
  const other = await w.t.createClient({});
  const account = await w.t.admin('POST', '/provider-accounts', {
    org: other.orgId, provider: 'razorpayx', config: sim.config({ webhook_secret: 'org-b-webhook-secret' }), name: 'org B',
  });
  assert.equal(account.status, 201, account.text);
  // The body Razorpay would send for a processed payout, made without moving the simulator's payout
  // (the service's inquiries would then rightly find it processed).
  const news = JSON.parse(sim.webhookFor(pout, 'payout.processed').rawBody);
  Object.assign(news.payload.payout.entity, { status: 'processed', utr: '412345678999' });
  const forged = sim.sign(JSON.stringify(news), { secret: 'org-b-webhook-secret' });
  const res = await fetch(account.body.data.callback_url, { method: 'POST', headers: forged.headers, body: forged.rawBody });
  assert.equal(res.status, 404, await res.text());
  const stored = await w.t.database.db.query('SELECT 1 FROM provider_events WHERE provider_account_id = $1', [account.body.data.provider_account_id]);
  assert.equal(stored.rowCount, 0);
  await w.t.workerRounds('provider-events');
  assert.equal((await w.t.api('GET', `/merchant/payouts/${id}`, { client: w.client })).body.data.status, 'PROCESSING');
  // The same news from A's own account settles it.
  assert.equal((await deliver(sim.move(pout, 'processed', { utr: '412345678999' }))).status, 200);
  assert.equal((await waitForStatus(w, id, 'SUCCESS')).utr, '412345678999');
  void txn;
});

test('issue #29 item 3: a captured webhook replayed under a new event id is a duplicate (de-duplicated by the payout entity and its status); a stale one is acknowledged and never stored', async () => {
  const { id, txn, pout } = await created(40_200);
  const processed = sim.move(pout, 'processed', { utr: '555500001111' });
  assert.deepEqual((await deliver(processed)).body, { received: true, duplicate: false });
  await waitForStatus(w, id, 'SUCCESS');
  // The same body, its signature intact, under a fresh x-razorpay-event-id.
  const replayed = { rawBody: processed.rawBody, headers: { ...processed.headers, 'x-razorpay-event-id': 'evt_ReplayedUnderNewId01' } };
  assert.deepEqual((await deliver(replayed)).body, { received: true, duplicate: true });
  // A body whose created_at is older than Razorpay's 24 h of retries (or missing): not used.
  const old = JSON.parse(sim.webhookFor(pout, 'payout.reversed').rawBody.replace(/\\\//g, '/'));
  old.created_at = Math.floor(Date.now() / 1000) - 26 * 3600;
  old.payload.payout.entity.status = 'reversed';
  const stale = sim.sign(JSON.stringify(old));
  assert.deepEqual((await deliver(stale)).body, { received: true, duplicate: false });
  delete old.created_at;
  assert.deepEqual((await deliver(sim.sign(JSON.stringify(old)))).body, { received: true, duplicate: false });
  const stored = await w.t.database.db.query<{ event_id: string; provider_account_id: string }>('SELECT event_id, provider_account_id FROM provider_events WHERE reference = $1', [txn]);
  assert.deepEqual(stored.rows, [{ event_id: `${accountId}:payout:${pout}:processed`, provider_account_id: accountId }]);
  await w.t.workerRounds('provider-events');
  assert.equal((await w.t.api('GET', `/merchant/payouts/${id}`, { client: w.client })).body.data.status, 'SUCCESS');
});

test('the ledger (contract §9): each payout posted under the RazorpayX account, a reversal moves the amount back, verify clean', async () => {
  const db = w.t.database.db;
  const reversed = await db.query<{ id: string; amount_paise: number }>(`SELECT id, amount_paise FROM payouts WHERE org_id = $1 AND status = 'REVERSED'`, [w.client.orgId]);
  assert.equal(reversed.rowCount, 1, 'the payout reversed above');
  const entries = await db.query<{ kind: string; provider_account_id: string; postings: Record<string, number> }>(
    `SELECT e.kind, e.provider_account_id::text, json_object_agg(p.account, p.amount_paise) AS postings
       FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id WHERE e.source_id = $1 GROUP BY e.id ORDER BY e.id`,
    [reversed.rows[0]!.id],
  );
  const n = reversed.rows[0]!.amount_paise;
  assert.deepEqual(entries.rows, [
    { kind: 'payout_created', provider_account_id: accountId, postings: { payouts_in_flight: n, payout_funding: -n } },
    { kind: 'payout_succeeded', provider_account_id: accountId, postings: { payouts_paid: n, payouts_in_flight: -n } },
    { kind: 'payout_reversed', provider_account_id: accountId, postings: { payout_funding: n, payouts_paid: -n } },
  ]);
  const v = await w.t.admin('GET', `/orgs/${w.client.orgId}/ledger/verify`);
  assert.equal(v.status, 200, v.text);
  assert.equal(v.body.data.balanced, true);
  assert.deepEqual(v.body.data.mismatches, []);
  const paid = (await db.query<{ n: number }>(`SELECT coalesce(sum(amount_paise), 0)::int AS n FROM payouts WHERE org_id = $1 AND status = 'SUCCESS'`, [w.client.orgId])).rows[0]!.n;
  const balances = (await w.t.admin('GET', `/orgs/${w.client.orgId}/ledger/balances`)).body.data as Array<{ provider_account_id: string; account: string; balance_paise: number }>;
  assert.deepEqual(balances.filter((b) => b.account === 'payouts_paid'), [{ provider_account_id: accountId, account: 'payouts_paid', balance_paise: paid }]);
});
