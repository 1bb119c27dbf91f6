/**
 * The sandbox UPI PSP (contract §3): issues dynamic UPI intents for collections (idempotent by our
 * reference), answers status inquiries (counted per reference), and lets an operator decide a
 * collection with `pay` / `fail`, after which it sends its signed callback to the service.
 *
 * Its HTTP API (all JSON):
 *   POST /psp/collections                     {reference, amount_paise, note, payee_name, expires_at, merchant_category_code?, merchant?}
 *                                             201 new, 200 same reference + same parameters, 409 conflicting parameters
 *   GET  /psp/collections/:reference          status inquiry; 404 {status: "NOT_FOUND"}
 *   POST /psp/collections/:reference/pay      {utr?, amount_paise?, callback?}  (callback defaults to true;
 *                                             amount_paise: the payer paid another amount than requested)
 *   POST /psp/collections/:reference/fail     {reason?, callback?}
 *   POST /psp/refunds                         {reference, collection_reference, amount_paise}: executed at
 *                                             once, once per reference (our refund_id); an amount ending in
 *                                             13 paise fails. 201 new, 200 same reference + same parameters,
 *                                             409 conflicting parameters, 422 the collection cannot be refunded
 *   GET  /psp/refunds/:reference              refund status inquiry; 404 {status: "NOT_FOUND"}
 *   GET  /psp/stats                           {payin_status_checks: {reference: count}}
 */
import { randomBytes } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../domain/errors.js';
import { buildUpiIntent } from '../domain/upi-intent.js';
import * as repo from './repos/psp-repo.js';
import type { SandboxCollectionRow, SandboxRefundRow } from './repos/psp-repo.js';
import { newRowId } from '../store/row-id.js';
import { createCallbackSender } from './callback-sender.js';
import { CreateCollectionBody, CreateRefundBody, DecideBody, ReferenceParams } from './psp-schemas.js';
import type { SandboxDeps } from './deps.js';
import { payinStatusCheckStats } from './stats.js';
import { sandboxUtr } from './utr.js';

/** The payee VPA of every sandbox intent. No merchant category code: the sandbox has no MCC. */
export const SANDBOX_PAYEE_VPA = 'tijori.sandbox@sandbox';

export function collectionJson(c: SandboxCollectionRow) {
  return {
    reference: c.reference,
    provider_reference: c.provider_reference,
    // Once paid: what the payer actually paid (the service compares it with its order).
    amount_paise: c.paid_amount_paise ?? c.amount_paise,
    upi_uri: c.upi_uri,
    expires_at: c.expires_at.toISOString(),
    status: c.status,
    utr: c.utr,
    paid_at: c.paid_at?.toISOString() ?? null,
    failure_reason: c.failure_reason,
  };
}

function problem(reply: FastifyReply, status: number, error: string, message: string) {
  return reply.code(status).send({ error, message });
}

export async function registerPspRoutes(server: FastifyInstance, deps: SandboxDeps): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const sender = createCallbackSender({ url: deps.callbackUrl, secret: deps.signingSecret, log: deps.log.child({ component: 'sandbox-psp' }) });
  app.addHook('onClose', async () => sender.close());
  const notify = (c: SandboxCollectionRow) =>
    sender.send({
      id: newRowId(),
      type: 'collection.updated',
      reference: c.reference,
      provider_reference: c.provider_reference,
      status: c.status,
      amount_paise: c.paid_amount_paise ?? c.amount_paise,
      utr: c.utr,
      paid_at: c.paid_at?.toISOString() ?? null,
      failure_reason: c.failure_reason,
    });

  app.post('/psp/collections', { schema: { body: CreateCollectionBody } }, async (request, reply) => {
    const b = request.body;
    const expiresAt = new Date(b.expires_at);
    if (Number.isNaN(expiresAt.getTime())) return problem(reply, 422, 'invalid_request', 'expires_at is not a timestamp');
    let upiUri: string;
    try {
      upiUri = buildUpiIntent({
        payeeVpa: SANDBOX_PAYEE_VPA,
        payeeName: b.payee_name,
        amountPaise: b.amount_paise,
        transactionRef: b.reference,
        note: b.note,
        merchantCategoryCode: b.merchant_category_code,
      });
    } catch (err) {
      if (err instanceof AppError) return problem(reply, 422, 'invalid_request', err.message);
      throw err;
    }
    const created = await repo.insertCollection(deps.db, {
      reference: b.reference,
      provider_reference: `SBX${randomBytes(9).toString('hex').toUpperCase()}`,
      amount_paise: b.amount_paise,
      note: b.note,
      payee_name: b.payee_name,
      merchant_category: b.merchant_category_code ?? null,
      merchant: b.merchant ?? null,
      expires_at: expiresAt,
      upi_uri: upiUri,
    });
    if (created) return reply.code(201).send(collectionJson(created));
    const existing = await repo.findCollection(deps.db, b.reference);
    if (!existing) return problem(reply, 503, 'retry', 'try again');
    const same =
      existing.amount_paise === b.amount_paise &&
      existing.note === b.note &&
      existing.payee_name === b.payee_name &&
      existing.merchant_category === (b.merchant_category_code ?? null);
    if (!same) return problem(reply, 409, 'reference_conflict', 'this reference was issued with different parameters');
    return reply.code(200).send(collectionJson(existing));
  });

  app.get('/psp/collections/:reference', { schema: { params: ReferenceParams } }, async (request, reply) => {
    const { reference } = request.params;
    const c = await repo.inquireCollection(deps.db, reference);
    if (!c) return reply.code(404).send({ reference, status: 'NOT_FOUND' });
    return collectionJson(c);
  });

  app.post('/psp/collections/:reference/pay', { schema: { params: ReferenceParams, body: DecideBody } }, async (request, reply) => {
    const { reference } = request.params;
    const b = request.body;
    const decided = await repo.decideCollection(deps.db, reference, { status: 'SUCCESS', utr: b.utr ?? sandboxUtr('UPI'), paidAmountPaise: b.amount_paise });
    if (decided) {
      if (b.callback !== false) notify(decided);
      return collectionJson(decided);
    }
    const existing = await repo.findCollection(deps.db, reference);
    if (!existing) return problem(reply, 404, 'not_found', 'no collection with this reference');
    if (existing.status === 'SUCCESS' && (b.utr === undefined || b.utr === existing.utr)) return collectionJson(existing);
    return problem(reply, 409, 'already_decided', `the collection is already ${existing.status}`);
  });

  app.post('/psp/collections/:reference/fail', { schema: { params: ReferenceParams, body: DecideBody } }, async (request, reply) => {
    const { reference } = request.params;
    const b = request.body;
    const decided = await repo.decideCollection(deps.db, reference, { status: 'FAILED', reason: b.reason ?? 'Payment declined by the payer bank (sandbox)' });
    if (decided) {
      if (b.callback !== false) notify(decided);
      return collectionJson(decided);
    }
    const existing = await repo.findCollection(deps.db, reference);
    if (!existing) return problem(reply, 404, 'not_found', 'no collection with this reference');
    if (existing.status === 'FAILED') return collectionJson(existing);
    return problem(reply, 409, 'already_decided', `the collection is already ${existing.status}`);
  });

  registerRefundRoutes(server, deps);

  app.get('/psp/stats', async () => ({ payin_status_checks: await payinStatusCheckStats(deps) }));
}

