/**
 * Payout creation and retrieval (API §4.3, §4.4). The create persists the payout, its first
 * attempt (PENDING_SUBMIT), the `payout.created` event and the completed idempotency key in ONE
 * transaction (shared by creates that arrive together), so the answer (PROCESSING) is fixed before
 * the bank hears anything; the submission follows outside it (payout-submission.ts). A crash in
 * between is resumed by the payout worker.
 */
import { randomBytes } from 'node:crypto';
import { newRowId } from '../store/row-id.js';
import type { Config } from '../config.js';
import { AppError } from '../domain/errors.js';
import { isUuid } from '../domain/text.js';
import type { Principal } from './clients.js';
import type { CreateResponse, IdempotencyScope, IdempotencyService } from './idempotency.js';
import type { BeneficiariesService, ResolvedBeneficiary } from './beneficiaries.js';
import { type CreatePayoutBody, type InlineBeneficiary, validateCreatePayout } from './payout-input.js';
import { type EventInput, recordEvent, recordEvents } from './events.js';
import { Batcher } from '../store/batcher.js';
import type { ProviderRegistry } from '../providers/registry.js';
import { type Db, isDataOrDeadlockError } from '../store/db.js';
import type { RouteRow } from '../store/repos/routes-repo.js';
import type { PayoutSubmitter, SubmissionInput } from './payout-submission.js';
import { createdEventData, merchantPayoutView, payoutView } from './payout-view.js';
import { type ListQuery, listFilterOf, pageOf } from './list-page.js';
import * as routesRepo from '../store/repos/routes-repo.js';
import * as repo from '../store/repos/payouts-repo.js';

export type { CreatePayoutBody } from './payout-input.js';

export const CREATE_MESSAGE = 'Payout submitted to the bank; final status arrives by callback or status retrieval.';

/** Our reference at the bank: unique, alphanumeric, at most 35 characters. */
export function newTransactionId(): string {
  return `TJP${randomBytes(10).toString('hex').toUpperCase()}`;
}

/** A payout create ready to write: the payout, its key row, and its `payout.created` event. */
type BatchedCreate = repo.PayoutCreate & { event: EventInput };
type PendingCreate = Omit<BatchedCreate, 'key'>;

/** What PayoutsService uses; built by the composition root (context.ts). */
export interface PayoutsDeps {
  db: Db;
  config: Pick<Config, 'payout'>;
  idempotency: IdempotencyService;
  providers: Pick<ProviderRegistry, 'forAccount'>;
  beneficiaries: Pick<BeneficiariesService, 'saveInline' | 'findUsable'>;
  /** Sends a committed payout's first attempt to the bank. */
  submission: Pick<PayoutSubmitter, 'submitAfterCreate'>;
}

export class PayoutsService {
  /**
   * Creates that arrive together share their round trips: route look-ups in one statement,
   * inline beneficiaries in one (BeneficiariesService), and payouts + keys + history in one
   * transaction of two statements with their events (src/store/batcher.ts; batches grow with
   * load, a lone create waits for nothing).
   */
  private readonly routeReads: Batcher<routesRepo.RouteLookup, RouteRow | null>;
  private readonly creates: Batcher<BatchedCreate, boolean>;

  constructor(private readonly ctx: PayoutsDeps) {
    this.routeReads = new Batcher((lookups) => routesRepo.findUsableRoutes(ctx.db, lookups), { maxBatch: 256, concurrency: 2 });
    this.creates = new Batcher(
      (batch) =>
        ctx.db.tx(async (tx) => {
          const written = await repo.insertCreates(tx, batch);
          await recordEvents(tx, batch.filter((_, i) => written[i]).map((c) => c.event));
          return written;
        }),
      { maxBatch: 64, concurrency: 4, isolateFailures: isDataOrDeadlockError },
    );
  }

  /**
   * The route and beneficiary a create names; ROUTE_INVALID, MODE_NOT_ENABLED or BENEFICIARY_INVALID
   * otherwise, unless the create repeats one that succeeded: then `earlier`, that create's answer as
   * it was (even if its route or beneficiary changed since). Resolved before the key is written, so
   * that the answer stored with the key is complete. Console payouts (payout-approvals.ts) resolve
   * through here too, as their organization's console principal.
   */
  async resolve(
    principal: Principal,
    body: CreatePayoutBody,
    inline: InlineBeneficiary | null,
    scope: IdempotencyScope,
  ): Promise<{ route: RouteRow; ben: ResolvedBeneficiary } | { earlier: CreateResponse }> {
    try {
      return await this.lookUp(principal, body, inline);
    } catch (err) {
      if (err instanceof AppError) {
        const earlier = await this.ctx.idempotency.answerIfKnown(scope);
        if (earlier) return { earlier };
      }
      throw err;
    }
  }

