/**
 * The console's finance pages (contract §9, issue #33 item 5): "Balances" — each provider account's
 * ledger balances in a finance person's words, and collected against settled per day — and
 * "Settlements" — keyset pages of settlements and of one settlement's lines. The balances are the
 * LedgerService's (the journal's, as `tijori ledger balances` prints them), only renamed and signed
 * for reading: no second computation of money. Reads only; scoped to the organization.
 */
import type { ConsolePageQuery } from '../../contract/console.js';
import { notFound, validationError } from '../../domain/errors.js';
import { BUILT_IN_SANDBOX_ACCOUNT } from '../../domain/ledger.js';
import { isUuid } from '../../domain/text.js';
import type { Db } from '../../store/db.js';
import * as repo from '../../store/repos/console-finance-repo.js';
import type { LedgerService } from '../ledger/ledger.js';
import { decodeCursor as decodeKeysetCursor, encodeCursor as encodeKeysetCursor } from '../shared/keyset-cursor.js';
import { checkZone, DEFAULT_ZONE, unknownZoneIsInvalid } from './overview.js';

/** The chart's span: the last 30 calendar days, today included. */
export const BALANCE_DAYS = 30;

/** One provider account's money in the ledger, as a finance person reads it (all paise). */
export interface AccountFigures {
  collected_paise: number;
  refunded_paise: number;
  fees_paise: number;
  taxes_paise: number;
  adjustments_paise: number;
  settled_paise: number;
  /** `collections_receivable`: what the provider still holds for the merchant. */
  unsettled_paise: number;
}

export interface AccountBalances extends AccountFigures {
  provider_account_id: string;
  name: string;
  provider: string;
}

/** Ledger account → figure; `collections` is a credit (negative), read as a positive amount. */
const FIGURE_OF: Record<string, [keyof AccountFigures, 1 | -1]> = {
  collections: ['collected_paise', -1],
  refunds: ['refunded_paise', 1],
  fees: ['fees_paise', 1],
  taxes: ['taxes_paise', 1],
  adjustments: ['adjustments_paise', 1],
  settled: ['settled_paise', 1],
  collections_receivable: ['unsettled_paise', 1],
};

const zeroFigures = (): AccountFigures => ({ collected_paise: 0, refunded_paise: 0, fees_paise: 0, taxes_paise: 0, adjustments_paise: 0, settled_paise: 0, unsettled_paise: 0 });

/** The cursor position of a settlement page: settled_at in UTC with µs. */
const SETTLED_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** The cursor position of a line page: the constant `line` (lines go by id). */
const LINE_POS = /^line$/;

function cursorKey(cursor: string | undefined, position: RegExp): repo.FinanceKey | null {
  if (cursor === undefined) return null;
  const key = decodeKeysetCursor(cursor, position);
  if (key === null) throw validationError([{ field: 'cursor', issue: 'is not a cursor this list gave out' }]);
  return key;
}

const pageLimit = (limit: string | undefined, max: number): number => Math.min(Math.max(Number(limit ?? 25) || 25, 1), max);

export function settlementView(s: repo.SettlementRow) {
  return {
    settlement_id: s.id,
    provider_account_id: s.provider_account_id ?? BUILT_IN_SANDBOX_ACCOUNT,
    provider: s.provider,
    provider_account_name: s.provider_account_name,
    provider_settlement_id: s.provider_settlement_id,
    utr: s.utr,
    currency: s.currency,
    gross_paise: Number(s.gross_paise),
    fees_paise: Number(s.fees_paise),
    tax_paise: Number(s.tax_paise),
    refunds_paise: Number(s.refunds_paise),
    adjustments_paise: Number(s.adjustments_paise),
    net_paise: Number(s.net_paise),
    settled_at: s.settled_at.toISOString(),
    imported_at: s.imported_at.toISOString(),
    lines: s.lines,
    breaks: s.breaks,
    open_breaks: s.open_breaks,
  };
}
export type SettlementView = ReturnType<typeof settlementView>;

export function lineView(l: repo.LineRow) {
  return {
    line_id: l.id,
    type: l.type,
    reported_type: l.reported_type,
    order_id: l.order_id ?? l.refund_order_id,
    refund_id: l.refund_id,
    order_reference: l.order_reference,
    refund_reference: l.refund_reference,
    provider_payment_id: l.provider_payment_id,
    amount_paise: Number(l.amount_paise),
    fee_paise: Number(l.fee_paise),
    tax_paise: Number(l.tax_paise),
    net_paise: Number(l.net_paise),
    match: l.match,
  };
}
export type LineView = ReturnType<typeof lineView>;

export class ConsoleFinance {
  constructor(private readonly deps: { db: Db; ledger: LedgerService }) {}

