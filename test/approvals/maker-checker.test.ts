/**
 * Maker-checker console payouts (contract §6, issue #21 item 1) against the real service,
 * PostgreSQL and the sandbox bank: a maker's payout waits PENDING_APPROVAL with nothing sent; a
 * checker other than the maker approves it (submitted as an API payout, one attempt, one transfer)
 * or rejects it (REJECTED, payout.rejected, no money); a maker may never decide their own, even
 * calling the API directly; two checkers at once give one approval and one 409; all audited; the
 * merchant API never shows console payouts and the API clients list never shows the console principal.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import { eventsOf, type PayoutWorld, startPayoutWorld, waitFor } from '../payout/helpers.js';

let w: PayoutWorld;
let maker: ConsoleCaller & { userId: string };
let checker: ConsoleCaller & { userId: string };
let checker2: ConsoleCaller & { userId: string };
let admin: ConsoleCaller & { userId: string };
let viewer: ConsoleCaller & { userId: string };

const form = (amount: number, overrides: Record<string, unknown> = {}) => ({
  beneficiary: { name: 'Ravi Verma', account_number: '50100012345678', ifsc: 'hdfc0000001', mobile: '9812345678' },
  amount_paise: amount,
  mode: 'IMPS',
  remarks: 'vendor invoice 42',
  ...overrides,
});

/** POST /payouts as the console app sends it: with the form's Idempotency-Key. */
const create = (by: ConsoleCaller, body: unknown, key: string = randomUUID()) => by.call('POST', '/payouts', body, { headers: { 'idempotency-key': key } });

async function make(amount: number, by: ConsoleCaller = maker): Promise<any> {
  const r = await create(by, form(amount));
  assert.equal(r.status, 201, r.text);
  return r.body.data;
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const r = await w.t.database.db.query<{ n: number }>(sql, params);
  return Number(r.rows[0]!.n);
}
const attempts = (id: string) => count('SELECT count(*)::int AS n FROM payout_attempts WHERE payout_id = $1', [id]);
const transfers = (reference: string) => count('SELECT count(*)::int AS n FROM sandbox_bank_submissions WHERE reference = $1', [reference]);

before(async () => {
  w = await startPayoutWorld();
  const org = w.client.orgId;
  maker = await signedInUser(w.t, org, 'maker@example.com', 'maker');
  checker = await signedInUser(w.t, org, 'checker@example.com', 'checker');
  checker2 = await signedInUser(w.t, org, 'checker2@example.com', 'checker');
  admin = await signedInUser(w.t, org, 'admin@example.com', 'admin');
  viewer = await signedInUser(w.t, org, 'viewer@example.com', 'viewer');
});
after(() => w?.t.stop());

test('IFSC look-up shows the bank; a maker\'s payout waits PENDING_APPROVAL with approval_required and nothing sent', async () => {
  const ifsc = await maker.call('GET', '/ifsc/hdfc0000001');
  assert.equal(ifsc.status, 200, ifsc.text);
  assert.equal(ifsc.body.data.ifsc, 'HDFC0000001');
  assert.match(ifsc.body.data.bank_name, /HDFC/i);
  assert.equal((await maker.call('GET', '/ifsc/ABCD0XXXXXX')).status, 404);

  const p = await make(150_000);
  assert.equal(p.status, 'PENDING_APPROVAL');
  assert.equal(p.approval_required, true);
  assert.equal(p.maker_user_id, maker.userId);
  assert.equal(p.beneficiary.ifsc, 'HDFC0000001');
  assert.equal(p.beneficiary.account_number_last4, '5678');
  assert.deepEqual(p.attempts, []);
  assert.equal(await attempts(p.id), 0);
  assert.equal(await transfers(p.transaction_id), 0);
  assert.deepEqual((await eventsOf(w, p.id)).map((e) => e.kind), [], 'no event before approval');

  const queue = await viewer.call('GET', '/payout-approvals');
  assert.equal(queue.status, 200, queue.text);
  const queued = queue.body.data.find((x: any) => x.id === p.id);
  assert.equal(queued.maker, 'maker@example.com');
});

