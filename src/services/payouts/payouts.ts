/**
 * Payout creation and retrieval (API §4.3, §4.4). The create persists the payout, its first
 * attempt (PENDING_SUBMIT), the `payout.created` event and the completed idempotency key in ONE
 * transaction (the writer's unit of work; the store may share it with creates that arrive together), so the answer (PROCESSING) is fixed before
 * the bank hears anything; the submission follows outside it (payout-submission.ts). A crash in
 * between is resumed by the payout worker.
 */
import type { Config } from '../../config.js';
import type { CreatePayoutBody } from '../../contract/payouts.js';
import type { ListQuery } from '../../contract/lists.js';
import { AppError } from '../../domain/errors.js';
import { isUuid } from '../../domain/text.js';
import type { Principal } from '../shared/principal.js';
import type { CreateResponse, IdempotencyScope, IdempotencyService } from '../shared/idempotency.js';
import type { BeneficiariesService, ResolvedBeneficiary } from './beneficiaries.js';
import { type InlineBeneficiary, newTransactionId, validateCreatePayout } from './payout-input.js';
import { writeApiCreate } from './payout-units.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { Db } from '../../store/db.js';
import type { BankConnectionRow } from '../../store/repos/bank-connections-repo.js';
import type { PayoutSubmitter, SubmissionInput } from './payout-submission.js';
import { merchantPayoutView, payoutView } from './payout-view.js';
import { listFilterOf, pageOf } from '../shared/list-page.js';
import * as bankConnectionsRepo from '../../store/repos/bank-connections-repo.js';
import * as repo from '../../store/repos/payouts-repo.js';

/** What a create names that must exist and be usable: its bank connection, mode and saved beneficiary. */
type PayoutTarget = Pick<CreatePayoutBody, 'bank_connection_id' | 'mode' | 'beneficiary_id'>;

export const CREATE_MESSAGE = 'Payout submitted to the bank; final status arrives by callback or status retrieval.';

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
  constructor(private readonly ctx: PayoutsDeps) {}

  /**
   * The bank connection and beneficiary a create names; ROUTE_INVALID, MODE_NOT_ENABLED or BENEFICIARY_INVALID
   * otherwise, unless the create repeats one that succeeded: then `earlier`, that create's answer as
   * it was (even if its bank connection or beneficiary changed since). Resolved before the key is written, so
   * that the answer stored with the key is complete. Console payouts (payout-approvals.ts) resolve
   * through here too, as their organization's console principal.
   */
  async resolve(
    principal: Principal,
    body: PayoutTarget,
    inline: InlineBeneficiary | null,
    scope: IdempotencyScope,
  ): Promise<{ bankConnection: BankConnectionRow; ben: ResolvedBeneficiary } | { earlier: CreateResponse }> {
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

  private async lookUp(principal: Principal, body: PayoutTarget, inline: InlineBeneficiary | null): Promise<{ bankConnection: BankConnectionRow; ben: ResolvedBeneficiary }> {
    // Look-ups and inline beneficiaries of creates that arrive together share their statements (src/store/batched.ts).
    const bankConnection = await bankConnectionsRepo.findUsableBankConnection(this.ctx.db, { orgId: principal.orgId, bankConnectionId: body.bank_connection_id ?? null });
    if (!bankConnection) {
      throw new AppError('ROUTE_INVALID', body.bank_connection_id ? 'bank_connection_id does not name an active payout route of this organization.' : 'This organization has no default payout route.');
    }
    if (!bankConnection.modes.includes(body.mode)) throw new AppError('MODE_NOT_ENABLED', `Mode ${body.mode} is not enabled on this payout route (enabled: ${bankConnection.modes.join(', ')}).`);
    const ben = inline
      ? await this.ctx.beneficiaries.saveInline(principal.orgId, principal.pk, inline)
      : await this.ctx.beneficiaries.findUsable(principal.orgId, principal.pk, body.beneficiary_id as string);
    return { bankConnection, ben };
  }

  async create(principal: Principal, scope: IdempotencyScope, requestId: string, body: CreatePayoutBody): Promise<CreateResponse> {
    const { inline } = validateCreatePayout(body);

    // An inline beneficiary is stored even if the key then turns out to be a repeat: it is the same
    // confirmed account the merchant sent (a beneficiary is one row per organization and account,
    // found again next time).
    const resolved = await this.resolve(principal, body, inline, scope);
    if ('earlier' in resolved) return resolved.earlier;
    const { bankConnection, ben } = resolved;
    // The bank connection's provider account decides where the payout goes and whether real money moves.
    const bankConnectionProvider = await this.ctx.providers.forAccount(bankConnection.provider_account_id);
    const createdAt = new Date();
    const { response, made } = await this.ctx.idempotency.run(scope, { leased: false }, async ({ resourceId, keyFor }) => {
      const row: repo.PayoutRow = {
        id: resourceId, transaction_id: newTransactionId(), org_id: principal.orgId, client_pk: principal.pk,
        beneficiary_id: ben.id, beneficiary_name: ben.name, beneficiary_last4: ben.last4, beneficiary_ifsc: ben.ifsc,
        beneficiary_bank_name: ben.bankName, amount_paise: body.amount_paise, currency: 'INR', mode: body.mode,
        client_reference: body.client_reference ?? null, remarks: body.remarks ?? null, status: 'PROCESSING',
        failure_reason: null, bank_reference: null, utr: null, processed_at: null, livemode: bankConnectionProvider.livemode, created_at: createdAt,
      };
      const key = keyFor({
        status: 201,
        body: {
          success: true,
          data: payoutView(row, [{ status: 'PENDING_SUBMIT', bank_reference: null, utr: null }]),
          approval_required: false,
          message: CREATE_MESSAGE,
          request_id: requestId,
        },
        resourceType: 'payout',
        resourceId: row.id,
      });
      const { written, attemptId } = await writeApiCreate(this.ctx.db, {
        id: row.id, transactionId: row.transaction_id, orgId: row.org_id, clientPk: row.client_pk, bankConnectionId: bankConnection.id,
        beneficiary: { id: ben.id, name: ben.name, last4: ben.last4, ifsc: ben.ifsc, bankName: ben.bankName },
        amountPaise: row.amount_paise, mode: row.mode, clientReference: row.client_reference, remarks: row.remarks,
        livemode: row.livemode, createdAt, leaseMs: this.ctx.config.payout.leaseMs,
      }, key);
      const submission: SubmissionInput | null = attemptId
        ? {
            attemptId, bankConnectionId: bankConnection.id, transactionId: row.transaction_id, amountPaise: row.amount_paise, mode: row.mode,
            beneficiary: { name: ben.name, accountNumber: ben.accountNumber, ifsc: ben.ifsc }, remarks: row.remarks,
          }
        : null;
      return { key, written, made: submission };
    });
    // The bank hears of the payout only after its create committed (this request holds the attempt's lease).
    if (made) await this.ctx.submission.submitAfterCreate(made);
    return response;
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
    return pageOf(await this.ctx.db.replicaReads.read((q) => repo.listForClient(q, filter)), filter.limit, (r) => merchantPayoutView(r.payout, r.attempts));
  }
}
