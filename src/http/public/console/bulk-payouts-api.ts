/**
 * The console's bulk payout files (contract §5, §6; docs/payouts.md "Bulk payouts"): upload a CSV
 * (`text/csv` body, up to 10,000 rows), list and read files (with live progress), a checker's
 * decision on the whole file, and each row's result as CSV (formula cells neutralised, csv.ts).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { DECISION_NOTE_MAX } from '../../../domain/payout.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { consoleCsvOperation, consoleOperation as op } from './schemas/common.js';
import { csvStream, rupeesOf } from './csv.js';
import { personOf } from './payout-approvals-api.js';
import { sessionOf } from './session.js';
import * as A from './schemas/answers.js';

/** 10,000 rows of at most ~600 bytes each, with room to spare. */
export const BULK_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const strict = { additionalProperties: false } as const;
const UploadQuery = Type.Object({ file_name: Type.String({ minLength: 1, maxLength: 255 }) }, strict);
const FileParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const DecisionBody = Type.Object({ note: Type.Optional(Type.String({ maxLength: DECISION_NOTE_MAX })) }, strict);
const RejectBody = Type.Object({ note: Type.String({ minLength: 1, maxLength: DECISION_NOTE_MAX }) }, strict);

/** The OpenAPI entries of these routes (tag console). */
export const BULK_OPS = {
  upload: op({ data: A.BulkFile, operationId: 'consoleUploadBulkPayouts', summary: 'Upload a bulk payout file (CSV body)', access: 'change', status: 201, description: '`data`: the preview (count, total, totals per mode); 422 with each bad row by line; 409 DUPLICATE_FILE.' }),
  list: op({ data: A.List(A.BulkFile), operationId: 'consoleListBulkPayouts', summary: 'Bulk payout files', access: 'read', description: '`data`: the files with their state.' }),
  get: op({ data: A.BulkFile, operationId: 'consoleGetBulkPayouts', summary: 'A bulk payout file with its progress', access: 'read', description: '`data`: the file, its rows and progress.' }),
  approve: op({ data: A.BulkFile, operationId: 'consoleApproveBulkPayouts', summary: 'Approve a whole file (a checker who is not its uploader)', access: 'change', description: '`data`: the file, being submitted row by row.' }),
  reject: op({ data: A.BulkFile, operationId: 'consoleRejectBulkPayouts', summary: 'Reject a whole file', access: 'change', description: '`data`: the file, rejected; nothing is paid.' }),
  rows: op({ data: A.List(A.BulkRow), operationId: 'consoleBulkPayoutRows', summary: "A page of a file's rows", access: 'read', description: '`data`: rows in line order (name, account last 4, IFSC, bank, amount, mode, payout status); `cursor`: the `next_cursor` of the page before; `limit` 1–100 (default 25).' }),
  results: consoleCsvOperation({ operationId: 'consoleBulkPayoutResults', summary: "Each row's result as CSV", description: 'CSV: one line per row with its payout and status (formula cells neutralised).' }),
};

export async function registerBulkPayoutsApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  await api.register(async (scope) => {
    scope.addContentTypeParser(/^text\/csv(\s*;.*)?$/i, { parseAs: 'buffer', bodyLimit: BULK_BODY_LIMIT_BYTES }, (_req, body, done) => done(null, body));
    scope.withTypeProvider<TypeBoxTypeProvider>().post('/bulk-payouts', { schema: { ...BULK_OPS.upload, querystring: UploadQuery }, config: { console: 'payouts.make' }, bodyLimit: BULK_BODY_LIMIT_BYTES }, async (request, reply) => {
      const { file_name } = request.query;
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return reply.code(201).send(okEnvelope(request, await ctx.bulkPayouts.upload(personOf(request), file_name, body)));
    });
  });

  api.get('/bulk-payouts', { schema: BULK_OPS.list, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.bulkPayouts.list(sessionOf(request).user.org_id));
  });

  api.get('/bulk-payouts/:id', { schema: { ...BULK_OPS.get, params: FileParams }, config: { console: 'read' } }, async (request) => {
    const { id } = request.params;
    return okEnvelope(request, await ctx.bulkPayouts.get(sessionOf(request).user.org_id, id));
  });

  const RowsQuery = Type.Object({ cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })), limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })) }, strict);
  api.get('/bulk-payouts/:id/rows', { schema: { ...BULK_OPS.rows, params: FileParams, querystring: RowsQuery }, config: { console: 'read' } }, async (request) => {
    const { id } = request.params;
    const limit = Math.min(Math.max(Number(request.query.limit ?? 25), 1), 100);
    const page = await ctx.bulkPayouts.rowsPage(sessionOf(request).user.org_id, id, Number(request.query.cursor ?? 0), limit);
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  api.post('/bulk-payouts/:id/approve', { schema: { ...BULK_OPS.approve, params: FileParams, body: Type.Optional(DecisionBody) }, config: { console: 'payouts.check' } }, async (request) => {
    const { id } = request.params;
    const b = (request.body ?? {});
    return okEnvelope(request, await ctx.bulkPayouts.decide(personOf(request), id, 'approve', b.note ?? null));
  });

  api.post('/bulk-payouts/:id/reject', { schema: { ...BULK_OPS.reject, params: FileParams, body: RejectBody }, config: { console: 'payouts.check' } }, async (request) => {
    const { id } = request.params;
    const { note } = request.body;
    return okEnvelope(request, await ctx.bulkPayouts.decide(personOf(request), id, 'reject', note));
  });

  api.get('/bulk-payouts/:id/results.csv', { schema: { ...BULK_OPS.results, params: FileParams }, config: { console: 'read' } }, async (request, reply) => {
    const { id } = request.params;
    const orgId = sessionOf(request).user.org_id;
    await ctx.bulkPayouts.get(orgId, id); // 404 before the stream starts
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="bulk-payout-${id}-results.csv"`);
    return reply.send(
      csvStream(ctx.bulkPayouts.results(orgId, id), [
        { header: 'line', value: (r) => r.line },
        { header: 'name', value: (r) => r.name },
        { header: 'account_number_last4', value: (r) => r.account_last4 },
        { header: 'ifsc', value: (r) => r.ifsc },
        { header: 'amount_paise', value: (r) => Number(r.amount_paise) },
        { header: 'amount_inr', value: (r) => rupeesOf(Number(r.amount_paise)) },
        { header: 'mode', value: (r) => r.mode },
        { header: 'remarks', value: (r) => r.remarks },
        { header: 'client_reference', value: (r) => r.client_reference },
        { header: 'payout_id', value: (r) => r.payout_id },
        { header: 'transaction_id', value: (r) => r.transaction_id },
        { header: 'status', value: (r) => r.status ?? (r.error ? 'NOT_CREATED' : 'WAITING') },
        { header: 'utr', value: (r) => r.utr },
        { header: 'failure_reason', value: (r) => r.failure_reason ?? r.error },
      ]),
    );
  });
}
