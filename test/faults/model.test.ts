/**
 * Model-based test of the payment order state machine (issue 8 §6) with fast-check commands against
 * the real service (one service, one client for all runs; one fresh order per run). Commands: payer
 * details and reference on the checkout endpoints, pay/fail at the sandbox with or without its
 * callback, merchant cancel, GET with a live check, forced expiry (expires_at moved into the past,
 * then the expiry worker's final check), duplicate provider callbacks. The model predicts the state
 * and the review flag after every command. After every run: every recorded move is in
 * ORDER_TRANSITIONS, a payment the sandbox took ends PAID or flagged for review with the late
 * confirmation recorded, and a PAID order has exactly one collection.received event.
 * Reviews and refunds (issue 20): review items opened by late or unconfirmed payments are confirmed
 * (-> MANUALLY_CONFIRMED with its collection.received) or rejected; refunds of a PAID or
 * MANUALLY_CONFIRMED order (half, the rest, or one ending in 13 paise that fails at the sandbox)
 * are approved or rejected; the model predicts every answer, REFUNDED once completed refunds reach
 * the amount, and after every run: refunds never exceed the order, each completed refund was
 * executed once at the sandbox, and one collection.received per confirmation.
 * Payouts: batches of magic amounts run by the worker; every recorded move is in the payout and
 * attempt transition tables and the outcome matches contract §3.
 * Short: 100 order runs, 2 payout batches; full: 1,000 and 20.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { canTransition, isOpen, isRefundable, type PaymentOrderStatus } from '../../src/domain/payment-order.js';
import { canTransitionAttempt, canTransitionPayout, type PayoutAttemptStatus, type PayoutStatus } from '../../src/domain/payout.js';
import { sandboxSigningSecret, signSandboxBody } from '../../src/sandbox/signing.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { FAST_PAYOUT_ENV, inlineBeneficiary } from '../payout/helpers.js';
import { report, size, until } from './helpers.js';
import { ledgerViolations } from './ledger-check.js';

const ORDER_RUNS = size('FAULTS_MODEL_RUNS', 100, 1_000);
const PAYOUT_BATCHES = size('FAULTS_MODEL_PAYOUT_BATCHES', 2, 20);

let ts: TestService;
let client: TestClient;
before(async () => {
  ts = await startTestService({ ...FAST_PAYOUT_ENV });
  client = await ts.createClient({ rateLimit: 1_000_000 });
  assert.equal((await ts.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS', 'NEFT', 'RTGS'] })).status, 201);
});
after(() => ts?.stop());

interface Model {
  status: PaymentOrderStatus;
  sandbox: 'none' | 'PENDING' | 'SUCCESS' | 'FAILED';
  review: boolean;
  /** The service has heard of the sandbox's payment (callback, live check or final check). */
  heard: boolean;
  /** Open operations review items of the order. */
  openItems: number;
  /** The order carries the sandbox's UTR (PAID by it, or confirmed from its late confirmation). */
  utrApplied: boolean;
  /** The sandbox's payment opened a review item. */
  utrQueued: boolean;
  /** collection.received events (PAID, MANUALLY_CONFIRMED). */
  received: number;
  /** Refunds that count against the amount (not REJECTED/FAILED), those completed, and those awaiting review (amounts). */
  refunded: number;
  completed: number;
  pendingReview: number[];
}

const ORDER_PAISE = 10_000;
interface Real {
  id: string;
  orderId: string;
  token: string;
  steps: string[];
}

