/**
 * A misbehaving bank (issue 8 §3): the sandbox injects 30 % submit timeouts and 10 % 503s
 * (SANDBOX_FAULTS, test only), each striking before or after the bank accepted the transfer. Zero
 * double executions, and every payout ends where the bank says: SUCCESS with the bank's UTR when
 * the bank executed it, FAILED when the bank refused it or never executed it. Creates that got no
 * answer or a 5xx are retried with the same key. Short: 30 payouts; full: 200.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { FAST_PAYOUT_ENV, inlineBeneficiary } from '../payout/helpers.js';
import { report, size, until } from './helpers.js';
import { ledgerViolations } from './ledger-check.js';

const PAYOUTS = size('FAULTS_BANK_PAYOUTS', 30, 200);
/** Last two digits: mostly ordinary transfers, some refusals and the contract's own timeouts/5xx. */
const ENDINGS = [0, 1, 2, 3, 4, 5, 6, 13, 57, 58, 59];

let ts: TestService;
let client: TestClient;
before(async () => {
  ts = await startTestService({ ...FAST_PAYOUT_ENV, SANDBOX_FAULTS: 'timeout=0.3,error=0.1' });
  client = await ts.createClient({ rateLimit: 1_000_000 });
  assert.equal((await ts.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS', 'NEFT'] })).status, 201);
});
after(() => ts?.stop());

test('30 % submit timeouts and 10 % 5xx at the bank: no double execution, every payout ends where the bank says', { timeout: 300_000 }, async () => {
  const started = Date.now();
  const violations: string[] = [];
  let createRetries = 0;
  const ids: string[] = [];
  const createOne = async (i: number) => {
    const amount = 10_000 + i * 100 + (ENDINGS[i % ENDINGS.length] as number);
    const body = { beneficiary: inlineBeneficiary(), amount_paise: amount, mode: i % 3 ? 'IMPS' : 'NEFT', client_reference: `bank-${i}` };
    const key = randomUUID();
    for (let tries = 0; tries < 10; tries++) {
      const r = await ts.api('POST', '/merchant/payouts', { client, body, idempotencyKey: key }).catch(() => undefined);
      if (r?.status === 201) return void ids.push(r.body.data.id);
      if (r && r.status < 500 && r.status !== 409) return void violations.push(`create ${i} → ${r.status} ${r.text.slice(0, 200)}`);
      createRetries++;
      await new Promise((res) => setTimeout(res, 300));
    }
    violations.push(`create ${i} never answered 201`);
  };
  for (let i = 0; i < PAYOUTS; i += 10) await Promise.all(Array.from({ length: Math.min(10, PAYOUTS - i) }, (_, k) => createOne(i + k)));

  const db = ts.database.db;
  await until('every payout to reach SUCCESS or FAILED', async () => {
    const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payouts WHERE status = 'PROCESSING'`);
    return r.rows[0]!.n === 0;
  }, 120_000, 250);

  const rows = await db.query<{ transaction_id: string; status: string; utr: string | null; bank_status: string | null; bank_utr: string | null; executions: number }>(
    `SELECT p.transaction_id, p.status, (SELECT a.utr FROM payout_attempts a WHERE a.payout_id = p.id AND a.status = 'SUCCESS' LIMIT 1) AS utr,
            t.status AS bank_status, t.utr AS bank_utr,
            (SELECT count(*)::int FROM sandbox_bank_ledger l WHERE l.reference = p.transaction_id) AS executions
       FROM payouts p LEFT JOIN sandbox_bank_transfers t ON t.reference = p.transaction_id`,
  );
  if (rows.rowCount !== PAYOUTS) violations.push(`${rows.rowCount} payouts for ${PAYOUTS} creates`);
  const outcome: Record<string, number> = {};
  for (const p of rows.rows) {
    outcome[p.status] = (outcome[p.status] ?? 0) + 1;
    if (p.executions > 1) violations.push(`${p.transaction_id} executed ${p.executions} times`);
    if (p.status === 'SUCCESS' && (p.bank_status !== 'SUCCESS' || p.executions !== 1 || p.utr !== p.bank_utr)) violations.push(`${p.transaction_id} SUCCESS but the bank says ${p.bank_status}, ${p.executions} executions, utr ${p.utr} vs ${p.bank_utr}`);
    if (p.status === 'FAILED' && (p.bank_status === 'SUCCESS' || p.bank_status === 'PENDING' || p.executions !== 0)) violations.push(`${p.transaction_id} FAILED but the bank says ${p.bank_status}, ${p.executions} executions`);
  }
  const faults = await db.query<{ answer: string; n: number }>(`SELECT answer, count(*)::int AS n FROM sandbox_bank_submissions GROUP BY answer ORDER BY answer`);
  const byAnswer = Object.fromEntries(faults.rows.map((r) => [r.answer, r.n]));
  const injected = faults.rows.filter((r) => r.answer.startsWith('FAULT_')).reduce((s, r) => s + r.n, 0);
  const ledger = await ledgerViolations(db);
  violations.push(...ledger.violations);
  report('sandbox-faults', {
    payouts: PAYOUTS, operations: PAYOUTS + createRetries, create_retries: createRetries, submits: faults.rows.reduce((s, r) => s + r.n, 0),
    faults_injected: injected, submissions: byAnswer, outcomes: outcome, ledger_entries: ledger.entries, violations: violations.length, ms: Date.now() - started,
  });
  assert.deepEqual(violations.slice(0, 20), []);
  assert.ok(injected > 0, 'faults were injected');
});
