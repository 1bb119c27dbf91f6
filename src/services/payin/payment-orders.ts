/**
 * Payment orders (PayIn): create, retrieve with the live provider check, cancel, and the hosted
 * checkout's steps. Every status change goes through transitionOrder(); every provider outcome
 * through applyCollectionStatus().
 */
import type { Config } from '../../config.js';
import { AppError, validationError } from '../../domain/errors.js';
import { normaliseIndianMobile } from '../../domain/phone.js';
import { initialOrderStatus, isOpen } from '../../domain/payment-order.js';
import { type CollectionIssued, type Provider, ProviderError, type ProviderCallback } from '../../providers/provider.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { SandboxControls } from '../../providers/sandbox/adapter.js';
import type { Logger } from '../../observability/logger.js';
import type { Vault } from '../../security/vault.js';
import type { ClientsService } from '../shared/clients.js';
import type { Principal } from '../shared/principal.js';
import type { CreateResponse, IdempotencyScope, IdempotencyService } from '../shared/idempotency.js';
import * as reads from '../../store/repos/payment-order-reads-repo.js';
import * as repo from '../../store/repos/payment-orders-repo.js';
import type { PaymentOrderRow, PaymentOrderViewRow } from '../../store/repos/payment-orders-repo.js';
import type { Db, Queryable } from '../../store/db.js';
import { type CreatePaymentOrderBody, type CreatePaymentOrderInput, type PayerDetails, payerDetailsIssues, validateCreatePaymentOrder } from './payment-order-input.js';
import { applyCollectionStatus, applyCollectionStatusesByReference, lockOrder, type ProviderOutcomeResult, transitionOrder } from './payment-order-transitions.js';
import {
  type CheckoutView,
  checkoutTokenFor,
  checkoutUrl,
  checkoutView,
  orderIdFor,
  orderPkForCheckoutToken,
  orderRefFor,
  paymentOrderView,
  type PaymentOrderView,
} from './payment-order-view.js';
import { callbackSecretContext } from './payment-order-secrets.js';
import { askProvider, collectionAnswer, noAnswer, recordBestEffort, recordOrderCheck } from '../providers/provider-checks.js';
import { type ListQuery, listFilterOf, pageOf } from '../shared/list-page.js';
import { sandboxDecide, sandboxDecideByRef, type SandboxDecisionOptions } from './sandbox-decisions.js';

/** API §8: a live check only when the previous one is older than this. */
export const LIVE_CHECK_INTERVAL_MS = 2_000;
/** Upper bound of the provider call inside a retrieval; the GET answers within about this. */
export const LIVE_CHECK_TIMEOUT_MS = 1_500;

const UTR = /^[0-9]{12}$/;

function providerUnavailable(err: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The payment provider is temporarily unavailable. Retry with the same Idempotency-Key.', { cause: err });
}

export interface CreateRequest {
  principal: Principal;
  scope: IdempotencyScope;
  body: CreatePaymentOrderBody;
  requestId: string;
}

/** What PaymentOrdersService uses; built by the composition root (context.ts). */
export interface PaymentOrdersDeps {
  db: Db;
  vault: Vault;
  log: Logger;
  config: Pick<Config, 'callbackAllowPrivateNetworks'>;
  /** Origin of the checkout links. */
  publicBaseUrl(): string;
  providers: Pick<ProviderRegistry, 'forAccount' | 'forCollections'>;
  clients: Pick<ClientsService, 'orgName'>;
  idempotency: IdempotencyService;
  /** The sandbox's pay/fail controls, when the sandbox runs (sandbox-decisions.ts). */
  sandbox: SandboxControls | undefined;
}

export class PaymentOrdersService {
  constructor(private readonly ctx: PaymentOrdersDeps) {}

  private urlFor(o: { id: string }): string {
    return checkoutUrl(this.ctx.publicBaseUrl(), checkoutTokenFor(this.ctx.vault, o.id));
  }

  /** The API §2.2 representation. */
  view(o: PaymentOrderViewRow): PaymentOrderView {
    return paymentOrderView(o, this.urlFor(o));
  }

  /** The provider (account) an order's checks and refunds talk to: the one it was issued with. */
  providerOf(o: { provider_account_id: string | null }): Promise<Provider> {
    return this.ctx.providers.forAccount(o.provider_account_id);
  }