test('the form\'s rules are those of every payout: bad IFSC, account, mobile and rail limit are each reported', async () => {
  const r = await create(maker, form(60_000_000, { beneficiary: { name: ' ', account_number: '12ab', ifsc: 'ABCD0XXXXXX', mobile: '12345' } }));
  assert.equal(r.status, 422, r.text);
  assert.equal(r.body.error.code, 'VALIDATION_FAILED');
  const fields = r.body.error.details.map((d: any) => d.field).sort();
  assert.deepEqual(fields, ['amount_paise', 'beneficiary.account_number', 'beneficiary.ifsc', 'beneficiary.mobile', 'beneficiary.name']);
  const viewerTry = await create(viewer, form(1000));
  assert.equal(viewerTry.status, 403, viewerTry.text);
});

test('a checker approves: PROCESSING, one attempt, submitted once, SUCCESS; audited; payout.created sent at approval', async () => {
  const p = await make(170_000);
  const r = await checker.call('POST', `/payouts/${p.id}/approve`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.checker_user_id, checker.userId);
  assert.ok(['PROCESSING', 'SUCCESS'].includes(r.body.data.status), r.body.data.status);
  const done = await waitFor('approved payout to succeed', async () => {
    const g = await viewer.call('GET', `/payouts/${p.id}`);
    return g.body.data?.payout?.status === 'SUCCESS' ? g.body.data.payout : undefined;
  });
  assert.match(done.utr, /^[0-9]{12}$/);
  assert.equal(await attempts(p.id), 1);
  assert.equal(await transfers(p.transaction_id), 1);
  assert.deepEqual((await eventsOf(w, p.id)).map((e) => e.kind), ['payout.created', 'payout.success']);
  // The ledger (contract §9): created at approval, then paid; nothing while it waited.
  const entries = await w.t.database.db.query<{ kind: string }>('SELECT kind FROM ledger_entries WHERE source_id = $1 ORDER BY kind', [p.id]);
  assert.deepEqual(entries.rows.map((e) => e.kind), ['payout_created', 'payout_succeeded']);
  const again = await checker2.call('POST', `/payouts/${p.id}/approve`);
  assert.equal(again.status, 409, again.text);
  assert.equal(again.body.error.code, 'INVALID_STATE');

  const audit = await viewer.call('GET', '/audit-log?limit=200');
  const mine = audit.body.data.filter((e: any) => e.target_id === p.id).map((e: any) => `${e.actor} ${e.action}`);
  assert.deepEqual(mine.sort(), ['checker@example.com payout.approved', 'maker@example.com payout.created']);
});

test('a maker may never approve or reject their own payout, even as an admin calling the API directly (403)', async () => {
  const own = await make(180_000, admin);
  for (const [path, body] of [[`/payouts/${own.id}/approve`, undefined], [`/payouts/${own.id}/reject`, { note: 'mine' }]] as const) {
    const r = await admin.call('POST', path, body);
    assert.equal(r.status, 403, r.text);
    assert.equal(r.body.error.code, 'SELF_APPROVAL_DENIED');
  }
  // The maker role has no checker permission at all.
  const p = await make(181_000);
  const r = await maker.call('POST', `/payouts/${p.id}/approve`);
  assert.equal(r.status, 403, r.text);
  assert.equal(r.body.error.code, 'API_SCOPE_DENIED');
  assert.equal(await attempts(own.id), 0);
  assert.equal(await attempts(p.id), 0);
  // Another admin's payout can be approved by this admin (a checker other than the maker).
  assert.equal((await checker.call('POST', `/payouts/${own.id}/approve`)).status, 200);
});

