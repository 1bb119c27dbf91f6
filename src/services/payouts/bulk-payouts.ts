/**
 * Bulk payout files (contract §6, docs/payouts.md "Bulk payouts"): upload (every row checked
 * first, nothing stored unless all pass; the same file twice refused by its SHA-256), a preview
 * (count, total, totals per mode), one decision for the whole file by a checker other than its
 * uploader, then submission row by row by the bulk worker (submitApprovedFiles) with the rules of
 * every payout: each row's payout is unique by (file, line), written with its first attempt and
 * `payout.created` in one transaction, then submitted by payout-submission.ts. A crash between
 * commit and submit is resumed by the payout worker (inquiry first); before commit, the row is
 * simply done again. No row is ever paid twice.
 */
import { assertTwoPeople } from '../shared/dual-control.js';
import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import { AppError, notFound, validationError } from '../../domain/errors.js';
import { DECISION_NOTE_MAX } from '../../domain/payout.js';
import { charLength, isStorableText, isUuid } from '../../domain/text.js';
import type { Logger } from '../../observability/logger.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { Vault } from '../../security/vault.js';
import type { Db } from '../../store/db.js';
import { newRowId } from '../../store/row-id.js';
import * as repo from '../../store/repos/bulk-payouts-repo.js';
import * as bankConnectionsRepo from '../../store/repos/bank-connections-repo.js';
import { lookupIfsc } from '../../domain/ifsc.js';
import { recordAudit } from '../console/audit.js';
import { type BulkRowIssue, readBulkCsv } from './bulk-csv.js';
import type { BeneficiariesService } from './beneficiaries.js';
import type { ConsolePerson, PayoutApprovalsService } from './payout-approvals.js';
import { newTransactionId } from './payout-input.js';
import type { PayoutSubmitter } from './payout-submission.js';
import { createPayout, type PayoutDraft } from './payout-writer.js';

export const rowContext = (fileId: string, line: number) => `bulk_row:${fileId}:${line}`;
/** Issues listed in one answer; the message gives the full count. */
const MAX_LISTED_ISSUES = 1000;

export function bulkFileView(f: repo.BulkFileRow) {
  return {
    id: f.id,
    file_name: f.file_name,
    status: f.status,
    row_count: f.row_count,
    total_paise: Number(f.total_paise),
    totals_by_mode: f.totals_by_mode,
    uploaded_by: f.uploaded_by,
    uploader: f.uploader_email,
    decided_by: f.decided_by,
    decider: f.decider_email,
    decided_at: f.decided_at ? new Date(f.decided_at).toISOString() : null,
    decision_note: f.decision_note,
    created_at: new Date(f.created_at).toISOString(),
    completed_at: f.completed_at ? new Date(f.completed_at).toISOString() : null,
    progress: { created: f.created_rows, not_created: f.error_rows, succeeded: f.success_rows, failed: f.failed_rows },
  };
}

/** What BulkPayoutsService uses; built by the composition root (context.ts). */
export interface BulkPayoutsDeps {
  db: Db;
  vault: Vault;
  log: Logger;
  config: Pick<Config, 'payout' | 'testCrashPoint'>;
  /** The organization's console principal, the maker of its console and bulk payouts. */
  payoutApprovals: Pick<PayoutApprovalsService, 'principal'>;
  providers: Pick<ProviderRegistry, 'forAccount'>;
  beneficiaries: Pick<BeneficiariesService, 'saveInline'>;
  submission: Pick<PayoutSubmitter, 'submitAfterCreate'>;
}

/**
 * The digest that identifies a bulk file's payroll: SHA-256 of its checked rows (each row's fields
 * as parsed and normalised, line numbers left out), sorted, so only what the rows pay counts.
 * Stored in bulk_payout_files.sha256, whose unique (org_id, sha256) refuses the second upload.
 */