  private newRow(
    id: string,
    principal: Principal,
    input: CreatePaymentOrderInput,
    issued: (CollectionIssued & { expiresAt: Date }) | null,
    chosen: { accountId: string | null; provider: Provider },
  ): repo.NewPaymentOrder {
    const status = initialOrderStatus(input.responseMode);
    return {
      id,
      order_id: orderIdFor(id),
      org_id: principal.orgId,
      client_pk: principal.pk,
      merchant_order_reference: input.merchantOrderReference,
      amount_paise: input.amountPaise,
      currency: 'INR',
      purpose: input.purpose,
      response_mode: input.responseMode,
      status,
      provider: chosen.provider.name,
      livemode: chosen.provider.livemode,
      provider_account_id: chosen.accountId,
      provider_status: issued ? 'PENDING' : 'NOT_INITIATED',
      provider_reference: issued?.providerReference ?? null,
      upi_uri: issued?.upiUri ?? null,
      customer_name: input.customer.name,
      customer_email: input.customer.email,
      customer_phone: input.customer.phone,
      customer_consent_at: input.customer.consent ? new Date() : null,
      expires_in_minutes: input.expiresInMinutes,
      expires_at: issued?.expiresAt ?? null,
      callback_url: input.callback?.url ?? null,
      callback_secret_enc: input.callback ? this.ctx.vault.encrypt(input.callback.secret, callbackSecretContext(id)) : null,
      return_url: input.returnUrl,
    };
  }

  private async issueCollection(
    provider: Provider,
    o: { orderId: string; orgId: string; amountPaise: number; purpose: string; expiresInMinutes: number; customer: { name: string | null; email: string | null; phone: string | null } },
  ): Promise<CollectionIssued & { expiresAt: Date }> {
    const orgName = await this.ctx.clients.orgName(o.orgId);
    const expiresAt = new Date(Date.now() + o.expiresInMinutes * 60_000);
    try {
      const issued = await provider.createCollection({
        reference: o.orderId,
        amountPaise: o.amountPaise,
        note: o.purpose,
        payeeName: orgName ?? 'Merchant',
        expiresAt,
        customer: o.customer,
        // Whose settlement covers the payment (the sandbox settles per merchant, contract §9).
        merchant: o.orgId,
      });
      return { ...issued, expiresAt };
    } catch (err) {
      if (err instanceof ProviderError) throw providerUnavailable(err);
      throw err;
    }
  }

  /**
   * POST /merchant/payment-orders. CHECKOUT: key, order, history in one statement. INTENT: the
   * provider must issue the intent before we can answer, so the key is leased while it does; the
   * order id (and so the provider reference) is stable across a resumed attempt.
   */
  async create(req: CreateRequest): Promise<CreateResponse> {
    const input = validateCreatePaymentOrder(req.body, { allowPrivateNetworks: this.ctx.config.callbackAllowPrivateNetworks });
    // The organization's collections account (the sandbox unless `tijori collections use` chose one).
    const chosen = await this.ctx.providers.forCollections(req.principal.orgId);
    // CHECKOUT: nothing to ask a provider, so no lease: key, order and history in one statement.
    const leased = input.responseMode === 'INTENT';
    const { response } = await this.ctx.idempotency.run(req.scope, { leased }, async ({ resourceId, keyFor }) => {
      const issued = leased
        ? await this.issueCollection(chosen.provider, {
            orderId: orderIdFor(resourceId),
            orgId: req.principal.orgId,
            amountPaise: input.amountPaise,
            purpose: input.purpose,
            expiresInMinutes: input.expiresInMinutes,
            customer: input.customer,
          })
        : null;
      const createdAt = new Date();
      const order = { ...this.newRow(resourceId, req.principal, input, issued, chosen), created_at: createdAt };
      const key = keyFor({
        status: 201,
        body: { success: true, data: this.view(repo.rowAsInserted(order, createdAt)), request_id: req.requestId },
        resourceType: 'payment_order',
        resourceId,
      });
      // Order, history and the completed key in one statement, shared with concurrent creates.
      return { key, written: await repo.insertCreate(this.ctx.db, { order, key }), made: order };
    });
    return response;
  }

  private async findForClient(principal: Principal, ref: string): Promise<PaymentOrderViewRow> {
    const orderRef = orderRefFor(ref);
    // GETs that arrive together share one statement.
    const row = orderRef === null ? null : await repo.findForClient(this.ctx.db, { clientPk: principal.pk, ref: orderRef });
    if (!row) throw new AppError('NOT_FOUND', 'No such payment order.');
    return row;
  }

