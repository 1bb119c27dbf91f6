/**
 * The console's money pages' API (issue #19 item 3, docs/console.md): payment orders and payouts
 * of the signed-in user's organization. Every role may read them (contract §5). Registered inside
 * the console API's plugin, so its session guard and envelope apply.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import type { ConsoleMoney, MoneyListQuery, Page } from '../../../services/console/money.js';
import type * as A from './schemas/answers.js';
import type { consoleOperation } from './schemas/common.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { csvStream, rupeesOf } from './csv.js';
import { ListQuery, MONEY_OPS, RefParams } from './schemas/money.js';
import { can } from '../../../services/console/roles.js';
import type { ConsoleRole } from '../../../store/repos/console-repo.js';
import { sessionOf } from './session.js';

function listQuery(orgId: string, q: Static<typeof ListQuery>): MoneyListQuery {
  return {
    orgId,
    ...(q.status ? { status: q.status } : {}),
    ...(q.created_from ? { from: new Date(q.created_from) } : {}),
    ...(q.created_to ? { to: new Date(q.created_to) } : {}),
    ...(q.search ? { search: q.search } : {}),
    ...(q.cursor ? { cursor: q.cursor } : {}),
    limit: Math.min(Math.max(Number(q.limit ?? 25), 1), 100),
  };
}

type ConsoleOp = ReturnType<typeof consoleOperation<TSchema>>;
/** A compile-time check that the services' views are what the answers' schemas say. */
type Fits<V extends S, S> = [V, S];
export type ViewsMatch = [
  Fits<Awaited<ReturnType<ConsoleMoney["listOrders"]>>["rows"][number], Static<typeof A.OrderRow>>,
  Fits<Awaited<ReturnType<ConsoleMoney['listPayouts']>>['rows'][number], Static<typeof A.PayoutRow>>,
  Fits<Awaited<ReturnType<ConsoleMoney['order']>>, Static<typeof A.OrderDetail>>,
  Fits<Awaited<ReturnType<ConsoleMoney['payout']>>, Static<typeof A.PayoutDetail>>,
];

type ExportQuery = Omit<MoneyListQuery, 'cursor' | 'limit'>;
type CsvColumns<R> = Parameters<typeof csvStream<R>>[1];

/**
 * One kind of money (payment orders, payouts): what its three routes differ by. `R` is a list row,
 * `D` the detail of one.
 */
interface MoneyKind<R, D> {
  /** The list's path; the export is at `${path}/export`, one resource at `${path}/:ref`. */
  path: string;
  /** The answers' schemas are checked against the services' views below (ViewsMatch), not here: R and D are generic. */
  ops: { list: ConsoleOp; export: typeof MONEY_OPS.exportOrders; get: ConsoleOp };
  list: (q: MoneyListQuery) => Promise<Page<R>>;
  export: (q: ExportQuery) => AsyncGenerator<R>;
  detail: (orgId: string, ref: string, role: ConsoleRole) => Promise<D>;
  fileName: string;
  columns: CsvColumns<R>;
}

/** The list, its CSV export and one resource of a kind of money. */
function registerMoneyRoutes<R, D>(app: FastifyInstance, kind: MoneyKind<R, D>): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(kind.path, { schema: { ...kind.ops.list, querystring: ListQuery }, config: { console: 'read' } }, async (request) => {
    const page = await kind.list(listQuery(sessionOf(request).user.org_id, request.query));
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  // A static path: find-my-way matches it before `${path}/:ref`.
  api.get(`${kind.path}/export`, { schema: { ...kind.ops.export, querystring: ListQuery }, config: { console: 'read' } }, async (request, reply) => {
    const { cursor: _c, limit: _l, ...q } = listQuery(sessionOf(request).user.org_id, request.query);
    const rows = kind.export(q);
    // The first page is read before the answer starts, so a bad filter is still a 422 in the envelope.
    const first = await rows.next();
    const all = (async function* () {
      if (!first.done) yield first.value;
      yield* rows;
    })();
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      // Dated (the day in India): a finance person keeps one file a day side by side.
      .header('content-disposition', `attachment; filename="${kind.fileName.replace(/\.csv$/, '')}-${new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10)}.csv"`)
      .send(csvStream(all, kind.columns));
  });

  api.get(`${kind.path}/:ref`, { schema: { ...kind.ops.get, params: RefParams }, config: { console: 'read' } }, async (request) => {
    const { ref } = request.params;
    return okEnvelope(request, await kind.detail(sessionOf(request).user.org_id, ref, sessionOf(request).user.role));
  });
}

export async function registerMoneyApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Read when a request comes, not at registration: the OpenAPI document registers these routes without a service.
  const money = () => ctx.console.money;

  registerMoneyRoutes(app, {
    path: '/payment-orders',
    ops: { list: MONEY_OPS.listOrders, export: MONEY_OPS.exportOrders, get: MONEY_OPS.getOrder },
    list: (q: MoneyListQuery) => money().listOrders(q),
    export: (q: ExportQuery) => money().exportOrders(q),
    detail: (orgId: string, ref: string, role: ConsoleRole) => money().order(orgId, ref, can(role, 'reviews.decide')),
    fileName: 'payment-orders.csv',
    columns: [
      { header: 'created_at', value: (o) => o.created_at },
      { header: 'order_id', value: (o) => o.order_id },
      { header: 'id', value: (o) => o.id },
      { header: 'merchant_order_reference', value: (o) => o.merchant_order_reference },
      { header: 'amount_rupees', value: (o) => rupeesOf(o.amount_paise) },
      { header: 'status', value: (o) => o.status },
      { header: 'response_mode', value: (o) => o.response_mode },
      { header: 'utr', value: (o) => o.utr },
      { header: 'paid_at', value: (o) => o.paid_at },
      { header: 'purpose', value: (o) => o.purpose },
      { header: 'customer_name', value: (o) => o.customer_name },
      { header: 'livemode', value: (o) => o.livemode },
      // Contract §9 (issue #32 item 7): the settlement that paid the order out, empty until one did.
      { header: 'settlement_id', value: (o) => o.settlement_id },
      { header: 'settlement_utr', value: (o) => o.settlement_utr },
      { header: 'settled_at', value: (o) => o.settled_at },
    ],
  });

  registerMoneyRoutes(app, {
    path: '/payouts',
    ops: { list: MONEY_OPS.listPayouts, export: MONEY_OPS.exportPayouts, get: MONEY_OPS.getPayout },
    list: (q: MoneyListQuery) => money().listPayouts(q),
    export: (q: ExportQuery) => money().exportPayouts(q),
    detail: (orgId: string, ref: string) => money().payout(orgId, ref),
    fileName: 'payouts.csv',
    columns: [
      { header: 'created_at', value: (p) => p.created_at },
      { header: 'transaction_id', value: (p) => p.transaction_id },
      { header: 'id', value: (p) => p.id },
      { header: 'client_reference', value: (p) => p.client_reference },
      { header: 'amount_rupees', value: (p) => rupeesOf(p.amount_paise) },
      { header: 'mode', value: (p) => p.mode },
      { header: 'status', value: (p) => p.status },
      { header: 'beneficiary_name', value: (p) => p.beneficiary_name },
      { header: 'account_number_last4', value: (p) => p.account_number_last4 },
      { header: 'utr', value: (p) => p.utr },
      { header: 'livemode', value: (p) => p.livemode },
    ],
  });
}