const db = () => ts.database.db;
const statusOf = async (r: Real) => (await db().query<{ status: PaymentOrderStatus; review_required: boolean }>('SELECT status, review_required FROM payment_orders WHERE id = $1', [r.id])).rows[0]!;
/** Waits until every provider callback of this order was processed (the intake acknowledges first). */
const settle = (r: Real) => until('provider events processed', async () => (await db().query(`SELECT 1 FROM provider_events WHERE reference = $1 AND state = 'pending'`, [r.orderId])).rowCount === 0, 10_000, 20);
const checkout = (r: Real, step: string, body: unknown) =>
  fetch(`${ts.svc.publicUrl}/checkout/${r.token}/${step}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (x) => ({ status: x.status, text: await x.text() }));

async function expectModel(m: Model, r: Real): Promise<void> {
  const actual = await statusOf(r);
  assert.deepEqual({ status: actual.status, review: actual.review_required }, { status: m.status, review: m.review }, r.steps.join(' → '));
}

/** What a provider decision does to the model once it reaches the service. */
function learn(m: Model): void {
  if (m.sandbox === 'SUCCESS') {
    m.heard = true;
    if (isOpen(m.status)) {
      m.status = 'PAID';
      m.received++;
      m.utrApplied = true;
    } else if (!m.utrApplied) {
      m.review = true;
      // After EXPIRED, CANCELLED or FAILED the payment is queued for review once (contract §6 a;
      // FAILED: docs/payin.md "Confirmations are checked").
      if ((m.status === 'EXPIRED' || m.status === 'CANCELLED' || m.status === 'FAILED') && !m.utrQueued) {
        m.openItems++;
        m.utrQueued = true;
      }
    }
  } else if (m.sandbox === 'FAILED' && isOpen(m.status)) m.status = 'FAILED';
}

class Details implements fc.AsyncCommand<Model, Real> {
  check = (m: Readonly<Model>) => m.status === 'AWAITING_CUSTOMER' || !isOpen(m.status);
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    const res = await checkout(r, 'details', { customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true });
    if (m.status === 'AWAITING_CUSTOMER') {
      assert.equal(res.status, 200, res.text);
      m.status = 'PENDING_PAYMENT';
      m.sandbox = 'PENDING';
    } else assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.text}`);
    await expectModel(m, r);
  }
  toString = () => 'details';
}

class Reference implements fc.AsyncCommand<Model, Real> {
  check = (m: Readonly<Model>) => m.status !== 'AWAITING_CUSTOMER';
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    const res = await checkout(r, 'reference', { payer_reference: '123456789012' });
    if (m.status === 'PENDING_PAYMENT') {
      assert.equal(res.status, 200, res.text);
      m.status = 'AWAITING_CONFIRMATION';
    } else assert.ok(res.status >= 400 && res.status < 500 || (res.status === 200 && m.status === 'AWAITING_CONFIRMATION'), `${res.status} ${res.text}`);
    await expectModel(m, r);
  }
  toString = () => 'reference';
}