  /** GET /merchant/payment-orders/{order}: the authoritative state, after a live check when due. */
  async retrieve(principal: Principal, ref: string): Promise<PaymentOrderView> {
    const row = await this.findForClient(principal, ref);
    return this.view(await this.liveCheck(row));
  }

  /**
   * GET /merchant/payment-orders: the client's own orders, newest first, one keyset page (contract
   * §7). Each item is the GET's view of the stored state (no live provider check per row).
   */
  async list(principal: Principal, query: ListQuery): Promise<{ data: PaymentOrderView[]; next_cursor: string | null }> {
    const filter = listFilterOf(principal.pk, query);
    return pageOf(await this.ctx.db.replicaReads.read((q) => reads.listForClient(q, filter)), filter.limit, (row) => this.view(row));
  }

  /**
   * At most one provider inquiry per order per LIVE_CHECK_INTERVAL_MS across all instances (an
   * atomic claim on last_provider_check_at), made outside any transaction and bounded by
   * LIVE_CHECK_TIMEOUT_MS. A slow or failing provider leaves the state as it is.
   */
  async liveCheck<R extends PaymentOrderViewRow>(row: R): Promise<R | PaymentOrderRow> {
    if (!isOpen(row.status) || row.upi_uri === null) return row;
    if (!(await reads.claimLiveCheck(this.ctx.db, row.id, LIVE_CHECK_INTERVAL_MS))) return row;
    // Each call is kept in the provider checks log (the console's order page); see provider-checks.ts.
    const call = await askProvider({
      reason: 'live_check', reference: row.order_id, provider: () => this.providerOf(row),
      ask: (provider) => provider.collectionStatus(row.order_id, { timeoutMs: LIVE_CHECK_TIMEOUT_MS }), timeoutMs: LIVE_CHECK_TIMEOUT_MS,
    });
    if ('error' in call.result) {
      this.ctx.log.warn({ order_id: row.order_id, err: call.result.error.message }, 'live provider check got no answer');
      const facts = call.facts(noAnswer(call.result.error), 'no change: no answer');
      await recordBestEffort(this.ctx.log, () => recordOrderCheck(this.ctx.db, row.id, facts));
      return row;
    }
    const known = call.result.answer;
    return this.ctx.db.tx(async (tx) => {
      const locked = await lockOrder(tx, row.id);
      const result = await applyCollectionStatus(tx, locked, known, 'live_check');
      await recordOrderCheck(tx, row.id, call.facts(collectionAnswer(known), result));
      return (await repo.findByIdOrOrderId(tx, { id: row.id })) as PaymentOrderRow;
    });
  }

  /** POST /merchant/payment-orders/{order}/cancel: open orders only (409 INVALID_STATE otherwise). */
  async cancel(principal: Principal, ref: string): Promise<PaymentOrderView> {
    const found = await this.findForClient(principal, ref);
    const row = await this.ctx.db.tx(async (tx) => {
      const locked = await lockOrder(tx, found.id);
      if (!isOpen(locked.status)) throw new AppError('INVALID_STATE', `A payment order in status ${locked.status} cannot be cancelled.`);
      return transitionOrder(tx, locked, 'CANCELLED', 'merchant_cancel', { detail: { source: 'merchant_api' } });
    });
    return this.view(row);
  }

  /** Provider-event handler (see ProviderIntake): applies verified collection callbacks, in their order. */
  async applyProviderCallbacks(tx: Queryable, cbs: ProviderCallback[]): Promise<ProviderOutcomeResult[]> {
    const news = cbs.map((cb) => {
      if (cb.kind !== 'collection') throw new Error('not a collection callback');
      return { reference: cb.reference, status: cb.status, source: `callback:${cb.eventId}` };
    });
    const results = await applyCollectionStatusesByReference(tx, news);
    results.forEach((result, i) => {
      if (result === 'unknown_order') this.ctx.log.warn({ reference: cbs[i]!.reference, event_id: cbs[i]!.eventId }, 'provider callback for an unknown order');
    });
    return results;
  }

  // ---- the hosted checkout page's steps (the page itself is another module) ----

  private async byToken(token: string): Promise<PaymentOrderRow> {
    const id = orderPkForCheckoutToken(this.ctx.vault, token);
    const row = id === null ? null : await repo.findByIdOrOrderId(this.ctx.db, { id });
    if (!row) throw new AppError('NOT_FOUND', 'No such checkout.');
    return row;
  }

