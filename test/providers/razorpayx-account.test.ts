/**
 * A RazorpayX account's balance and statement (issue #33 item 6), read by the connector from the
 * simulator over HTTP: the balance of our account only, every statement line across pages of 100,
 * payout debits with their fees and tax, reversals credited back, and answers that do not fit.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { RazorpayXProvider } from '../../src/providers/razorpayx/connector.js';
import { ProviderError, type PayoutRequest } from '../../src/providers/provider.js';
import { RazorpayXSimulator } from './razorpayx-simulator.js';

let sim: RazorpayXSimulator;
let rx: RazorpayXProvider;

before(async () => {
  sim = await new RazorpayXSimulator({ balancePaise: 50_000_000 }).start();
  rx = new RazorpayXProvider(sim.config(), { timeoutMs: 5_000 });
});
after(async () => {
  await sim?.stop();
});

let seq = 0;
function request(amountPaise: number): PayoutRequest {
  seq += 1;
  return {
    reference: `TJA${Date.now().toString(16).toUpperCase()}${String(seq).padStart(4, '0')}`,
    amountPaise,
    mode: 'IMPS',
    beneficiary: { name: 'Asha Kumari', accountNumber: '123456789012', ifsc: 'HDFC0000001' },
    remarks: null,
  };
}

const since = new Date(Date.now() - 3600_000);
const until = () => new Date(Date.now() + 5_000);

test('the balance is our account’s, in paise, with when the bank last reported it', async () => {
  const b = await rx.payoutAccount.balance();
  assert.equal(b.balancePaise, 50_000_000);
  assert.equal(b.availablePaise, 50_000_000);
  assert.ok(b.refreshedAt && Math.abs(b.refreshedAt.getTime() - Date.now()) < 60_000);
});

test('a payout debits amount + fees; its statement line names the payout, the fees and the tax; the balance follows', async () => {
  const before = (await rx.payoutAccount.balance()).balancePaise;
  const r = await rx.submitPayout(request(150_000));
  assert.equal(r.outcome, 'ACCEPTED');
  const pout = r.outcome === 'ACCEPTED' ? r.providerReference : '';
  const lines = await rx.payoutAccount.statement(since, until());
  const line = lines.find((l) => l.providerPayoutId === pout);
  assert.ok(line, 'the payout has a debit line');
  assert.equal(line.kind, 'PAYOUT');
  assert.equal(line.debitPaise, 150_000 + 590);
  assert.equal(line.feesPaise, 590);
  assert.equal(line.taxPaise, 90);
  assert.equal(line.creditPaise, 0);
  assert.equal((await rx.payoutAccount.balance()).balancePaise, before - 150_590);
});

test('a reversal credits the amount back on a line of its own that names the payout', async () => {
  const r = await rx.submitPayout(request(210_000));
  const pout = r.outcome === 'ACCEPTED' ? r.providerReference : '';
  sim.move(pout, 'processed', { utr: 'UTR000000000777' });
  sim.move(pout, 'reversed', { reason: 'beneficiary_bank_rejected' });
  const lines = (await rx.payoutAccount.statement(since, until())).filter((l) => l.providerPayoutId === pout);
  assert.deepEqual(lines.map((l) => l.kind).sort(), ['PAYOUT', 'REVERSAL']);
  const reversal = lines.find((l) => l.kind === 'REVERSAL')!;
  assert.equal(reversal.creditPaise, 210_000 + 590);
  assert.equal(reversal.debitPaise, 0);
});

test('a statement longer than one page is read whole, oldest first, each line once', async () => {
  for (let i = 0; i < 230; i++) sim.externalDebit(100 + i);
  const lines = await rx.payoutAccount.statement(since, until());
  assert.equal(lines.length, sim.transactions.length);
  assert.equal(new Set(lines.map((l) => l.lineId)).size, lines.length);
  for (let i = 1; i < lines.length; i++) assert.ok(lines[i - 1]!.at.getTime() <= lines[i]!.at.getTime());
  assert.ok(sim.requests.filter((q) => q.path === '/v1/transactions').length >= 3, 'paged by 100');
});

test('a transaction that does not fit its documented entity is refused, never guessed', async () => {
  const bad = sim.externalDebit(500);
  bad.debit = -5;
  await assert.rejects(rx.payoutAccount.statement(since, until()), (e) => e instanceof ProviderError && /does not fit/.test(e.message));
  bad.debit = 500;
  bad.currency = 'USD';
  await assert.rejects(rx.payoutAccount.statement(since, until()), (e) => e instanceof ProviderError && /USD/.test(e.message));
  sim.transactions.splice(sim.transactions.indexOf(bad), 1);
});

test('wrong keys: a clear ProviderError, not a balance of zero', async () => {
  const wrong = new RazorpayXProvider(sim.config({ key_secret: 'nope' }), { timeoutMs: 5_000 });
  await assert.rejects(wrong.payoutAccount.balance(), (e) => e instanceof ProviderError && /HTTP 401/.test(e.message));
});
