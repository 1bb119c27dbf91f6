/**
 * Runs the payout conformance scenarios (conformance.ts) against the built-in sandbox bank and
 * against a razorpayx account on the RazorpayX simulator, in one service: one organization per
 * provider, each with a bank connection on its provider.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FAST_PAYOUT_ENV } from '../payout/helpers.js';
import { waitFor } from '../refunds/helpers.js';
import { startTestService, type TestService } from '../support/service.js';
import { type PayoutHarness, payoutScenarios } from './conformance.js';
import { RazorpayXSimulator } from './razorpayx-simulator.js';

let t: TestService;
let sim: RazorpayXSimulator;
let sandboxHarness: PayoutHarness;
let razorpayxHarness: PayoutHarness;

before(async () => {
  sim = await new RazorpayXSimulator({
    initialStatus: (b) => ((b.amount as number) % 100 === 13 ? { status: 'failed', reason: 'bank_account_closed' } : { status: 'processing' }),
  }).start();
  t = await startTestService({ ...FAST_PAYOUT_ENV, PROVIDER_TIMEOUT_MS: '2000' });

  const sandboxClient = await t.createClient({ rateLimit: 100_000 });
  const sandboxBankConnection = await t.admin('POST', '/routes', { org: sandboxClient.orgId, modes: ['IMPS', 'NEFT', 'RTGS'] });
  assert.equal(sandboxBankConnection.status, 201, sandboxBankConnection.text);
  sandboxHarness = {
    name: 'sandbox',
    t,
    client: sandboxClient,
    bankConnectionId: sandboxBankConnection.body.data.bank_connection_id,
    settle: async () => {}, // the sandbox bank executes and reports on its own
    executions: async (txn) => {
      const stats = (await (await fetch(`${t.svc.sandboxUrl}/bank/stats/payouts`)).json()) as Record<string, number>;
      return stats[txn] ?? 0;
    },
  };

  const rzpClient = await t.createClient({ rateLimit: 100_000 });
  const account = await t.admin('POST', '/provider-accounts', { org: rzpClient.orgId, provider: 'razorpayx', config: sim.config(), name: 'RazorpayX (simulator)' });
  assert.equal(account.status, 201, account.text);
  const callbackUrl = account.body.data.callback_url as string;
  const rzpBankConnection = await t.admin('POST', '/routes', { org: rzpClient.orgId, modes: ['IMPS', 'NEFT', 'RTGS'], provider_account: account.body.data.provider_account_id });
  assert.equal(rzpBankConnection.status, 201, rzpBankConnection.text);
  const deliver = async (hook: { rawBody: string; headers: Record<string, string> }) => {
    const res = await fetch(callbackUrl, { method: 'POST', headers: hook.headers, body: hook.rawBody });
    assert.equal(res.status, 200, await res.text());
  };
  const simPayout = (txn: string) => waitFor(async () => (sim.payoutsFor(txn)[0] as { id: string } | undefined) ?? null, 15_000);
  let utr = 512345678900;
  razorpayxHarness = {
    name: 'razorpayx',
    t,
    client: rzpClient,
    bankConnectionId: rzpBankConnection.body.data.bank_connection_id,
    settle: async (txn) => deliver(sim.move((await simPayout(txn)).id, 'processed', { utr: String(++utr) })),
    executions: async (txn) => sim.payoutsFor(txn).length,
    loseNextAnswer: () => sim.faults.push({ kind: 'lost_answer' }),
    reverse: async (txn) => deliver(sim.move((await simPayout(txn)).id, 'reversed', { reason: 'beneficiary_bank_offline' })),
  };
});
after(async () => {
  await t?.stop();
  await sim?.stop();
});

describe('payout conformance: sandbox bank', () => payoutScenarios(() => sandboxHarness));
describe('payout conformance: razorpayx + simulator', () => payoutScenarios(() => razorpayxHarness));

test('payout conformance set-up: each organization pays through its own provider', async () => {
  for (const [h, provider] of [[sandboxHarness, 'sandbox'], [razorpayxHarness, 'razorpayx']] as const) {
    const r = await t.database.db.query<{ provider: string }>('SELECT provider FROM bank_connections WHERE id = $1', [h.bankConnectionId]);
    assert.equal(r.rows[0]?.provider, provider);
  }
});
