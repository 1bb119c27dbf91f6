/**
 * The console API of the finance pages (contract §9, docs/console.md "Balances", "Settlements"):
 * the ledger's balances per provider account with collected against settled per day, the
 * settlements (keyset pages, CSV), one settlement and its lines (keyset pages, CSV). Every role
 * reads them (contract §5: every user may read the organization's money); another organization's
 * settlement is 404. The breaks and their resolution are recon-api.ts.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../../context.js';
import type { LineView, SettlementView } from '../../../services/console/finance.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { csvStream, rupeesOf } from './csv.js';
import { PageQuery } from '../../../contract/console.js';
import { consoleCsvOperation, consoleOperation as op, strict } from './schemas/common.js';
import { sessionOf } from './session.js';
import * as A from './schemas/answers.js';

export const FINANCE_OPS = {
  balances: op({
    data: A.Balances, operationId: 'consoleLedgerBalances',
    summary: "The ledger's balances per provider account, and collected against settled per day",
    access: 'read',
    description:
      '`data`: `{time_zone, today, accounts: [{provider_account_id, name, provider, collected_paise, refunded_paise, fees_paise, taxes_paise, adjustments_paise, settled_paise, unsettled_paise, daily}], totals, daily: [{date, collected_paise, settled_paise}]}` — ' +
      'the journal\'s balances (`tijori ledger balances`); `unsettled_paise` is `collections_receivable`; `daily`: the last 30 days of `tz` (default Asia/Kolkata), ' +
      'each account\'s own (`accounts[].daily`) and all accounts\' together.',
  }),
  listSettlements: op({ data: A.List(A.ConsoleSettlement), operationId: 'consoleListSettlements', summary: 'The settlements of the organization', access: 'read', description: '`data`: one page, newest settled first, with line and break counts; `next_cursor` for the next page.' }),
  exportSettlements: consoleCsvOperation({ operationId: 'consoleExportSettlements', summary: 'Every settlement of the organization, as CSV', description: 'Newest settled first; amounts in rupees.' }),
  getSettlement: op({ data: A.ConsoleSettlement, operationId: 'consoleGetSettlement', summary: 'One settlement', access: 'read', description: '`data`: the settlement with its totals, line and break counts.' }),
  listLines: op({ data: A.List(A.ConsoleSettlementLine), operationId: 'consoleListSettlementLines', summary: "A settlement's lines", access: 'read', description: '`data`: one page of lines with their order or refund and match (`MATCHED`, a break kind or `ANOMALY`); `next_cursor` for the next page.' }),
  exportLines: consoleCsvOperation({ operationId: 'consoleExportSettlementLines', summary: "A settlement's lines, as CSV", description: 'Every line of the settlement; amounts in rupees.' }),
};

const BalancesQuery = Type.Object({ tz: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone of the viewer; default Asia/Kolkata' })) }, strict);
const SettlementParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * A line's amount as positive rupees, `type` giving the direction (as contract §9's lines have them):
 * a refund line's net is stored negative, and a cell starting with "-" would get csv.ts's
 * formula-guarding apostrophe and read as text in a spreadsheet.
 */
const lineRupees = (paise: number): string => rupeesOf(Math.abs(paise));

/** The day in India: a finance person keeps one file a day side by side (as the other exports). */
const today = (): string => new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10);

function sendCsv<R>(reply: FastifyReply, fileName: string, rows: AsyncIterable<R>, columns: Parameters<typeof csvStream<R>>[1]) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}-${today()}.csv"`)
    .send(csvStream(rows, columns));
}

const SETTLEMENT_COLUMNS: Parameters<typeof csvStream<SettlementView>>[1] = [
  { header: 'settled_at', value: (s) => s.settled_at },
  { header: 'settlement_id', value: (s) => s.settlement_id },
  { header: 'provider_account_id', value: (s) => s.provider_account_id },
  { header: 'provider', value: (s) => s.provider },
  { header: 'provider_account_name', value: (s) => s.provider_account_name },
  { header: 'provider_settlement_id', value: (s) => s.provider_settlement_id },
  { header: 'utr', value: (s) => s.utr },
  { header: 'gross_rupees', value: (s) => rupeesOf(s.gross_paise) },
  { header: 'fees_rupees', value: (s) => rupeesOf(s.fees_paise) },
  { header: 'tax_rupees', value: (s) => rupeesOf(s.tax_paise) },
  { header: 'refunds_rupees', value: (s) => rupeesOf(s.refunds_paise) },
  { header: 'adjustments_rupees', value: (s) => rupeesOf(s.adjustments_paise) },
  { header: 'net_rupees', value: (s) => rupeesOf(s.net_paise) },
  { header: 'lines', value: (s) => s.lines },
  { header: 'breaks', value: (s) => s.breaks },
];

const LINE_COLUMNS: Parameters<typeof csvStream<LineView>>[1] = [
  { header: 'type', value: (l) => l.type },
  { header: 'order_id', value: (l) => l.order_id },
  { header: 'refund_id', value: (l) => l.refund_id },
  { header: 'provider_payment_id', value: (l) => l.provider_payment_id },
  { header: 'amount_rupees', value: (l) => lineRupees(l.amount_paise) },
  { header: 'fee_rupees', value: (l) => lineRupees(l.fee_paise) },
  { header: 'tax_rupees', value: (l) => lineRupees(l.tax_paise) },
  { header: 'net_rupees', value: (l) => lineRupees(l.net_paise) },
  { header: 'match', value: (l) => l.match },
];

export async function registerFinanceApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // Read when a request comes, not at registration: the OpenAPI document registers these routes without a context.
  const finance = () => ctx.console.finance;
  const orgOf = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).user.org_id;

  api.get('/balances', { schema: { ...FINANCE_OPS.balances, querystring: BalancesQuery }, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await finance().balances(orgOf(request), request.query.tz));
  });

  api.get('/settlements', { schema: { ...FINANCE_OPS.listSettlements, querystring: PageQuery }, config: { console: 'read' } }, async (request) => {
    const page = await finance().settlements(orgOf(request), request.query);
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  // A static path: find-my-way matches it before `/settlements/:id`.
  api.get('/settlements/export', { schema: FINANCE_OPS.exportSettlements, config: { console: 'read' } }, async (request, reply) => {
    return sendCsv(reply, 'settlements', finance().exportSettlements(orgOf(request)), SETTLEMENT_COLUMNS);
  });

  api.get('/settlements/:id', { schema: { ...FINANCE_OPS.getSettlement, params: SettlementParams }, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await finance().settlement(orgOf(request), request.params.id));
  });

  api.get('/settlements/:id/lines', { schema: { ...FINANCE_OPS.listLines, params: SettlementParams, querystring: PageQuery }, config: { console: 'read' } }, async (request) => {
    const page = await finance().lines(orgOf(request), request.params.id, request.query);
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  api.get('/settlements/:id/lines/export', { schema: { ...FINANCE_OPS.exportLines, params: SettlementParams }, config: { console: 'read' } }, async (request, reply) => {
    // The settlement is checked before the file starts: another organization's is a 404 in the envelope.
    const { settlement, lines } = await finance().exportLines(orgOf(request), request.params.id);
    const name = `settlement-${(settlement.utr ?? settlement.provider_settlement_id).replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40) || settlement.settlement_id}-lines`;
    return sendCsv(reply, name, lines, LINE_COLUMNS);
  });
}