test('a checker rejects with a note: REJECTED, payout.rejected stored, no attempt, no transfer; note required', async () => {
  const p = await make(190_000);
  const noNote = await checker.call('POST', `/payouts/${p.id}/reject`, { note: '   ' });
  assert.equal(noNote.status, 422, noNote.text);
  const r = await checker.call('POST', `/payouts/${p.id}/reject`, { note: 'duplicate of invoice 41' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.status, 'REJECTED');
  assert.equal(r.body.data.decision_note, 'duplicate of invoice 41');
  const events = await eventsOf(w, p.id);
  assert.deepEqual(events.map((e) => e.kind), ['payout.rejected']);
  assert.equal(events[0]!.body.data.status, 'REJECTED');
  assert.equal(events[0]!.body.data.rejection_note, 'duplicate of invoice 41');
  assert.equal(await attempts(p.id), 0);
  assert.equal(await transfers(p.transaction_id), 0);
  assert.equal(await count('SELECT count(*)::int AS n FROM ledger_entries WHERE source_id = $1', [p.id]), 0, 'a rejected payout moved no money: no ledger entry');
  const late = await checker2.call('POST', `/payouts/${p.id}/approve`);
  assert.equal(late.status, 409, late.text);
  const audit = await viewer.call('GET', '/audit-log?action=payout.rejected');
  assert.ok(audit.body.data.some((e: any) => e.target_id === p.id && e.after.note === 'duplicate of invoice 41'));
});

test('two checkers approving at once: exactly one approval and one submission, the other told 409', async () => {
  for (let round = 0; round < 5; round++) {
    const p = await make(200_000 + round);
    const answers = await Promise.all([checker.call('POST', `/payouts/${p.id}/approve`), checker2.call('POST', `/payouts/${p.id}/approve`)]);
    const codes = answers.map((a) => a.status).sort();
    assert.deepEqual(codes, [200, 409], answers.map((a) => a.text).join('\n'));
    assert.equal(answers.find((a) => a.status === 409)!.body.error.code, 'INVALID_STATE');
    assert.equal(await attempts(p.id), 1);
    assert.equal(await count(`SELECT count(*)::int AS n FROM payout_transitions WHERE payout_id = $1 AND trigger = 'approved'`, [p.id]), 1);
    assert.equal(await count(`SELECT count(*)::int AS n FROM console_audit_log WHERE target_id = $1::text AND action = 'payout.approved'`, [p.id]), 1);
    await waitFor('one transfer', async () => ((await transfers(p.transaction_id)) >= 1 ? true : undefined));
    assert.equal(await transfers(p.transaction_id), 1);
    assert.equal(await count(`SELECT count(*)::int AS n FROM ledger_entries WHERE source_id = $1 AND kind = 'payout_created'`, [p.id]), 1, 'one payout_created entry');
  }
  const v = await w.t.admin('GET', `/orgs/${w.client.orgId}/ledger/verify`);
  assert.equal(v.body.data.balanced, true);
  assert.deepEqual(v.body.data.mismatches, []);
});

test('a saved beneficiary is offered and usable; console payouts never appear in the merchant API; the console principal is no API client', async () => {
  const saved = await maker.call('GET', '/payout-beneficiaries');
  assert.equal(saved.status, 200, saved.text);
  const ben = saved.body.data.find((b: any) => b.account_number_last4 === '5678');
  assert.ok(ben, saved.text);
  const p = await create(maker, { beneficiary_id: ben.id, amount_paise: 120_000, mode: 'NEFT' });
  assert.equal(p.status, 201, p.text);
  assert.equal(p.body.data.beneficiary.id, ben.id);

  const list = await w.t.api('GET', '/merchant/payouts?limit=100', { client: w.client });
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.body.data, []);
  const get = await w.t.api('GET', `/merchant/payouts/${p.body.data.id}`, { client: w.client });
  assert.equal(get.status, 404, get.text);
  const clients = await admin.call('GET', '/api-clients');
  assert.equal(clients.status, 200, clients.text);
  assert.deepEqual(clients.body.data.map((c: any) => c.client_id), [w.client.clientId]);
  // The console's payout list shows every payout of the organization, pending ones included.
  const consoleList = await viewer.call('GET', '/payouts?status=PENDING_APPROVAL');
  assert.equal(consoleList.status, 200, consoleList.text);
  assert.ok(consoleList.body.data.some((x: any) => x.id === p.body.data.id));
});