export function payrollDigest(rows: readonly { name: string; accountNumber: string; ifsc: string; mobile: string; amountPaise: number; mode: string; remarks: string | null; clientReference: string | null }[]): Buffer {
  const canonical = rows.map((r) => JSON.stringify([r.name, r.accountNumber, r.ifsc, r.mobile, r.amountPaise, r.mode, r.remarks, r.clientReference])).sort();
  return createHash('sha256').update(`tijori-bulk-rows-v1\n${canonical.join('\n')}`).digest();
}

export class BulkPayoutsService {
  constructor(private readonly ctx: BulkPayoutsDeps) {}

  async upload(person: ConsolePerson, fileName: string, content: Buffer) {
    const name = fileName.trim();
    if (name === '' || !isStorableText(name) || charLength(name) > 255) throw validationError([{ field: 'file_name', issue: 'must be 1 to 255 characters of text' }]);
    const { rows, issues } = await readBulkCsv(content);
    // "The same file twice is refused" compares what it pays, not its bytes (issue #29 item 5): a
    // trailing newline, a space in the header, a BOM or another row order is the same payroll.
    const sha256 = payrollDigest(rows);
    if (issues.length === 0) {
      const earlier = await repo.fileNameOfDigest(this.ctx.db, person.orgId, sha256);
      if (earlier !== null) throw new AppError('DUPLICATE_FILE', `These payouts were uploaded before (as ${earlier}); the same rows are not accepted twice.`);
    }
    // The organization's default bank connection must carry every row's mode, as for a single payout.
    const bankConnection = await bankConnectionsRepo.findUsableBankConnection(this.ctx.db, { orgId: person.orgId, bankConnectionId: null });
    for (const r of rows) {
      if (!bankConnection) issues.push({ line: r.line, field: 'mode', issue: 'this organization has no default payout route' });
      else if (!bankConnection.modes.includes(r.mode)) issues.push({ line: r.line, field: 'mode', issue: `${r.mode} is not enabled on the default payout route (enabled: ${bankConnection.modes.join(', ')})` });
    }
    if (issues.length > 0) throw bulkIssues(issues);

    const id = newRowId();
    const totals: Record<string, { count: number; total_paise: number }> = {};
    let total = 0;
    for (const r of rows) {
      total += r.amountPaise;
      const t = (totals[r.mode] ??= { count: 0, total_paise: 0 });
      t.count++;
      t.total_paise += r.amountPaise;
    }
    const newRows: repo.NewBulkRow[] = rows.map((r) => ({
      line: r.line, name: r.name, accountNumberEnc: this.ctx.vault.encrypt(r.accountNumber, rowContext(id, r.line)), last4: r.accountNumber.slice(-4),
      ifsc: r.ifsc, bankName: lookupIfsc(r.ifsc)!.bankName, mobile: r.mobile, amountPaise: r.amountPaise, mode: r.mode, remarks: r.remarks, clientReference: r.clientReference,
    }));
    await this.ctx.db.tx(async (tx) => {
      const stored = await repo.insertFile(tx, { id, orgId: person.orgId, fileName: name, sha256, rowCount: rows.length, totalPaise: total, totalsByMode: totals, uploadedBy: person.userId }, newRows);
      if (!stored) throw new AppError('DUPLICATE_FILE', 'This file was uploaded before; it is not accepted twice.');
      await recordAudit(tx, person.actor, {
        orgId: person.orgId, action: 'bulk_file.uploaded', targetType: 'bulk_payout_file', targetId: id,
        after: { status: 'PENDING_APPROVAL', file_name: name, row_count: rows.length, total_paise: total, sha256: sha256.toString('hex') },
      });
    });
    return this.get(person.orgId, id);
  }

  async get(orgId: string, id: string) {
    const f = isUuid(id) ? await repo.findFile(this.ctx.db, orgId, id) : null;
    if (!f) throw notFound('bulk payout file');
    return bulkFileView(f);
  }

