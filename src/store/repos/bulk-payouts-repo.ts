/** SQL of bulk payout files and their rows (migration 0024). */
import type { Queryable } from '../db.js';
import type { PayoutMode } from '../../domain/payout.js';

export interface BulkFileRow {
  id: string;
  org_id: string;
  file_name: string;
  status: 'PENDING_APPROVAL' | 'APPROVED' | 'REJECTED' | 'COMPLETED';
  row_count: number;
  total_paise: string;
  totals_by_mode: Record<string, { count: number; total_paise: number }>;
  uploaded_by: string;
  uploader_email: string | null;
  decided_by: string | null;
  decider_email: string | null;
  decided_at: Date | null;
  decision_note: string | null;
  created_at: Date;
  completed_at: Date | null;
  created_rows: number;
  error_rows: number;
  success_rows: number;
  failed_rows: number;
}

export interface NewBulkRow {
  line: number;
  name: string;
  accountNumberEnc: Buffer;
  last4: string;
  ifsc: string;
  bankName: string;
  mobile: string;
  amountPaise: number;
  mode: PayoutMode;
  remarks: string | null;
  clientReference: string | null;
}

/** The file and all its rows, in one transaction of the caller; false when the organization already has this file (same SHA-256). */
export async function insertFile(
  q: Queryable,
  f: { id: string; orgId: string; fileName: string; sha256: Buffer; rowCount: number; totalPaise: number; totalsByMode: unknown; uploadedBy: string },
  rows: NewBulkRow[],
): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO bulk_payout_files (id, org_id, file_name, sha256, status, row_count, total_paise, totals_by_mode, uploaded_by)
     VALUES ($1, $2, $3, $4, 'PENDING_APPROVAL', $5, $6, $7, $8) ON CONFLICT (org_id, sha256) DO NOTHING`,
    [f.id, f.orgId, f.fileName, f.sha256, f.rowCount, f.totalPaise, JSON.stringify(f.totalsByMode), f.uploadedBy],
  );
  if ((r.rowCount ?? 0) === 0) return false;
  // 10,000 rows in chunks: one statement each, well under the parameter and JSON size limits.
  for (let i = 0; i < rows.length; i += 2000) {
    const chunk = rows.slice(i, i + 2000).map((x) => ({
      line: x.line, name: x.name, enc: x.accountNumberEnc.toString('base64'), last4: x.last4, ifsc: x.ifsc, bank_name: x.bankName,
      mobile: x.mobile, amount_paise: x.amountPaise, mode: x.mode, remarks: x.remarks, client_reference: x.clientReference,
    }));
    await q.query(
      `INSERT INTO bulk_payout_rows (file_id, line, name, account_number_enc, account_last4, ifsc, bank_name, mobile, amount_paise, mode, remarks, client_reference)
       SELECT $1, line, name, decode(enc, 'base64'), last4, ifsc, bank_name, mobile, amount_paise, mode, remarks, client_reference
         FROM json_to_recordset($2::json) AS v(line int, name text, enc text, last4 text, ifsc text, bank_name text, mobile text,
              amount_paise bigint, mode text, remarks text, client_reference text)`,
      [f.id, JSON.stringify(chunk)],
    );
  }
  return true;
}

const FILE_SELECT = `SELECT f.id, f.org_id, f.file_name, f.status, f.row_count, f.total_paise, f.totals_by_mode, f.uploaded_by, u.email AS uploader_email,
       f.decided_by, d.email AS decider_email, f.decided_at, f.decision_note, f.created_at, f.completed_at,
       (SELECT count(*)::int FROM bulk_payout_rows r WHERE r.file_id = f.id AND r.payout_id IS NOT NULL) AS created_rows,
       (SELECT count(*)::int FROM bulk_payout_rows r WHERE r.file_id = f.id AND r.error IS NOT NULL) AS error_rows,
       (SELECT count(*)::int FROM payouts p WHERE p.bulk_file_id = f.id AND p.status = 'SUCCESS') AS success_rows,
       (SELECT count(*)::int FROM payouts p WHERE p.bulk_file_id = f.id AND p.status = 'FAILED') AS failed_rows
  FROM bulk_payout_files f LEFT JOIN console_users u ON u.id = f.uploaded_by LEFT JOIN console_users d ON d.id = f.decided_by`;

/** The name an earlier upload of the same content (by SHA-256) had in this organization, or null. */
export async function findFileNameBySha256(q: Queryable, orgId: string, sha256: Buffer): Promise<string | null> {
  const r = await q.query<{ file_name: string }>('SELECT file_name FROM bulk_payout_files WHERE org_id = $1 AND sha256 = $2', [orgId, sha256]);
  return r.rows[0]?.file_name ?? null;
}

export async function findFile(q: Queryable, orgId: string, id: string): Promise<BulkFileRow | null> {
  const r = await q.query<BulkFileRow>(`${FILE_SELECT} WHERE f.id = $1 AND f.org_id = $2`, [id, orgId]);
  return r.rows[0] ?? null;
}

export async function listFiles(q: Queryable, orgId: string, limit: number): Promise<BulkFileRow[]> {
  const r = await q.query<BulkFileRow>(`${FILE_SELECT} WHERE f.org_id = $1 ORDER BY f.created_at DESC, f.id DESC LIMIT $2`, [orgId, limit]);
  return r.rows;
}

export async function lockFile(q: Queryable, orgId: string, id: string): Promise<{ id: string; status: BulkFileRow['status']; uploaded_by: string; row_count: number; total_paise: string } | null> {
  const r = await q.query<{ id: string; status: BulkFileRow['status']; uploaded_by: string; row_count: number; total_paise: string }>(
    'SELECT id, status, uploaded_by, row_count, total_paise FROM bulk_payout_files WHERE id = $1 AND org_id = $2 FOR UPDATE',
    [id, orgId],
  );
  return r.rows[0] ?? null;
}

export async function decideFile(q: Queryable, d: { id: string; status: 'APPROVED' | 'REJECTED'; decidedBy: string; note: string | null }): Promise<void> {
  await q.query(
    `UPDATE bulk_payout_files SET status = $2, decided_by = $3, decided_at = now(), decision_note = $4 WHERE id = $1 AND status = 'PENDING_APPROVAL'`,
    [d.id, d.status, d.decidedBy, d.note],
  );
}

/** Claims one approved file for `leaseMs` (FOR UPDATE SKIP LOCKED: instances share the work). */
export async function claimApprovedFile(q: Queryable, leaseMs: number): Promise<{ id: string; org_id: string; uploaded_by: string; decided_by: string } | null> {
  const r = await q.query<{ id: string; org_id: string; uploaded_by: string; decided_by: string }>(
    `UPDATE bulk_payout_files f SET locked_until = now() + make_interval(secs => $1::double precision / 1000)
      WHERE f.id = (SELECT id FROM bulk_payout_files WHERE status = 'APPROVED' AND (locked_until IS NULL OR locked_until <= now())
                     ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING f.id, f.org_id, f.uploaded_by, f.decided_by`,
    [leaseMs],
  );
  return r.rows[0] ?? null;
}

export async function extendLease(q: Queryable, id: string, leaseMs: number): Promise<void> {
  await q.query(`UPDATE bulk_payout_files SET locked_until = now() + make_interval(secs => $2::double precision / 1000) WHERE id = $1`, [id, leaseMs]);
}

export interface PendingBulkRow {
  file_id: string;
  line: number;
  name: string;
  account_number_enc: Buffer;
  account_last4: string;
  ifsc: string;
  bank_name: string;
  mobile: string;
  amount_paise: string;
  mode: PayoutMode;
  remarks: string | null;
  client_reference: string | null;
}

/** The next rows of a file without a payout (and without an error), in line order. */
export async function nextRows(q: Queryable, fileId: string, limit: number): Promise<PendingBulkRow[]> {
  const r = await q.query<PendingBulkRow>(
    `SELECT file_id, line, name, account_number_enc, account_last4, ifsc, bank_name, mobile, amount_paise, mode, remarks, client_reference
       FROM bulk_payout_rows WHERE file_id = $1 AND payout_id IS NULL AND error IS NULL ORDER BY line LIMIT $2`,
    [fileId, limit],
  );
  return r.rows;
}

export async function markRowError(q: Queryable, fileId: string, line: number, error: string): Promise<void> {
  await q.query('UPDATE bulk_payout_rows SET error = $3 WHERE file_id = $1 AND line = $2 AND payout_id IS NULL', [fileId, line, error]);
}

export async function completeFile(q: Queryable, id: string): Promise<void> {
  await q.query(`UPDATE bulk_payout_files SET status = 'COMPLETED', completed_at = now(), locked_until = NULL WHERE id = $1 AND status = 'APPROVED'`, [id]);
}

export interface ResultRow {
  line: number;
  name: string;
  account_last4: string;
  ifsc: string;
  bank_name: string;
  amount_paise: string;
  mode: string;
  client_reference: string | null;
  remarks: string | null;
  error: string | null;
  payout_id: string | null;
  transaction_id: string | null;
  status: string | null;
  utr: string | null;
  failure_reason: string | null;
}

/** Every row of a file with its payout's outcome, in line order, `afterLine` onwards (keyset pages). */
export async function resultRows(q: Queryable, fileId: string, afterLine: number, limit: number): Promise<ResultRow[]> {
  const r = await q.query<ResultRow>(
    `SELECT r.line, r.name, r.account_last4, r.ifsc, r.bank_name, r.amount_paise, r.mode, r.client_reference, r.remarks, r.error,
            p.id AS payout_id, p.transaction_id, p.status, p.utr, p.failure_reason
       FROM bulk_payout_rows r LEFT JOIN payouts p ON p.id = r.payout_id
      WHERE r.file_id = $1 AND r.line > $2 ORDER BY r.line LIMIT $3`,
    [fileId, afterLine, limit],
  );
  return r.rows;
}

/** The name of the organization's earlier file with this payroll digest, or null (the same payroll is not accepted twice). */
export async function fileNameOfDigest(q: Queryable, orgId: string, sha256: Buffer): Promise<string | null> {
  const r = await q.query<{ file_name: string }>('SELECT file_name FROM bulk_payout_files WHERE org_id = $1 AND sha256 = $2', [orgId, sha256]);
  return r.rows[0]?.file_name ?? null;
}