  private async checkout(row: PaymentOrderRow): Promise<CheckoutView> {
    return checkoutView(row, (await this.ctx.clients.orgName(row.org_id)) ?? 'Merchant');
  }

  /** The order behind a checkout token; `liveCheck` applies the same 2-second-gated provider check as the API. */
  async getByCheckoutToken(token: string, opts: { liveCheck?: boolean } = {}): Promise<CheckoutView> {
    const row = await this.byToken(token);
    return this.checkout(opts.liveCheck ? await this.liveCheck(row) : row);
  }

  /**
   * AWAITING_CUSTOMER -> PENDING_PAYMENT: stores the payer, has the provider issue the intent and
   * starts the payment window. Repeating it once the intent exists returns the order unchanged.
   */
  async submitPayerDetails(token: string, given: PayerDetails): Promise<CheckoutView> {
    // A payer may write the number as "+91 98765 43210" or "098765-43210": stored as the 10 digits.
    const details = { ...given, phone: normaliseIndianMobile(given.phone) ?? given.phone };
    const issues = payerDetailsIssues(details);
    if (issues.length > 0) throw validationError(issues);
    const row = await this.byToken(token);
    if (row.status === 'PENDING_PAYMENT' || row.status === 'AWAITING_CONFIRMATION') return this.checkout(row);
    if (row.status !== 'AWAITING_CUSTOMER') throw new AppError('INVALID_STATE', `This payment is ${row.status}.`);
    const issued = await this.issueCollection(await this.providerOf(row), {
      orderId: row.order_id,
      orgId: row.org_id,
      amountPaise: row.amount_paise,
      purpose: row.purpose,
      expiresInMinutes: row.expires_in_minutes,
      customer: { name: details.name, email: details.email ?? null, phone: details.phone },
    });
    const updated = await this.ctx.db.tx(async (tx) => {
      const locked = await lockOrder(tx, row.id);
      if (locked.status !== 'AWAITING_CUSTOMER') return locked; // a concurrent submit won, or it closed meanwhile
      return transitionOrder(tx, locked, 'PENDING_PAYMENT', 'payer_details', {
        changes: {
          customer_name: details.name,
          customer_email: details.email,
          customer_phone: details.phone,
          customer_consent_at: new Date(),
          upi_uri: issued.upiUri,
          provider_reference: issued.providerReference,
          provider_status: 'PENDING',
          expires_at: issued.expiresAt,
        },
        detail: { source: 'checkout' },
      });
    });
    return this.checkout(updated);
  }

  /** PENDING_PAYMENT -> AWAITING_CONFIRMATION: the payer typed the UTR their app showed. */
  async submitPayerReference(token: string, utr: string): Promise<CheckoutView> {
    if (!UTR.test(utr)) throw validationError([{ field: 'payer_reference', issue: 'must be the 12-digit UPI reference number (UTR)' }]);
    const row = await this.byToken(token);
    if (row.status === 'AWAITING_CONFIRMATION' && row.payer_reference === utr) return this.checkout(row);
    const updated = await this.ctx.db.tx(async (tx) => {
      const locked = await lockOrder(tx, row.id);
      if (locked.status !== 'PENDING_PAYMENT') throw new AppError('INVALID_STATE', `This payment is ${locked.status}.`);
      return transitionOrder(tx, locked, 'AWAITING_CONFIRMATION', 'payer_reference', { changes: { payer_reference: utr }, detail: { source: 'checkout' } });
    });
    return this.checkout(updated);
  }

  /** The checkout's sandbox-only "Simulate payment" / "Simulate failure": asks the sandbox PSP, like a payer's bank would. */
  async simulateSandboxOutcome(token: string, outcome: 'pay' | 'fail'): Promise<CheckoutView> {
    const row = await this.byToken(token);
    await sandboxDecide(this.ctx, row, outcome, { callback: true });
    return this.checkout(row);
  }

  /** Admin (`tijori sandbox pay|fail ORDER`): see sandbox-decisions.ts. */
  sandboxDecideByRef(ref: string, outcome: 'pay' | 'fail', opts: SandboxDecisionOptions) {
    return sandboxDecideByRef(this.ctx, ref, outcome, opts);
  }
}

export { callbackSecretContext };