  async list(orgId: string) {
    return (await repo.listFiles(this.ctx.db, orgId, 100)).map(bulkFileView);
  }

  async decide(person: ConsolePerson, id: string, decision: 'approve' | 'reject', note: string | null) {
    const text = note?.trim() ?? null;
    if (decision === 'reject' && (!text || !isStorableText(text) || charLength(text) > DECISION_NOTE_MAX)) {
      throw validationError([{ field: 'note', issue: `must be 1 to ${DECISION_NOTE_MAX} characters of text` }]);
    }
    await this.ctx.db.tx(async (tx) => {
      const f = isUuid(id) ? await repo.lockFile(tx, person.orgId, id) : null;
      if (!f) throw notFound('bulk payout file');
      if (f.uploaded_by === person.userId) throw new AppError('SELF_APPROVAL_DENIED', 'You uploaded this file; another checker must approve or reject it.');
      if (f.status !== 'PENDING_APPROVAL') throw new AppError('INVALID_STATE', `This file was already decided; it is ${f.status}.`);
      if (decision === 'approve') await assertTwoPeople(tx, f.uploaded_by, person.userId, 'file');
      const status = decision === 'approve' ? 'APPROVED' : 'REJECTED';
      await repo.decideFile(tx, { id: f.id, status, decidedBy: person.userId, note: text || null });
      await recordAudit(tx, person.actor, {
        orgId: person.orgId, action: decision === 'approve' ? 'bulk_file.approved' : 'bulk_file.rejected', targetType: 'bulk_payout_file', targetId: f.id,
        before: { status: f.status, row_count: f.row_count, total_paise: Number(f.total_paise) }, after: { status, ...(text ? { note: text } : {}) },
      });
    });
    return this.get(person.orgId, id);
  }

  /**
   * One page of a file's rows for the checker's screen (issue #32 item 5): who is paid (name,
   * account's last four digits, IFSC and bank), how much and how, with the payout's status once it
   * exists; in line order after line `after`; `next_cursor` is the last line when more follow.
   */
  async rowsPage(orgId: string, id: string, after: number, limit: number) {
    await this.get(orgId, id);
    const rows = await repo.resultRows(this.ctx.db, id, after, limit + 1);
    const page = rows.slice(0, limit);
    return {
      rows: page.map((r) => ({
        line: r.line, name: r.name, account_number_last4: r.account_last4, ifsc: r.ifsc, bank_name: r.bank_name, amount_paise: Number(r.amount_paise),
        mode: r.mode, remarks: r.remarks, client_reference: r.client_reference, error: r.error, transaction_id: r.transaction_id, status: r.status,
      })),
      next_cursor: rows.length > limit ? String(page[page.length - 1]!.line) : null,
    };
  }

  /** Every row with its result, in line order, read in pages (memory stays flat for 10,000 rows). */
  async *results(orgId: string, id: string): AsyncGenerator<repo.ResultRow> {
    await this.get(orgId, id);
    for (let after = 0; ; ) {
      const rows = await repo.resultRows(this.ctx.db, id, after, 1000);
      yield* rows;
      if (rows.length < 1000) return;
      after = rows[rows.length - 1]!.line;
    }
  }

  /**
   * Worker tick: claims one approved file and submits its rows that have no payout yet, a batch
   * at a time (rows of a batch go to the bank concurrently); the file is COMPLETED when none is
   * left. Answers how many rows it handled.
   */
  async submitApprovedFiles(): Promise<number> {
    const leaseMs = Math.max(this.ctx.config.payout.leaseMs * 3, 30_000);
    const file = await repo.claimApprovedFile(this.ctx.db, leaseMs);
    if (!file) return 0;
    const principal = await this.ctx.payoutApprovals.principal(file.org_id);
    const bankConnection = await bankConnectionsRepo.findUsableBankConnection(this.ctx.db, { orgId: file.org_id, bankConnectionId: null });
    let handled = 0;
    for (;;) {
      const rows = await repo.nextRows(this.ctx.db, file.id, 16);
      if (rows.length === 0) break;
      await Promise.all(rows.map((r) => this.submitRow(file, principal.pk, bankConnection ?? null, r)));
      handled += rows.length;
      await repo.extendLease(this.ctx.db, file.id, leaseMs);
    }
    await repo.completeFile(this.ctx.db, file.id);
    return handled;
  }

