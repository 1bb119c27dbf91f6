/**
 * The merchant API's settlements (contract §9, "Merchant API"; scope `settlements:read`,
 * organization-wide since a settlement covers the orders of every client): the organization's
 * settlements newest first, one settlement with the fields of `tijori settlements list`, and a
 * settlement's lines, each list in keyset pages with the cursors of contract §7.
 */
import type { SettlementLinesQuery, SettlementListQuery } from '../../contract/settlements.js';
import { AppError, notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/text.js';
import type { Db } from '../../store/db.js';
import * as reads from '../../store/repos/settlement-reads-repo.js';
import type { SettlementListRow } from '../../store/repos/settlements-repo.js';
import { decodeCursor, encodeCursor } from '../shared/keyset-cursor.js';
import { LIST_LIMIT_DEFAULT } from '../shared/list-page.js';

/** A settlement as the CLI list and the merchant API show it (contract §9). */
export function settlementView(s: SettlementListRow) {
  return {
    settlement_id: s.id,
    provider_account_id: s.provider_account_id,
    provider_settlement_id: s.provider_settlement_id,
    utr: s.utr,
    gross_paise: s.gross_paise,
    fees_paise: s.fees_paise,
    tax_paise: s.tax_paise,
    refunds_paise: s.refunds_paise,
    adjustments_paise: s.adjustments_paise,
    net_paise: s.net_paise,
    settled_at: s.settled_at.toISOString(),
    lines: s.lines,
    breaks: s.breaks,
  };
}
export type SettlementView = ReturnType<typeof settlementView>;

function lineView(l: reads.LineRow) {
  return {
    type: l.type,
    order_id: l.order_id,
    refund_id: l.refund_id,
    provider_payment_id: l.provider_payment_id,
    amount_paise: l.amount_paise,
    fee_paise: l.fee_paise,
    tax_paise: l.tax_paise,
    // Stored signed (what the line adds to the settlement); shown positive, `type` giving the direction (contract §9).
    net_paise: l.type === 'PAYMENT' ? l.net_paise : -l.net_paise,
    match: l.match,
  };
}

const badCursor = () => new AppError('VALIDATION_FAILED', 'The cursor is not one this API issued.', { details: [{ field: 'cursor', issue: 'is not a next_cursor of this list' }] });
/** The settlements list's cursor position: settled_at in µs since the epoch. */
const SETTLED_US = /^[0-9]{1,17}$/;
/** The lines list's position: lines are read in id order, the id alone is the key. */
const LINE_POSITION = /^line$/;

function dateOf(field: 'created_from' | 'created_to', text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) throw new AppError('VALIDATION_FAILED', 'A date filter is not a valid ISO 8601 time.', { details: [{ field, issue: 'has an invalid format' }] });
  return d;
}

const limitOf = (text: string | undefined) => (text === undefined ? LIST_LIMIT_DEFAULT : Number(text));

export class MerchantSettlementsService {
  constructor(private readonly deps: { db: Db }) {}

  /**
   * GET /merchant/settlements: newest first by the time the provider settled (`settled_at`);
   * `created_from`/`created_to` (inclusive) bound that time. A settlement imported meanwhile
   * never shifts a page: the cursor is the last row's (settled_at, id).
   */
  async list(orgId: string, query: SettlementListQuery): Promise<{ data: SettlementView[]; next_cursor: string | null }> {
    const key = query.cursor === undefined ? undefined : decodeCursor(query.cursor, SETTLED_US);
    if (key === null) throw badCursor();
    const settledFrom = dateOf('created_from', query.created_from);
    const settledTo = dateOf('created_to', query.created_to);
    if (settledFrom && settledTo && settledFrom > settledTo) {
      throw new AppError('VALIDATION_FAILED', 'created_from is after created_to.', { details: [{ field: 'created_from', issue: 'must not be after created_to' }] });
    }
    const limit = limitOf(query.limit);
    const rows = await reads.settlementsPage(this.deps.db, { orgId, settledFrom, settledTo, after: key ? { us: key.position, id: key.id } : undefined, limit });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(settlementView), next_cursor: rows.length > limit && last ? encodeCursor({ position: last.key_us, id: last.id }) : null };
  }

  /** GET /merchant/settlements/{settlement}: 404 for an id of another organization (or none). */
  async get(orgId: string, id: string): Promise<SettlementView> {
    const s = isUuid(id) ? await reads.settlementOfOrg(this.deps.db, orgId, id.toLowerCase()) : null;
    if (!s) throw notFound('settlement');
    return settlementView(s);
  }

  /** GET /merchant/settlements/{settlement}/lines: the lines in a stable order (a settlement's lines never change). */
  async lines(orgId: string, id: string, query: SettlementLinesQuery): Promise<{ data: Array<ReturnType<typeof lineView>>; next_cursor: string | null }> {
    const key = query.cursor === undefined ? undefined : decodeCursor(query.cursor, LINE_POSITION);
    if (key === null) throw badCursor();
    const s = isUuid(id) ? await reads.settlementOfOrg(this.deps.db, orgId, id.toLowerCase()) : null;
    if (!s) throw notFound('settlement');
    const limit = limitOf(query.limit);
    const rows = await reads.linesPage(this.deps.db, { settlementId: s.id, afterId: key?.id, limit });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(lineView), next_cursor: rows.length > limit && last ? encodeCursor({ position: 'line', id: last.id }) : null };
  }
}