test('the payout form is idempotent by its Idempotency-Key: a double click makes one payout; a repeat replays it; another body or maker is refused', async () => {
  const key = randomUUID();
  const amount = 211_111;
  const payoutsOfAmount = () => count('SELECT count(*)::int AS n FROM payouts WHERE org_id = $1 AND amount_paise = $2', [w.client.orgId, amount]);
  // Two identical submissions at once (a double click): one payout. The loser of the race is told
  // the key is still in progress (409) or, if the first already finished, gets its answer.
  const both = await Promise.all([create(maker, form(amount), key), create(maker, form(amount), key)]);
  for (const r of both) assert.ok([201, 409].includes(r.status), r.text);
  const created = both.filter((r) => r.status === 201);
  assert.ok(created.length >= 1, both.map((r) => r.text).join('\n'));
  const id = created[0]!.body.data.id as string;
  for (const r of created) assert.equal(r.body.data.id, id);
  for (const r of both.filter((x) => x.status === 409)) assert.equal(r.body.error.code, 'IDEMPOTENCY_KEY_IN_PROGRESS');
  assert.equal(await payoutsOfAmount(), 1);

  // A later repeat (a retry after a lost answer) is the first answer, marked replayed.
  const again = await create(maker, form(amount), key);
  assert.equal(again.status, 201, again.text);
  assert.equal(again.body.data.id, id);
  assert.equal(again.body.data.status, 'PENDING_APPROVAL');
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(await payoutsOfAmount(), 1);

  // The same key with another body, or from another person, is a conflict in the envelope: nothing made.
  for (const [by, body] of [[maker, form(amount + 1)], [admin, form(amount)]] as const) {
    const r = await create(by, body, key);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.success, false);
    assert.equal(r.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(typeof r.body.request_id, 'string');
  }
  assert.equal(await count('SELECT count(*)::int AS n FROM payouts WHERE org_id = $1 AND amount_paise = $2', [w.client.orgId, amount + 1]), 0);
  assert.equal(await count(`SELECT count(*)::int AS n FROM console_audit_log WHERE target_id = $1::text AND action = 'payout.created'`, [id]), 1);

  // The header is required, as for a merchant create.
  for (const [headers, code] of [[{}, 'IDEMPOTENCY_KEY_REQUIRED'], [{ 'idempotency-key': 'not-a-uuid' }, 'IDEMPOTENCY_KEY_INVALID']] as const) {
    const r = await maker.call('POST', '/payouts', form(amount), { headers });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error.code, code);
  }
  assert.equal(await payoutsOfAmount(), 1);
});

test('approval re-checks the route: inactive, or without the payout\'s mode, is refused in the envelope and the payout stays PENDING_APPROVAL', async () => {
  const p = await make(212_000);
  const db = w.t.database.db;
  const stillPending = async () => {
    assert.equal((await checker.call('GET', `/payouts/${p.id}`)).body.data.payout.status, 'PENDING_APPROVAL');
    assert.equal(await attempts(p.id), 0);
    assert.deepEqual(await eventsOf(w, p.id), []);
    assert.equal(await count(`SELECT count(*)::int AS n FROM console_audit_log WHERE target_id = $1::text AND action = 'payout.approved'`, [p.id]), 0);
  };
  try {
    await db.query('UPDATE bank_connections SET active = false WHERE id = $1', [w.bankConnectionId]);
    const inactive = await checker.call('POST', `/payouts/${p.id}/approve`);
    assert.equal(inactive.status, 422, inactive.text);
    assert.equal(inactive.body.error.code, 'ROUTE_INVALID');
    assert.equal(typeof inactive.body.request_id, 'string');
    await stillPending();

    await db.query(`UPDATE bank_connections SET active = true, modes = '{NEFT,RTGS}' WHERE id = $1`, [w.bankConnectionId]);
    const noMode = await checker.call('POST', `/payouts/${p.id}/approve`);
    assert.equal(noMode.status, 422, noMode.text);
    assert.equal(noMode.body.error.code, 'MODE_NOT_ENABLED');
    await stillPending();
  } finally {
    await db.query(`UPDATE bank_connections SET active = true, modes = '{IMPS,NEFT,RTGS}' WHERE id = $1`, [w.bankConnectionId]);
  }
  // With the route as it was, the same payout is approved.
  const ok = await checker.call('POST', `/payouts/${p.id}/approve`);
  assert.equal(ok.status, 200, ok.text);
  assert.equal(await attempts(p.id), 1);
});

test('reading a console payout takes no lock: it answers while a checker\'s transaction holds the row', async () => {
  const p = await make(213_000);
  await w.t.database.db.tx(async (tx) => {
    await tx.query('SELECT 1 FROM payouts WHERE id = $1 FOR UPDATE', [p.id]);
    const read = w.t.svc.ctx.payoutApprovals.get(w.client.orgId, p.id);
    const waited = new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 3000).unref());
    const got = await Promise.race([read, waited]);
    assert.notEqual(got, 'blocked', 'the read waited for the row lock');
    assert.equal((got as { id: string }).id, p.id);
  });
});
