/**
 * Payment orders (PayIn): create, retrieve with the live provider check, cancel, and the hosted
 * checkout's steps. Every status change goes through transitionOrder(); every provider outcome
 * through applyCollectionStatus().
 */
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { CreatePaymentOrderBody } from '../../contract/payment-orders.js';
import type { ListQuery } from '../../contract/lists.js';
import { AppError, validationError } from '../../domain/errors.js';
import { normaliseIndianMobile } from '../../domain/phone.js';
import { isOpen } from '../../domain/payment-order.js';
import type { Provider, ProviderCallback } from '../../providers/provider.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { SandboxControls } from '../../providers/sandbox/adapter.js';
import type { Logger } from '../../observability/logger.js';
import type { Vault } from '../../security/vault.js';
import type { ClientsService } from '../shared/clients.js';
import type { Principal } from '../shared/principal.js';
import type { CreateResponse, IdempotencyScope, IdempotencyService } from '../shared/idempotency.js';
import * as reads from '../../store/repos/payment-order-reads-repo.js';
import * as creates from '../../store/repos/payment-order-creates-repo.js';
import * as repo from '../../store/repos/payment-orders-repo.js';
import type { PaymentOrderRow, PaymentOrderViewRow } from '../../store/repos/payment-orders-repo.js';
import type { Db, Tx } from '../../store/db.js';
import { type PayerDetails, payerDetailsIssues, validateCreatePaymentOrder } from './payment-order-input.js';
import { applyCollectionStatusesByReference, lockOrder, type ProviderOutcomeResult, transitionOrder } from './payment-order-transitions.js';
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
import { issueCollection, newOrderRow } from './payment-order-issue.js';
import { LIVE_CHECK_INTERVAL_MS, LIVE_CHECK_TIMEOUT_MS, liveCheck } from './payment-order-live-check.js';
import { listFilterOf, pageOf } from '../shared/list-page.js';
import { sandboxDecide, sandboxDecideByRef, type SandboxDecisionOptions } from './sandbox-decisions.js';

const UTR = /^[0-9]{12}$/;

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
  /** The clock of the live check's gate (src/clock.ts). */
  clock: Clock;
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
        ? await issueCollection(this.ctx.clients, chosen.provider, {
            orderId: orderIdFor(resourceId),
            orgId: req.principal.orgId,
            accountId: chosen.accountId,
            amountPaise: input.amountPaise,
            purpose: input.purpose,
            expiresInMinutes: input.expiresInMinutes,
            customer: input.customer,
          })
        : null;
      const createdAt = new Date();
      const order = { ...newOrderRow(this.ctx.vault, resourceId, req.principal, input, issued, chosen), created_at: createdAt };
      const key = keyFor({
        status: 201,
        body: { success: true, data: this.view(creates.rowAsInserted(order, createdAt)), request_id: req.requestId },
        resourceType: 'payment_order',
        resourceId,
      });
      // Order, history and the completed key in one statement, shared with concurrent creates.
      return { key, written: await creates.insertCreate(this.ctx.db, { order, key }), made: order };
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

  /** The live check (payment-order-live-check.ts) of a retrieved order. */
  liveCheck<R extends PaymentOrderViewRow>(row: R): Promise<R | PaymentOrderRow> {
    return liveCheck(this.ctx, row);
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
  async applyProviderCallbacks(tx: Tx, cbs: ProviderCallback[]): Promise<ProviderOutcomeResult[]> {
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
    const issued = await issueCollection(this.ctx.clients, await this.providerOf(row), {
      orderId: row.order_id,
      orgId: row.org_id,
      accountId: row.provider_account_id,
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

export { callbackSecretContext, LIVE_CHECK_INTERVAL_MS, LIVE_CHECK_TIMEOUT_MS };