  /** Every provider account with money in the ledger (and every named one), the totals, and the last 30 days. */
  async balances(orgId: string, zoneIn?: string) {
    const zone = checkZone(zoneIn ?? DEFAULT_ZONE);
    const [journal, names, span] = await Promise.all([
      this.deps.ledger.balances(orgId),
      repo.providerAccountNames(this.deps.db, orgId),
      unknownZoneIsInvalid(() => repo.lastDays(this.deps.db, zone, BALANCE_DAYS)),
    ]);
    const accounts = new Map<string, AccountBalances>();
    const account = (id: string): AccountBalances => {
      let a = accounts.get(id);
      if (!a) {
        const n = names.find((x) => x.id === id);
        a = { provider_account_id: id, name: n?.name ?? 'Built-in sandbox', provider: n?.provider ?? 'sandbox', ...zeroFigures() };
        accounts.set(id, a);
      }
      return a;
    };
    for (const b of journal) {
      const figure = FIGURE_OF[b.account];
      if (figure) account(b.provider_account_id)[figure[0]] += Number(b.balance_paise) * figure[1];
    }
    // A collections account with nothing in the ledger yet is still listed (at zero).
    for (const n of names) if (n.provider !== 'razorpayx') account(n.id);
    const totals = zeroFigures();
    for (const a of accounts.values()) for (const k of Object.keys(totals) as Array<keyof AccountFigures>) totals[k] += a[k];

    // Collected against settled per day: per provider account (the page is per account), and for all of them.
    const found = await unknownZoneIsInvalid(() => repo.ledgerDays(this.deps.db, orgId, zone, span.first));
    const dates = Array.from({ length: BALANCE_DAYS }, (_x, i) => new Date(Date.parse(`${span.first}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
    const series = (rows: repo.LedgerDay[]): repo.LedgerDay[] => {
      const by = new Map<string, repo.LedgerDay>();
      for (const d of rows) {
        const had = by.get(d.date) ?? { date: d.date, collected_paise: 0, settled_paise: 0 };
        by.set(d.date, { date: d.date, collected_paise: had.collected_paise + Number(d.collected_paise), settled_paise: had.settled_paise + Number(d.settled_paise) });
      }
      return dates.map((date) => by.get(date) ?? { date, collected_paise: 0, settled_paise: 0 });
    };
    const daily = series(found);
    const withDays = [...accounts.values()].map((a) => ({ ...a, daily: series(found.filter((d) => d.provider_account_id === a.provider_account_id)) }));
    return { time_zone: zone, today: span.today, accounts: withDays, totals, daily };
  }

  /** A page of settlements, newest settled first. */
  async settlements(orgId: string, q: ConsolePageQuery) {
    const limit = pageLimit(q.limit, 100);
    const after = cursorKey(q.cursor, SETTLED_TS);
    const rows = await repo.settlementsPage(this.deps.db, orgId, after, limit);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { rows: page.map(settlementView), next_cursor: rows.length > limit && last ? encodeKeysetCursor({ position: last.key_ts, id: last.id }) : null };
  }

  /** Every settlement of the organization (the CSV export), newest first, a page at a time. */
  async *exportSettlements(orgId: string): AsyncGenerator<SettlementView> {
    let after: repo.FinanceKey | null = null;
    for (;;) {
      const rows = await repo.settlementsPage(this.deps.db, orgId, after, 1000);
      for (const r of rows.slice(0, 1000)) yield settlementView(r);
      const last = rows[999];
      if (rows.length <= 1000 || !last) return;
      after = { position: last.key_ts, id: last.id };
    }
  }

  async settlement(orgId: string, id: string): Promise<SettlementView> {
    const s = isUuid(id) ? await repo.settlementOf(this.deps.db, orgId, id) : null;
    if (!s) throw notFound('settlement');
    return settlementView(s);
  }

  /** A page of a settlement's lines (404 for another organization's settlement). */
  async lines(orgId: string, settlementId: string, q: ConsolePageQuery) {
    await this.settlement(orgId, settlementId);
    const limit = pageLimit(q.limit, 500);
    const after = cursorKey(q.cursor, LINE_POS);
    const rows = await repo.linesPage(this.deps.db, orgId, settlementId, after?.id ?? null, limit);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { rows: page.map(lineView), next_cursor: rows.length > limit && last ? encodeKeysetCursor({ position: 'line', id: last.id }) : null };
  }

  /** Every line of a settlement (its CSV export), a page at a time; checks the settlement first. */
  async exportLines(orgId: string, settlementId: string): Promise<{ settlement: SettlementView; lines: AsyncGenerator<LineView> }> {
    const settlement = await this.settlement(orgId, settlementId);
    const db = this.deps.db;
    async function* lines(): AsyncGenerator<LineView> {
      let afterId: string | null = null;
      for (;;) {
        const rows = await repo.linesPage(db, orgId, settlementId, afterId, 1000);
        for (const r of rows.slice(0, 1000)) yield lineView(r);
        const last = rows[999];
        if (rows.length <= 1000 || !last) return;
        afterId = last.id;
      }
    }
    return { settlement, lines: lines() };
  }
}