  private committedRows = 0;

  private async submitRow(file: { id: string; org_id: string; uploaded_by: string; decided_by: string }, clientPk: string, bankConnection: bankConnectionsRepo.BankConnectionRow | null, r: repo.PendingBulkRow): Promise<void> {
    if (!bankConnection || !bankConnection.modes.includes(r.mode)) {
      await repo.markRowError(this.ctx.db, file.id, r.line, bankConnection ? `MODE_NOT_ENABLED: ${r.mode} is no longer enabled on the default payout route` : 'ROUTE_INVALID: the organization has no default payout route');
      return;
    }
    const accountNumber = this.ctx.vault.decrypt(r.account_number_enc, rowContext(file.id, r.line));
    const inline = { name: r.name, accountNumber, ifsc: r.ifsc, bankName: r.bank_name, mobile: r.mobile };
    const ben = await this.ctx.beneficiaries.saveInline(file.org_id, clientPk, inline);
    // Live or test is the bank connection's provider account's (as for an API payout), not the built-in sandbox's.
    const bankConnectionProvider = await this.ctx.providers.forAccount(bankConnection.provider_account_id);
    const draft: PayoutDraft = {
      id: newRowId(), transactionId: newTransactionId(), orgId: file.org_id, clientPk, bankConnectionId: bankConnection.id,
      beneficiary: { id: ben.id, name: ben.name, last4: ben.last4, ifsc: ben.ifsc, bankName: ben.bankName },
      amountPaise: Number(r.amount_paise), mode: r.mode, clientReference: r.client_reference, remarks: r.remarks, livemode: bankConnectionProvider.livemode,
      createdAt: new Date(), leaseMs: this.ctx.config.payout.leaseMs,
    };
    // The row's payout, its first attempt, history, `payout.created` and the row's link, through the one writer.
    const { attemptId } = await this.ctx.db.tx((tx) =>
      createPayout(tx, draft, { kind: 'bulk', makerUserId: file.uploaded_by, checkerUserId: file.decided_by, fileId: file.id, line: r.line }),
    );
    if (!attemptId) return;
    if (this.ctx.config.testCrashPoint === 'bulk_mid' && ++this.committedRows === 3) {
      this.ctx.log.warn({ file: file.id, line: r.line }, 'TIJORI_TEST_CRASH_POINT bulk_mid reached: killing the process');
      process.kill(process.pid, 'SIGKILL');
    }
    await this.ctx.submission.submitAfterCreate({
      attemptId, transactionId: draft.transactionId, amountPaise: draft.amountPaise, mode: draft.mode, remarks: draft.remarks, bankConnectionId: draft.bankConnectionId,
      beneficiary: { name: ben.name, accountNumber, ifsc: ben.ifsc },
    });
  }
}

function bulkIssues(issues: BulkRowIssue[]): AppError {
  const sorted = [...issues].sort((a, b) => a.line - b.line);
  const listed = sorted.slice(0, MAX_LISTED_ISSUES).map((i) => ({ field: `line ${i.line}: ${i.field}`, issue: i.issue }));
  const lines = new Set(issues.map((i) => i.line)).size;
  return validationError(listed, `Nothing was created: ${issues.length} problem${issues.length === 1 ? '' : 's'} on ${lines} line${lines === 1 ? '' : 's'}${issues.length > MAX_LISTED_ISSUES ? ` (the first ${MAX_LISTED_ISSUES} are listed)` : ''}. Fix the file and upload it again.`);
}
