/**
 * The sandbox PSP's settlement API (contract §9), over HTTP like its other PSP routes:
 *   POST /psp/settlements            {merchant?}: settles now every paid collection and completed
 *                                    refund not yet settled (of that merchant, or of all), one
 *                                    settlement per merchant; 201 {settlements: [{...settlement, lines: count}]}
 *   GET  /psp/settlements            ?merchant=&from=ISO&cursor=&limit= (1-100, default 50): the
 *                                    settlements in the order they were made, each with its lines;
 *                                    {data: [...], next_cursor} (null on the last page)
 *                                    (at most LINES_IN_LIST of each; `lines_next_cursor` says where
 *                                    the rest start, null when they are all there)
 *   GET  /psp/settlements/:id        one settlement with its lines; 404 {status: "NOT_FOUND"}
 *   GET  /psp/settlements/:id/lines  ?cursor=LINE_ID&limit= (1-10,000, default 5,000): the lines
 *                                    after the cursor; {currency, data: [...], next_cursor} (null: the last)
 * The rules (2 % fee, 18 % GST, refunds deducted, the `91`-paise short settlement) are in
 * settlement-rules.ts.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { SandboxDeps } from './deps.js';
import * as repo from './repos/settlement-repo.js';
import type { SandboxSettlementLineRow, SandboxSettlementRow } from './repos/settlement-repo.js';
import { ListSettlementsQuery, SettleBody, SettlementLinesQuery, SettlementParams } from './psp-schemas.js';

/** Lines of a settlement in the list; a longer settlement's rest comes from its lines route, a page at a time. */
const LINES_IN_LIST = 1_000;

function lineJson(l: SandboxSettlementLineRow) {
  return {
    line_id: l.id,
    type: l.type,
    reference: l.collection_reference,
    refund_reference: l.refund_reference,
    provider_reference: l.provider_reference,
    amount_paise: l.amount_paise,
    fee_paise: l.fee_paise,
    tax_paise: l.tax_paise,
  };
}

export function settlementJson(s: SandboxSettlementRow, lines: SandboxSettlementLineRow[], linesNextCursor: string | null = null) {
  return {
    settlement_id: s.id,
    merchant: s.merchant,
    utr: s.utr,
    currency: s.currency,
    gross_paise: s.gross_paise,
    fees_paise: s.fees_paise,
    tax_paise: s.tax_paise,
    refunds_paise: s.refunds_paise,
    adjustments_paise: s.adjustments_paise,
    net_paise: s.net_paise,
    settled_at: s.settled_at.toISOString(),
    lines: lines.map(lineJson),
    lines_next_cursor: linesNextCursor,
  };
}

export function registerSettlementRoutes(server: FastifyInstance, deps: SandboxDeps): void {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();

  app.post('/psp/settlements', { schema: { body: SettleBody } }, async (request, reply) => {
    const made = await repo.settle(deps.db, request.body?.merchant ?? null);
    return reply.code(201).send({
      settlements: made.map(({ settlement: s, lines }) => ({ settlement_id: s.id, merchant: s.merchant, utr: s.utr, lines, net_paise: s.net_paise, settled_at: s.settled_at.toISOString() })),
    });
  });

  app.get('/psp/settlements', { schema: { querystring: ListSettlementsQuery } }, async (request, reply) => {
    const q = request.query;
    const from = q.from === undefined ? null : new Date(q.from);
    if (from !== null && Number.isNaN(from.getTime())) return reply.code(422).send({ error: 'invalid_request', message: 'from is not a timestamp' });
    const limit = q.limit ?? 50;
    const rows = await repo.listSettlements(deps.db, { merchant: q.merchant ?? null, afterSeq: q.cursor ?? null, from, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const lines = await repo.linesOf(deps.db, page.map((s) => s.id), LINES_IN_LIST + 1);
    const bySettlement = new Map<string, SandboxSettlementLineRow[]>();
    for (const l of lines) {
      const of = bySettlement.get(l.settlement_id);
      if (of) of.push(l);
      else bySettlement.set(l.settlement_id, [l]);
    }
    return {
      data: page.map((s) => {
        const all = bySettlement.get(s.id) ?? [];
        const shown = all.slice(0, LINES_IN_LIST);
        return settlementJson(s, shown, all.length > LINES_IN_LIST ? (shown.at(-1) as SandboxSettlementLineRow).id : null);
      }),
      next_cursor: rows.length > limit ? page.at(-1)!.seq : null,
    };
  });

  app.get('/psp/settlements/:id', { schema: { params: SettlementParams } }, async (request, reply) => {
    const s = await repo.findSettlement(deps.db, request.params.id);
    if (!s) return reply.code(404).send({ settlement_id: request.params.id, status: 'NOT_FOUND' });
    return settlementJson(s, await repo.linesOf(deps.db, [s.id]));
  });

  app.get('/psp/settlements/:id/lines', { schema: { params: SettlementParams, querystring: SettlementLinesQuery } }, async (request, reply) => {
    const s = await repo.findSettlement(deps.db, request.params.id);
    if (!s) return reply.code(404).send({ settlement_id: request.params.id, status: 'NOT_FOUND' });
    const limit = request.query.limit ?? 5_000;
    const rows = await repo.linePage(deps.db, s.id, request.query.cursor ?? null, limit + 1);
    const page = rows.slice(0, limit);
    return { currency: s.currency, data: page.map(lineJson), next_cursor: rows.length > limit ? (page.at(-1) as SandboxSettlementLineRow).id : null };
  });
}