  private async lookUp(principal: Principal, body: CreatePayoutBody, inline: InlineBeneficiary | null): Promise<{ route: RouteRow; ben: ResolvedBeneficiary }> {
    const route = await this.routeReads.add({ orgId: principal.orgId, routeId: body.bank_connection_id ?? null });
    if (!route) {
      throw new AppError('ROUTE_INVALID', body.bank_connection_id ? 'bank_connection_id does not name an active payout route of this organization.' : 'This organization has no default payout route.');
    }
    if (!route.modes.includes(body.mode)) throw new AppError('MODE_NOT_ENABLED', `Mode ${body.mode} is not enabled on this payout route (enabled: ${route.modes.join(', ')}).`);
    const ben = inline
      ? await this.ctx.beneficiaries.saveInline(principal.orgId, principal.pk, inline)
      : await this.ctx.beneficiaries.findUsable(principal.orgId, principal.pk, body.beneficiary_id as string);
    return { route, ben };
  }

  async create(principal: Principal, scope: IdempotencyScope, requestId: string, body: CreatePayoutBody): Promise<CreateResponse> {
    const { inline } = validateCreatePayout(body);

    // An inline beneficiary is stored even if the key then turns out to be a repeat: it is the same
    // confirmed account the merchant sent (a beneficiary is one row per organization and account,
    // found again next time).
    const resolved = await this.resolve(principal, body, inline, scope);
    if ('earlier' in resolved) return resolved.earlier;
    const { route, ben } = resolved;
    // The route's provider account decides where the payout goes and whether real money moves.
    const routeProvider = await this.ctx.providers.forAccount(route.provider_account_id);
    const createdAt = new Date();
    let pending: PendingCreate | undefined;
    let submission: SubmissionInput | undefined;
    const res = await this.ctx.idempotency.runOneStatement(
      scope,
      (payoutId) => {
        const attemptId = newRowId();
        const row: repo.PayoutRow = {
          id: payoutId, transaction_id: newTransactionId(), org_id: principal.orgId, client_pk: principal.pk,
          beneficiary_id: ben.id, beneficiary_name: ben.name, beneficiary_last4: ben.last4, beneficiary_ifsc: ben.ifsc,
          beneficiary_bank_name: ben.bankName, amount_paise: body.amount_paise, currency: 'INR', mode: body.mode,
          client_reference: body.client_reference ?? null, remarks: body.remarks ?? null, status: 'PROCESSING',
          failure_reason: null, bank_reference: null, utr: null, processed_at: null, livemode: routeProvider.livemode, created_at: createdAt,
        };
        pending = {
          payout: {
            id: row.id, attemptId, transactionId: row.transaction_id, orgId: row.org_id, clientPk: row.client_pk, routeId: route.id,
            beneficiary: { id: ben.id, name: ben.name, last4: ben.last4, ifsc: ben.ifsc, bankName: ben.bankName },
            amountPaise: row.amount_paise, mode: row.mode, clientReference: row.client_reference, remarks: row.remarks,
            livemode: row.livemode, createdAt, leaseMs: this.ctx.config.payout.leaseMs,
          },
          event: { orgId: row.org_id, kind: 'payout.created', aggregateType: 'payout', aggregateId: row.id, data: createdEventData(row, createdAt) },
        };
        submission = {
          attemptId, routeId: route.id, transactionId: row.transaction_id, amountPaise: row.amount_paise, mode: row.mode,
          beneficiary: { name: ben.name, accountNumber: ben.accountNumber, ifsc: ben.ifsc }, remarks: row.remarks,
        };
        const data = payoutView(row, [{ status: 'PENDING_SUBMIT', bank_reference: null, utr: null }]);
        return {
          status: 201,
          body: { success: true, data, approval_required: false, message: CREATE_MESSAGE, request_id: requestId },
          resourceType: 'payout',
          resourceId: row.id,
        };
      },
      {
        // Payout, attempt, history and the completed key in one statement shared with concurrent creates.
        first: (key) => this.creates.add({ ...(pending as PendingCreate), key }),
        takeover: async (tx, key) => {
          const p = pending as PendingCreate;
          if (!(await repo.insertHeldCreates(tx, [{ payout: p.payout, key }]))[0]) return false;
          await recordEvent(tx, p.event, createdAt);
          return true;
        },
      },
    );
    if (!res.replayed && submission) await this.ctx.submission.submitAfterCreate(submission);
    return res;
  }

  /** By service UUID or transaction_id; only the creating API client sees it (404 otherwise). */
  async get(principal: Principal, key: string) {
    const found = isUuid(key)
      ? await repo.findPayoutForClient(this.ctx.db, principal.pk, { id: key })
      : /^[A-Za-z0-9]{1,35}$/.test(key)
        ? await repo.findPayoutForClient(this.ctx.db, principal.pk, { transactionId: key })
        : null;
    if (!found) throw new AppError('NOT_FOUND', 'No such payout.');
    return merchantPayoutView(found.payout, found.attempts);
  }

  /** GET /merchant/payouts: the client's own payouts, newest first, one keyset page (contract §7). */
  async list(principal: Principal, query: ListQuery) {
    const filter = listFilterOf(principal.pk, query);
    return pageOf(await repo.listForClient(this.ctx.db, filter), filter.limit, (r) => merchantPayoutView(r.payout, r.attempts));
  }
}
