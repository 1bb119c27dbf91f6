/** `tijori route create`, and the payout handler the provider callback intake calls. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxSigningSecret, signSandboxBody, SANDBOX_SIGNATURE_HEADER } from '../../src/sandbox/signing.js';
import { fetchPayoutExecutionStats } from '../../src/providers/sandbox/bank-client.js';
import { createPayout, payoutBody, type PayoutWorld, startPayoutWorld, waitFor } from './helpers.js';

const run = promisify(execFile);
let w: PayoutWorld;
before(async () => {
  w = await startPayoutWorld();
});
after(async () => {
  await w?.t.stop();
});

test('tijori route create --json prints exactly {bank_connection_id, modes}; the first route is the default', async () => {
  const org = await w.t.createOrg('cli org');
  const env = { ...process.env, ADMIN_URL: w.t.svc.internalUrl, ADMIN_TOKEN: w.t.config.adminToken };
  const { stdout } = await run(process.execPath, ['bin/tijori.js', 'route', 'create', '--org', org, '--modes', 'IMPS,NEFT', '--json'], { env });
  const out = JSON.parse(stdout);
  assert.deepEqual(Object.keys(out), ['bank_connection_id', 'modes']);
  assert.deepEqual(out.modes, ['IMPS', 'NEFT']);
  const row = await w.t.database.db.query('SELECT is_default, provider FROM bank_connections WHERE id = $1', [out.bank_connection_id]);
  assert.deepEqual(row.rows[0], { is_default: true, provider: 'sandbox' });
  await assert.rejects(run(process.execPath, ['bin/tijori.js', 'route', 'create', '--org', org, '--modes', 'UPI', '--json'], { env }), /VALIDATION_FAILED/);
});

/** One callback applied in its own transaction, as the intake would. */
async function applyOne(cb: any) {
  const [result] = await w.t.svc.ctx.db.tx((tx) => w.t.svc.ctx.payoutSubmission.applyProviderPayoutUpdates(tx, [cb]));
  return result;
}

function signedCallback(body: Record<string, unknown>) {
  const raw = JSON.stringify(body);
  const secret = sandboxSigningSecret(w.t.config.masterKey);
  return w.t.svc.ctx.providers.sandbox.parseCallback(raw, { [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(secret, raw) });
}

test('applyProviderPayoutUpdates: a verified payout.updated callback settles the payout; duplicates and bad UTRs change nothing', async () => {
  const r = await createPayout(w, payoutBody(20_077));
  const { id, transaction_id } = r.body.data;
  const attempt = await waitFor('the bank to accept', async () => {
    const a = await w.t.database.db.query<{ status: string; bank_reference: string }>('SELECT status, bank_reference FROM payout_attempts WHERE payout_id = $1', [id]);
    return a.rows[0]?.status === 'PROCESSING' ? a.rows[0] : undefined;
  });
  const base = { id: randomUUID(), type: 'payout.updated', reference: transaction_id, bank_reference: attempt.bank_reference, reason: null };
  const badUtr = signedCallback({ ...base, status: 'SUCCESS', utr: 'ABC', processed_at: new Date().toISOString() });
  assert.ok(badUtr && badUtr.kind === 'payout');
  assert.equal(await applyOne(badUtr), 'invalid_utr');
  const good = signedCallback({ ...base, status: 'SUCCESS', utr: '123456789012', processed_at: new Date().toISOString() });
  assert.ok(good && good.kind === 'payout');
  assert.equal(await applyOne(good), 'applied');
  assert.equal(await applyOne(good), 'unchanged');
  const late = signedCallback({ ...base, id: randomUUID(), status: 'FAILED', utr: null, processed_at: null, reason: 'late' });
  assert.equal(await applyOne(late as any), 'stale');
  const g = await w.t.api('GET', `/merchant/payouts/${id}`, { client: w.client });
  assert.equal(g.body.data.status, 'SUCCESS');
  assert.equal(g.body.data.utr, '123456789012');
  const unknown = signedCallback({ ...base, reference: 'TJPNOSUCHREFERENCE', status: 'PENDING', utr: null, processed_at: null });
  assert.equal(await applyOne(unknown as any), 'unknown_reference');
  assert.equal(w.t.svc.ctx.providers.sandbox.parseCallback(JSON.stringify(base), { [SANDBOX_SIGNATURE_HEADER]: 't=1,v1=00' }), null);
});

test('the sandbox stats endpoint reports executions per transaction_id', async () => {
  const r = await createPayout(w, payoutBody(30_000));
  const txn = r.body.data.transaction_id;
  const stats = await waitFor('the execution', async () => {
    const s = await fetchPayoutExecutionStats(w.t.svc.sandboxUrl!);
    return s[txn] ? s : undefined;
  });
  assert.equal(stats[txn], 1);
});