class Decide implements fc.AsyncCommand<Model, Real> {
  constructor(readonly outcome: 'pay' | 'fail', readonly callback: boolean) {}
  check = (m: Readonly<Model>) => m.sandbox !== 'none';
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    const res = await ts.admin('POST', `/sandbox/payment-orders/${r.id}/${this.outcome}`, { callback: this.callback });
    const target = this.outcome === 'pay' ? 'SUCCESS' : 'FAILED';
    if (m.sandbox === 'PENDING' || m.sandbox === target) {
      assert.equal(res.status, 200, res.text);
      // Deciding again what the sandbox already decided sends no new callback.
      const repeat = m.sandbox === target;
      m.sandbox = target;
      if (this.callback && !repeat) {
        await until('the sandbox callback', async () => (await db().query('SELECT 1 FROM provider_events WHERE reference = $1', [r.orderId])).rowCount! > 0, 10_000, 20);
        await settle(r);
        learn(m);
      }
    } else assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.text}`);
    await expectModel(m, r);
  }
  toString = () => `${this.outcome}${this.callback ? '' : '(no callback)'}`;
}

class Cancel implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    const res = await ts.api('POST', `/merchant/payment-orders/${r.id}/cancel`, { client });
    if (isOpen(m.status)) {
      assert.equal(res.status, 200, res.text);
      m.status = 'CANCELLED';
    } else assert.ok(res.status === 409 || (res.status === 200 && m.status === 'CANCELLED'), `${res.status} ${res.text}`);
    await expectModel(m, r);
  }
  toString = () => 'cancel';
}

class Get implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    await db().query('UPDATE payment_orders SET last_provider_check_at = NULL WHERE id = $1', [r.id]); // the 2 s throttle has passed
    const res = await ts.api('GET', `/merchant/payment-orders/${r.id}`, { client });
    assert.equal(res.status, 200, res.text);
    if (isOpen(m.status)) learn(m); // a live check only looks at open orders
    assert.equal(res.body.data.status, m.status);
    await expectModel(m, r);
  }
  toString = () => 'get';
}

class Expire implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    const row = (await db().query(`UPDATE payment_orders SET expires_at = now() - interval '1 second', expiry_claimed_until = NULL WHERE id = $1 RETURNING *`, [r.id])).rows[0];
    await ts.svc.ctx.orderExpiry.expireAfterFinalCheck(row as Parameters<typeof ts.svc.ctx.orderExpiry.expireAfterFinalCheck>[0]);
    if (isOpen(m.status)) {
      learn(m); // the final provider check first
      if (isOpen(m.status)) {
        // The payer gave a UTR nobody confirmed: queued for review (contract §6 c).
        if (m.status === 'AWAITING_CONFIRMATION') {
          m.review = true;
          m.openItems++;
        }
        m.status = 'EXPIRED';
      }
    }
    await expectModel(m, r);
  }
  toString = () => 'expire';
}

class DuplicateCallback implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    const last = (await db().query<{ raw_body: string }>('SELECT raw_body FROM provider_events WHERE reference = $1 ORDER BY ctid DESC LIMIT 1', [r.orderId]).catch(() => db().query<{ raw_body: string }>('SELECT raw_body FROM provider_events WHERE reference = $1 LIMIT 1', [r.orderId]))).rows[0];
    if (last) {
      const res = await fetch(`${ts.svc.internalUrl}/provider/sandbox/callbacks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandboxBody(sandboxSigningSecret(ts.config.masterKey), last.raw_body) },
        body: last.raw_body,
      });
      assert.equal(res.status, 200);
      await settle(r);
    }
    await expectModel(m, r);
  }
  toString = () => 'duplicate-callback';
}

class Review implements fc.AsyncCommand<Model, Real> {
  constructor(readonly decision: 'confirm' | 'reject') {}
  check = (m: Readonly<Model>) => m.openItems > 0;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    const items = (await ts.admin('GET', `/reviews?order=${r.id}&status=open`)).body.data as Array<{ id: string; kind: string }>;
    assert.equal(items.length, m.openItems, 'open review items');
    const res = await ts.admin('POST', `/reviews/${items[0]!.id}/${this.decision}`, { actor: 'model-reviewer', note: 'model evidence' });
    const confirmable = isOpen(m.status) || m.status === 'EXPIRED' || m.status === 'CANCELLED' || m.status === 'FAILED';
    if (this.decision === 'reject' || confirmable) {
      assert.equal(res.status, 200, res.text);
      m.openItems--;
      if (this.decision === 'confirm') {
        m.status = 'MANUALLY_CONFIRMED';
        m.received++;
        // Confirmed from the provider's late confirmation, the order carries its UTR.
        if (items[0]!.kind === 'late_confirmation') m.utrApplied = true;
      }
    } else assert.equal(res.status, 409, res.text);
    await expectModel(m, r);
  }
  toString = () => `review-${this.decision}`;
}

