/**
 * The ledger's SQL (migration 0100_ledger.sql, docs/accounting.md). Entries are only ever inserted;
 * the database refuses updates and deletes and checks every entry's balance at commit.
 */
import { BUILT_IN_SANDBOX_ACCOUNT, type LedgerEntryKind, type LedgerSourceType } from '../../domain/ledger.js';
import { coalesced } from '../shared-transactions.js';
import { prepared, type Queryable } from '../db.js';

/** One entry to write. Payouts name the payout whose route's provider account keeps the entry (a payout row knows its route, not its account). */
export interface NewLedgerEntry {
  id: string;
  orgId: string;
  /** The provider account; null: the built-in sandbox, unless `payoutId` names a payout to take it from. */
  providerAccountId: string | null;
  /** A payout (written before, in this transaction or earlier) whose route's provider account keeps the entry. */
  payoutId?: string | null;
  kind: LedgerEntryKind;
  sourceType: LedgerSourceType;
  sourceId: string;
  postings: Array<{ account: string; amountPaise: number }>;
}

// One statement for the entries of a tick (coalesced): each entry once (ON CONFLICT on its kind and
// source: a retried unit of work posts nothing twice), then the postings of the entries written.
const INSERT_ENTRIES = prepared(`WITH v AS MATERIALIZED (
    SELECT * FROM json_to_recordset($1::json)
      AS v(id uuid, org_id uuid, provider_account_id uuid, payout_id uuid, kind text, source_type text, source_id uuid, postings json)),
  e AS (INSERT INTO ledger_entries (id, org_id, provider_account_id, kind, source_type, source_id)
        SELECT v.id, v.org_id,
               coalesce(v.provider_account_id,
                        (SELECT bc.provider_account_id FROM payouts po JOIN bank_connections bc ON bc.id = po.bank_connection_id WHERE po.id = v.payout_id),
                        '${BUILT_IN_SANDBOX_ACCOUNT}'::uuid),
               v.kind, v.source_type, v.source_id
          FROM v
        ON CONFLICT ON CONSTRAINT ledger_entries_once DO NOTHING
        RETURNING id),
  p AS (INSERT INTO ledger_postings (entry_id, account, amount_paise)
        SELECT e.id, x.account, x.amount_paise
          FROM e JOIN v ON v.id = e.id, json_to_recordset(v.postings) AS x(account text, amount_paise bigint)
        RETURNING entry_id)
  SELECT e.id FROM e`);

/** Writes entries (one statement for the entries of a shared transaction); whether each was written (false: it was posted before). */
export const insertEntry = coalesced<NewLedgerEntry, boolean>(async (q, entries) => {
  const records = entries.map((e) => ({
    id: e.id, org_id: e.orgId, provider_account_id: e.providerAccountId, payout_id: e.payoutId ?? null,
    kind: e.kind, source_type: e.sourceType, source_id: e.sourceId,
    postings: e.postings.map((p) => ({ account: p.account, amount_paise: p.amountPaise })),
  }));
  const r = await q.query<{ id: string }>(INSERT_ENTRIES, [JSON.stringify(records)]);
  const written = new Set(r.rows.map((row) => row.id));
  return entries.map((e) => written.has(e.id));
});

export interface BalanceRow {
  provider_account_id: string;
  account: string;
  balance_paise: number;
}

/** Every account's balance of an organization from the journal, per provider account. */
export async function journalBalances(q: Queryable, orgId: string): Promise<BalanceRow[]> {
  const r = await q.query<BalanceRow>(
    `SELECT e.provider_account_id::text, p.account, sum(p.amount_paise)::bigint AS balance_paise
       FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id
      WHERE e.org_id = $1
      GROUP BY e.provider_account_id, p.account
      ORDER BY e.provider_account_id, p.account`,
    [orgId],
  );
  return r.rows;
}

/** How many entries an organization has, and (at most `limit` of) those whose postings do not sum to zero or are fewer than two. */
export async function entryCheck(q: Queryable, orgId: string, limit = 100): Promise<{ entries: number; unbalanced: Array<{ entry_id: string; postings: number; sum_paise: number }> }> {
  const count = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_entries WHERE org_id = $1`, [orgId]);
  const r = await q.query<{ entry_id: string; postings: number; sum_paise: number }>(
    `SELECT e.id::text AS entry_id, count(p.entry_id)::int AS postings, coalesce(sum(p.amount_paise), 0)::bigint AS sum_paise
       FROM ledger_entries e LEFT JOIN ledger_postings p ON p.entry_id = e.id
      WHERE e.org_id = $1
      GROUP BY e.id
     HAVING count(p.entry_id) < 2 OR coalesce(sum(p.amount_paise), 0) <> 0
      ORDER BY e.id LIMIT $2`,
    [orgId, limit],
  );
  return { entries: count.rows[0]?.n ?? 0, unbalanced: r.rows };
}