/** Contract §6: a refund of an amount ending in 13 paise fails at the provider. */
export const SANDBOX_FAILING_REFUND_SUFFIX = 13;

export function refundJson(r: SandboxRefundRow) {
  return {
    reference: r.reference,
    provider_reference: r.provider_reference,
    collection_reference: r.collection_reference,
    amount_paise: r.amount_paise,
    status: r.status,
    failure_reason: r.failure_reason,
    completed_at: r.completed_at?.toISOString() ?? null,
  };
}

function registerRefundRoutes(server: FastifyInstance, deps: SandboxDeps): void {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/psp/refunds', { schema: { body: CreateRefundBody } }, async (request, reply) => {
    const b = request.body;
    const existing = await repo.findRefund(deps.db, b.reference);
    if (existing) return sameRefund(reply, existing, b);
    const c = await repo.findCollection(deps.db, b.collection_reference);
    if (!c || c.status !== 'SUCCESS') return problem(reply, 422, 'not_refundable', 'the collection was not paid');
    const paid = c.paid_amount_paise ?? c.amount_paise;
    const refunded = await repo.refundedOfCollection(deps.db, c.reference);
    // Like a bank: a refund that would return more than was paid is refused, not executed. A request
    // racing one with the same reference sees that one's amount in the sum: it is answered with what
    // that one did (a retried submit after an inquiry that came too early), never refused.
    if (refunded + b.amount_paise > paid) {
      const raced = await repo.findRefund(deps.db, b.reference);
      if (raced) return sameRefund(reply, raced, b);
      return problem(reply, 422, 'exceeds_paid_amount', 'the refunds would exceed the amount paid');
    }
    const failureReason = b.amount_paise % 100 === SANDBOX_FAILING_REFUND_SUFFIX ? 'Refund declined by the payer bank (sandbox: amount ending in 13 paise)' : null;
    const executed = await repo.executeRefund(deps.db, {
      reference: b.reference,
      providerReference: `SBXR${randomBytes(9).toString('hex').toUpperCase()}`,
      collectionReference: b.collection_reference,
      amountPaise: b.amount_paise,
      failureReason,
    });
    if (executed) return reply.code(201).send(refundJson(executed));
    // A concurrent request with the same reference won: answer with what it did.
    const winner = await repo.findRefund(deps.db, b.reference);
    if (!winner) return problem(reply, 503, 'retry', 'try again');
    return sameRefund(reply, winner, b);
  });

  app.get('/psp/refunds/:reference', { schema: { params: ReferenceParams } }, async (request, reply) => {
    const { reference } = request.params;
    const r = await repo.findRefund(deps.db, reference);
    if (!r) return reply.code(404).send({ reference, status: 'NOT_FOUND' });
    return refundJson(r);
  });
}

function sameRefund(reply: FastifyReply, r: SandboxRefundRow, b: { collection_reference: string; amount_paise: number }) {
  if (r.collection_reference !== b.collection_reference || r.amount_paise !== b.amount_paise) {
    return problem(reply, 409, 'reference_conflict', 'this refund reference was used with different parameters');
  }
  return reply.code(200).send(refundJson(r));
}