class Refund implements fc.AsyncCommand<Model, Real> {
  constructor(readonly amount: 'half' | 'rest' | 'fails') {}
  check = (m: Readonly<Model>) => !isOpen(m.status);
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    const amount = this.amount === 'half' ? ORDER_PAISE / 2 : this.amount === 'fails' ? 1_013 : undefined;
    const res = await ts.api('POST', `/merchant/payment-orders/${r.id}/refunds`, { client, idempotencyKey: randomUUID(), body: amount === undefined ? {} : { amount_paise: amount } });
    const left = ORDER_PAISE - m.refunded;
    if (!isRefundable(m.status)) assert.equal(res.body?.error?.code, 'INVALID_STATE', res.text);
    else if (left === 0 || (amount ?? left) > left) assert.equal(res.body?.error?.code, 'REFUND_EXCEEDS_AMOUNT', res.text);
    else {
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.data.status, 'PENDING_REVIEW');
      m.refunded += amount ?? left;
      m.pendingReview.push(amount ?? left);
    }
    await expectModel(m, r);
  }
  toString = () => `refund-${this.amount}`;
}

class RefundReview implements fc.AsyncCommand<Model, Real> {
  constructor(readonly decision: 'approve' | 'reject') {}
  check = (m: Readonly<Model>) => m.pendingReview.length > 0;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    const pending = (await ts.api('GET', `/merchant/payment-orders/${r.id}/refunds`, { client })).body.data.filter((x: { status: string }) => x.status === 'PENDING_REVIEW');
    assert.equal(pending.length, m.pendingReview.length, 'refunds awaiting review');
    const refund = pending[0] as { id: string; amount_paise: number };
    const res = await ts.admin('POST', `/refunds/${refund.id}/${this.decision}`, { actor: 'model-reviewer', note: 'model note' });
    assert.equal(res.status, 200, res.text);
    m.pendingReview.splice(m.pendingReview.indexOf(refund.amount_paise), 1);
    if (this.decision === 'reject') m.refunded -= refund.amount_paise;
    else {
      const final = await until('the refund to settle', async () => {
        const s = (await ts.api('GET', `/merchant/refunds/${refund.id}`, { client })).body.data.status as string;
        return s === 'PROCESSING' ? undefined : s;
      }, 20_000, 50);
      if (refund.amount_paise % 100 === 13) {
        assert.equal(final, 'FAILED');
        m.refunded -= refund.amount_paise;
      } else {
        assert.equal(final, 'COMPLETED');
        m.completed += refund.amount_paise;
        if (m.completed === ORDER_PAISE) m.status = 'REFUNDED';
      }
    }
    await expectModel(m, r);
  }
  toString = () => `refund-${this.decision}`;
}

const commands = [
  fc.constant(new Details()),
  fc.constant(new Reference()),
  fc.tuple(fc.constantFrom('pay' as const, 'fail' as const), fc.boolean()).map(([o, cb]) => new Decide(o, cb)),
  fc.constant(new Cancel()),
  fc.constant(new Get()),
  fc.constant(new Expire()),
  fc.constant(new DuplicateCallback()),
  fc.constantFrom('confirm' as const, 'reject' as const).map((d) => new Review(d)),
  fc.constantFrom('half' as const, 'rest' as const, 'fails' as const).map((a) => new Refund(a)),
  fc.constantFrom('approve' as const, 'reject' as const).map((d) => new RefundReview(d)),
];

