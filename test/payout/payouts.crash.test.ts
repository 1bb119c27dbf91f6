/**
 * Crash recovery without a second execution. The service runs as a child process (`npm start`'s
 * entry point) and SIGKILLs itself at a chosen point of a payout create (TIJORI_TEST_CRASH_POINT,
 * ignored in production): right after the first transaction committed (nothing sent yet), or right
 * after the bank accepted (answer not recorded). A second process on the same database must finish
 * the payout with exactly one execution at the bank.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { childServices, stopChild } from '../support/child-service.js';
import { payoutBody, waitFor } from './helpers.js';

const children = childServices('tijori-crash-');
const { admin } = children;

async function scenario(crashPoint: 'after_persist' | 'after_submit', amountPaise: number) {
  const first = await children.start({ TIJORI_TEST_CRASH_POINT: crashPoint });
  const org = await admin(first, '/orgs', { name: `crash ${crashPoint}` });
  const client = await admin(first, '/clients', { org: org.id, scopes: ['payouts:write', 'payouts:read'] });
  await admin(first, '/routes', { org: org.id, modes: ['IMPS'] });
  const reference = `crash-${crashPoint}`;
  const create = fetch(`${first.public}/api/v1/merchant/payouts`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json', 'idempotency-key': randomUUID(),
      'x-service-client-id': client.client_id, authorization: `Bearer ${client.client_secret}`,
    },
    body: JSON.stringify(payoutBody(amountPaise, { client_reference: reference })),
  });
  await assert.rejects(create, 'the connection dies with the process');
  assert.equal(await first.exited, 'SIGKILL');

  const q = children.database.db;
  const before = await q.query<{ transaction_id: string; status: string; attempt: string }>(
    `SELECT p.transaction_id, p.status, a.status AS attempt FROM payouts p JOIN payout_attempts a ON a.payout_id = p.id WHERE p.client_reference = $1`,
    [reference],
  );
  assert.equal(before.rowCount, 1);
  const txn = before.rows[0]!.transaction_id;
  assert.equal(before.rows[0]!.attempt, 'PENDING_SUBMIT');
  const submitsBefore = await q.query('SELECT 1 FROM sandbox_bank_submissions WHERE reference = $1', [txn]);
  assert.equal(submitsBefore.rowCount, crashPoint === 'after_persist' ? 0 : 1);

  const second = await children.start({});
  try {
    await waitFor('the payout to succeed after restart', async () => {
      const r = await q.query<{ status: string }>('SELECT status FROM payouts WHERE transaction_id = $1', [txn]);
      return r.rows[0]?.status === 'SUCCESS' ? true : undefined;
    }, 20_000);
    const stats = (await (await fetch(`${second.sandbox}/bank/stats/payouts`)).json()) as Record<string, number>;
    assert.equal(stats[txn], 1, 'executed exactly once');
    const submits = await q.query('SELECT 1 FROM sandbox_bank_submissions WHERE reference = $1', [txn]);
    assert.equal(submits.rowCount, 1, 'the bank received exactly one submit');
    const attempts = await q.query('SELECT a.status FROM payout_attempts a JOIN payouts p ON p.id = a.payout_id WHERE p.transaction_id = $1', [txn]);
    assert.deepEqual(attempts.rows.map((r) => r.status), ['SUCCESS']);
  } finally {
    await stopChild(second);
  }
}

test('killed right after persisting (nothing sent): restart inquires, submits once, SUCCESS, one execution', async () => {
  await scenario('after_persist', 20_000);
});

test('killed right after the bank accepted (answer not recorded): restart inquires, never resends, SUCCESS, one execution', async () => {
  await scenario('after_submit', 30_000);
});
