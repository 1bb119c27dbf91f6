/** The hosted checkout's service steps: getByCheckoutToken, submitPayerDetails, submitPayerReference, simulate. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../src/domain/errors.js';
import { parseUpiIntent } from '../../src/domain/upi-intent.js';
import { serviceWithClient } from '../support/service.js';
import { checkoutBody, createOrder, intentBody, waitFor, tokenOf } from './helpers.js';

const w = serviceWithClient();

const svc = () => w.t.svc.ctx.paymentOrders;
const payer = { name: 'Ravi Kumar', email: 'ravi@example.in', phone: '9123456789', consent: true };
const code = (c: string) => (e: unknown) => e instanceof AppError && e.code === c;

test('getByCheckoutToken shows the order; unknown tokens are NOT_FOUND', async () => {
  const o = await createOrder(w.t, w.client, checkoutBody({ return_url: 'https://shop.example.in/done' }));
  const v = await svc().getByCheckoutToken(tokenOf(o));
  assert.equal(v.order_id, o.order_id);
  assert.equal(v.status, 'AWAITING_CUSTOMER');
  assert.equal(v.merchant_name, 'Test Org');
  assert.equal(v.upi_uri, null);
  assert.equal(v.expires_at, null);
  assert.equal(v.return_url, 'https://shop.example.in/done');
  assert.equal(v.livemode, false, 'a sandbox order is a test-mode order');
  await assert.rejects(svc().getByCheckoutToken('x'.repeat(43)), code('NOT_FOUND'));
  await assert.rejects(svc().getByCheckoutToken('../../etc'), code('NOT_FOUND'));
});

test('submitPayerDetails: validated; AWAITING_CUSTOMER -> PENDING_PAYMENT with the intent; window starts now; repeat is harmless', async () => {
  const o = await createOrder(w.t, w.client, checkoutBody({ expires_in_minutes: 10 }));
  const token = tokenOf(o);
  await assert.rejects(svc().submitPayerDetails(token, { ...payer, consent: false }), code('VALIDATION_FAILED'));
  await assert.rejects(svc().submitPayerDetails(token, { ...payer, phone: '12345' }), code('VALIDATION_FAILED'));
  await assert.rejects(svc().submitPayerDetails(token, { ...payer, email: 'nope' }), code('VALIDATION_FAILED'));
  const before = Date.now();
  const v = await svc().submitPayerDetails(token, payer);
  assert.equal(v.status, 'PENDING_PAYMENT');
  assert.equal(parseUpiIntent(v.upi_uri as string).tr, o.order_id);
  const minutes = (Date.parse(v.expires_at as string) - before) / 60_000;
  assert.ok(minutes > 9.9 && minutes < 10.1);
  const again = await svc().submitPayerDetails(token, payer);
  assert.equal(again.upi_uri, v.upi_uri);
  const api = (await w.t.api('GET', `/merchant/payment-orders/${o.id}`, { client: w.client })).body.data;
  assert.equal(api.status, 'PENDING_PAYMENT');
  assert.equal(api.next_action.type, 'HOSTED_CHECKOUT');
  assert.equal(api.upi_intent, undefined);
  const row = (await w.t.database.db.query('SELECT customer_name, customer_phone, customer_consent_at FROM payment_orders WHERE id = $1', [o.id])).rows[0]!;
  assert.equal(row.customer_name, 'Ravi Kumar');
  assert.ok(row.customer_consent_at);
});

test('concurrent payer detail submissions make one move and one collection', async () => {
  const o = await createOrder(w.t, w.client, checkoutBody());
  const token = tokenOf(o);
  const views = await Promise.all(Array.from({ length: 10 }, () => svc().submitPayerDetails(token, payer)));
  assert.equal(new Set(views.map((v) => v.upi_uri)).size, 1);
  const h = await w.t.database.db.query(`SELECT count(*)::int AS n FROM payment_order_transitions WHERE order_pk = $1 AND trigger = 'payer_details'`, [o.id]);
  assert.equal(h.rows[0]!.n, 1);
});

test('submitPayerReference: 12-digit UTR; PENDING_PAYMENT -> AWAITING_CONFIRMATION; then paid by the provider', async () => {
  const o = await createOrder(w.t, w.client, checkoutBody());
  const token = tokenOf(o);
  await assert.rejects(svc().submitPayerReference(token, '123456789012'), code('INVALID_STATE'), 'not before payer details');
  await svc().submitPayerDetails(token, payer);
  await assert.rejects(svc().submitPayerReference(token, '12345'), code('VALIDATION_FAILED'));
  const v = await svc().submitPayerReference(token, '123456789012');
  assert.equal(v.status, 'AWAITING_CONFIRMATION');
  assert.equal(v.payer_reference, '123456789012');
  assert.equal((await svc().submitPayerReference(token, '123456789012')).status, 'AWAITING_CONFIRMATION');
  await svc().simulateSandboxOutcome(token, 'pay');
  const paid = await waitFor(async () => {
    const x = await svc().getByCheckoutToken(token);
    return x.status === 'PAID' ? x : null;
  });
  assert.match(paid.bank_transaction_id as string, /^[0-9]{12}$/);
  const h = await w.t.database.db.query('SELECT trigger FROM payment_order_transitions WHERE order_pk = $1 ORDER BY id', [o.id]);
  assert.deepEqual(h.rows.map((r: any) => r.trigger), ['created', 'payer_details', 'payer_reference', 'provider_confirmed']);
});

test('payer details on a closed order are refused', async () => {
  const o = await createOrder(w.t, w.client, checkoutBody());
  await w.t.api('POST', `/merchant/payment-orders/${o.id}/cancel`, { client: w.client });
  await assert.rejects(svc().submitPayerDetails(tokenOf(o), payer), code('INVALID_STATE'));
});

test('simulate failure and the live check from the checkout page', async () => {
  const o = await createOrder(w.t, w.client, intentBody());
  const token = tokenOf(o);
  await w.t.admin('POST', `/sandbox/payment-orders/${o.id}/pay`, { callback: false });
  const v = await svc().getByCheckoutToken(token, { liveCheck: true });
  assert.equal(v.status, 'PAID');
  const o2 = await createOrder(w.t, w.client, checkoutBody());
  await assert.rejects(svc().simulateSandboxOutcome(tokenOf(o2), 'pay'), code('INVALID_STATE'), 'no collection before payer details');
  await svc().submitPayerDetails(tokenOf(o2), payer);
  await svc().simulateSandboxOutcome(tokenOf(o2), 'fail');
  await waitFor(async () => (await svc().getByCheckoutToken(tokenOf(o2))).status === 'FAILED');
});