async function checkHistory(r: Real, m: Model, violations: string[]): Promise<void> {
  const moves = await db().query<{ from_status: PaymentOrderStatus | null; to_status: PaymentOrderStatus; trigger: string }>('SELECT from_status, to_status, trigger FROM payment_order_transitions WHERE order_pk = $1 ORDER BY id', [r.id]);
  moves.rows.forEach((t, i) => {
    if (i === 0 ? t.trigger !== 'created' || t.from_status !== null : !t.from_status || !canTransition(t.from_status, t.to_status) || moves.rows[i - 1]!.to_status !== t.from_status) {
      violations.push(`illegal move ${t.from_status} → ${t.to_status} (${t.trigger}) after ${r.steps.join(' → ')}`);
    }
  });
  const received = await db().query('SELECT 1 FROM events WHERE aggregate_id = $1 AND kind = $2', [r.id, 'collection.received']);
  if (received.rowCount !== m.received) violations.push(`${received.rowCount} collection.received for a ${m.status} order, ${m.received} expected`);
  if (m.review) {
    const late = await db().query('SELECT 1 FROM payment_order_late_confirmations WHERE order_pk = $1 UNION ALL SELECT 1 FROM review_items WHERE order_pk = $1', [r.id]);
    if (late.rowCount === 0) violations.push(`flagged for review without a recorded late confirmation or review item: ${r.steps.join(' → ')}`);
  }
  const refunds = await db().query<{ counted: number; completed: number; executed: number; executions: number; completed_n: number }>(
    `SELECT coalesce(sum(amount_paise) FILTER (WHERE status NOT IN ('REJECTED', 'FAILED')), 0)::int AS counted,
            coalesce(sum(amount_paise) FILTER (WHERE status = 'COMPLETED'), 0)::int AS completed,
            count(*) FILTER (WHERE status = 'COMPLETED')::int AS completed_n,
            (SELECT coalesce(sum(l.amount_paise), 0)::int FROM sandbox_refund_ledger l WHERE l.reference IN (SELECT refund_id FROM refunds WHERE order_pk = $1)) AS executed,
            (SELECT count(*)::int FROM sandbox_refund_ledger l WHERE l.reference IN (SELECT refund_id FROM refunds WHERE order_pk = $1)) AS executions
       FROM refunds WHERE order_pk = $1`,
    [r.id],
  );
  const f = refunds.rows[0]!;
  if (f.counted > ORDER_PAISE) violations.push(`refunds ${f.counted} exceed the order: ${r.steps.join(' → ')}`);
  if (f.counted !== m.refunded || f.completed !== m.completed) violations.push(`refunds ${f.counted}/${f.completed}, model ${m.refunded}/${m.completed}: ${r.steps.join(' → ')}`);
  if (f.executed !== f.completed || f.executions !== f.completed_n) violations.push(`sandbox executed ${f.executed} in ${f.executions} for ${f.completed} completed in ${f.completed_n}`);
  // No lost confirmation: money the sandbox took is PAID or flagged once the service has heard of it.
  // (Paid without a callback after the order closed, the service is never told: nothing to check.)
  if (m.heard && m.sandbox === 'SUCCESS' && !m.utrApplied && !m.review) violations.push(`confirmation lost: ${r.steps.join(' → ')}`);
}

test(`payment order state machine: ${ORDER_RUNS} model runs`, { timeout: 1_800_000 }, async () => {
  const started = Date.now();
  const violations: string[] = [];
  let commandsRun = 0;
  const reviewAndRefundSteps: Record<string, number> = {};
  await fc.assert(
    // PAID_INTENT: an INTENT order the sandbox paid before the run, so refunds and reviews get exercised.
    fc.asyncProperty(fc.constantFrom('CHECKOUT', 'INTENT', 'PAID_INTENT'), fc.commands(commands, { maxCommands: 10, size: 'large' }), async (start, cmds) => {
      const mode = start === 'CHECKOUT' ? 'CHECKOUT' : 'INTENT';
      const body = { amount_paise: ORDER_PAISE, purpose: 'model', response_mode: mode, ...(mode === 'INTENT' ? { customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true } : {}) };
      const o = await ts.api('POST', '/merchant/payment-orders', { client, body, idempotencyKey: randomUUID() });
      assert.equal(o.status, 201, o.text);
      const real: Real = { id: o.body.data.id, orderId: o.body.data.order_id, token: String(o.body.data.checkout_url).split('/checkout/')[1]!, steps: [start] };
      const model: Model = { status: o.body.data.status, sandbox: mode === 'INTENT' ? 'PENDING' : 'none', review: false, heard: false, openItems: 0, utrApplied: false, utrQueued: false, received: 0, refunded: 0, completed: 0, pendingReview: [] };
      if (start === 'PAID_INTENT') {
        assert.equal((await ts.admin('POST', `/sandbox/payment-orders/${real.id}/pay`, { callback: true })).status, 200);
        await until('the order to be PAID', async () => (await statusOf(real)).status === 'PAID', 10_000, 20);
        model.sandbox = 'SUCCESS';
        learn(model);
      }
      await fc.asyncModelRun(() => ({ model, real }), cmds);
      commandsRun += real.steps.length - 1;
      for (const step of real.steps.slice(1)) if (/^(refund|review)/.test(step)) reviewAndRefundSteps[step] = (reviewAndRefundSteps[step] ?? 0) + 1;
      await checkHistory(real, model, violations);
      assert.deepEqual(violations, []);
    }),
    { numRuns: ORDER_RUNS },
  );
  const ledger = await ledgerViolations(db());
  assert.deepEqual(ledger.violations, []);
  report('model-orders', { ledger_entries: ledger.entries, runs: ORDER_RUNS, operations: commandsRun, violations: violations.length, ms: Date.now() - started, ...reviewAndRefundSteps });
});

