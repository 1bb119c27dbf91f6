/**
 * Payout creation and retrieval (API §4.3, §4.4). The create persists the payout, its first
 * attempt (PENDING_SUBMIT), the `payout.created` event and the idempotency key in ONE transaction,
 * so the answer (PROCESSING) is fixed before the bank hears anything; the submission follows
 * outside it (payout-submission.ts). A crash in between is resumed by the payout worker.
 */
import { randomBytes } from 'node:crypto';
import { newRowId } from '../store/row-id.js';
import type { AppContext } from '../context.js';
import { AppError, type FieldIssue, validationError } from '../domain/errors.js';
import { checkRailRules, type PayoutMode } from '../domain/payout.js';
import { charLength, isUuid, isStorableText } from '../domain/text.js';
import type { Principal } from './clients.js';
import type { CreateResponse, IdempotencyScope } from './idempotency.js';
import { checkInlineBeneficiary, type InlineBeneficiaryInput, type ResolvedBeneficiary } from './beneficiaries.js';
import { recordEvent } from './events.js';
import { type SubmissionInput, submitAfterCreate } from './payout-submission.js';
import { createdEventData, payoutView } from './payout-view.js';
import * as routesRepo from '../store/repos/routes-repo.js';
import * as repo from '../store/repos/payouts-repo.js';

export interface CreatePayoutBody {
  beneficiary_id?: string;
  beneficiary?: InlineBeneficiaryInput;
  bank_connection_id?: string;
  amount_paise: number;
  mode: PayoutMode;
  client_reference?: string;
  remarks?: string;
}

export const CREATE_MESSAGE = 'Payout submitted to the bank; final status arrives by callback or status retrieval.';

/** Our reference at the bank: unique, alphanumeric, at most 35 characters. */
function newTransactionId(): string {
  return `TJP${randomBytes(10).toString('hex').toUpperCase()}`;
}

function checkText(issues: FieldIssue[], field: string, value: string | undefined, max: number): void {
  if (value !== undefined && (!isStorableText(value) || charLength(value) > max)) issues.push({ field, issue: `must be at most ${max} characters of text` });
}

export class PayoutsService {
  constructor(private readonly ctx: AppContext) {}

  async create(principal: Principal, scope: IdempotencyScope, requestId: string, body: CreatePayoutBody): Promise<CreateResponse> {
    const issues: FieldIssue[] = [];
    const hasId = body.beneficiary_id !== undefined;
    const hasInline = body.beneficiary !== undefined;
    if (hasId === hasInline) issues.push({ field: 'beneficiary', issue: 'exactly one of beneficiary_id and beneficiary is required' });
    const inline = body.beneficiary ? checkInlineBeneficiary(body.beneficiary, issues) : null;
    checkText(issues, 'client_reference', body.client_reference, 100);
    checkText(issues, 'remarks', body.remarks, 255);
    issues.push(...checkRailRules(body.mode, body.amount_paise));
    if (issues.length > 0) throw validationError(issues);

    const prepared = inline ? this.ctx.beneficiaries.prepare(principal.orgId, inline) : null;
    const createdAt = new Date();
    let submission: SubmissionInput | undefined;
    const res = await this.ctx.idempotency.runAtomic(scope, async (tx, payoutId) => {
      const route = await routesRepo.findUsableRoute(tx, principal.orgId, body.bank_connection_id ?? null);
      if (!route) {
        throw new AppError('ROUTE_INVALID', body.bank_connection_id ? 'bank_connection_id does not name an active payout route of this organization.' : 'This organization has no default payout route.');
      }
      if (!route.modes.includes(body.mode)) throw new AppError('MODE_NOT_ENABLED', `Mode ${body.mode} is not enabled on this payout route (enabled: ${route.modes.join(', ')}).`);
      const ben: ResolvedBeneficiary = prepared && inline
        ? await this.ctx.beneficiaries.saveInline(tx, prepared, inline)
        : await this.ctx.beneficiaries.findUsable(tx, principal.orgId, body.beneficiary_id as string);
      const attemptId = newRowId();
      const row: repo.PayoutRow = {
        id: payoutId, transaction_id: newTransactionId(), org_id: principal.orgId, client_pk: principal.pk,
        beneficiary_id: ben.id, beneficiary_name: ben.name, beneficiary_last4: ben.last4, beneficiary_ifsc: ben.ifsc,
        beneficiary_bank_name: ben.bankName, amount_paise: body.amount_paise, currency: 'INR', mode: body.mode,
        client_reference: body.client_reference ?? null, remarks: body.remarks ?? null, status: 'PROCESSING',
        failure_reason: null, bank_reference: null, utr: null, processed_at: null, created_at: createdAt,
      };
      await repo.insertPayoutWithAttempt(tx, {
        id: row.id, attemptId, transactionId: row.transaction_id, orgId: row.org_id, clientPk: row.client_pk, routeId: route.id,
        beneficiary: { id: ben.id, name: ben.name, last4: ben.last4, ifsc: ben.ifsc, bankName: ben.bankName },
        amountPaise: row.amount_paise, mode: row.mode, clientReference: row.client_reference, remarks: row.remarks,
        createdAt, leaseMs: this.ctx.config.payout.leaseMs,
      });
      await recordEvent(tx, { orgId: row.org_id, kind: 'payout.created', aggregateType: 'payout', aggregateId: row.id, data: createdEventData(row, createdAt) }, createdAt);
      submission = {
        attemptId, transactionId: row.transaction_id, amountPaise: row.amount_paise, mode: row.mode,
        beneficiary: { name: ben.name, accountNumber: ben.accountNumber, ifsc: ben.ifsc }, remarks: row.remarks,
      };
      const data = payoutView(row, [{ status: 'PENDING_SUBMIT', bank_reference: null, utr: null }]);
      return {
        status: 201,
        body: { success: true, data, approval_required: false, message: CREATE_MESSAGE, request_id: requestId },
        resourceType: 'payout',
        resourceId: row.id,
      };
    });
    if (!res.replayed && submission) await submitAfterCreate(this.ctx, submission);
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
    return payoutView(found.payout, found.attempts);
  }
}