test(`payout state machine: ${PAYOUT_BATCHES} batches of magic amounts`, { timeout: 900_000 }, async () => {
  const started = Date.now();
  const expected: Record<number, PayoutStatus> = { 0: 'SUCCESS', 13: 'FAILED', 57: 'SUCCESS', 58: 'FAILED', 59: 'SUCCESS' };
  let payouts = 0;
  const violations: string[] = [];
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(0, 13, 57, 58, 59), fc.constantFrom('IMPS', 'NEFT', 'RTGS')), { minLength: 1, maxLength: 6 }), async (batch) => {
      const ids = await Promise.all(batch.map(async ([ending, mode], i) => {
        const amount = (mode === 'RTGS' ? 20_000_000 : 10_000) + i * 100 + ending;
        const r = await ts.api('POST', '/merchant/payouts', { client, idempotencyKey: randomUUID(), body: { beneficiary: inlineBeneficiary(), amount_paise: amount, mode } });
        assert.equal(r.status, 201, r.text);
        return { id: r.body.data.id as string, txn: r.body.data.transaction_id as string, ending };
      }));
      payouts += ids.length;
      for (const p of ids) {
        const status = await until(`payout ${p.txn}`, async () => {
          const s = (await db().query<{ status: PayoutStatus }>('SELECT status FROM payouts WHERE id = $1', [p.id])).rows[0]!.status;
          return s === 'PROCESSING' ? undefined : s;
        }, 60_000, 100);
        if (status !== expected[p.ending]) violations.push(`ending ${p.ending}: ${status}`);
        const moves = await db().query<{ entity: string; attempt_id: string | null; from_status: string | null; to_status: string }>('SELECT entity, attempt_id, from_status, to_status FROM payout_transitions WHERE payout_id = $1 ORDER BY id', [p.id]);
        for (const t of moves.rows) {
          if (t.from_status === null) continue; // creation rows
          const ok = t.entity === 'payout' ? canTransitionPayout(t.from_status as PayoutStatus, t.to_status as PayoutStatus) : canTransitionAttempt(t.from_status as PayoutAttemptStatus, t.to_status as PayoutAttemptStatus);
          if (!ok) violations.push(`illegal ${t.entity} move ${t.from_status} → ${t.to_status} (ending ${p.ending})`);
        }
        const execs = (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_bank_ledger WHERE reference = $1', [p.txn])).rows[0]!.n;
        if (execs !== (status === 'SUCCESS' ? 1 : 0)) violations.push(`${p.txn} ${status} executed ${execs} times`);
      }
      assert.deepEqual(violations, []);
    }),
    { numRuns: PAYOUT_BATCHES },
  );
  const ledger = await ledgerViolations(db());
  assert.deepEqual(ledger.violations, []);
  report('model-payouts', { ledger_entries: ledger.entries, batches: PAYOUT_BATCHES, operations: payouts, violations: violations.length, ms: Date.now() - started });
});
