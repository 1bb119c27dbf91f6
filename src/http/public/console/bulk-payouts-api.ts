/**
 * The console's bulk payout files (contract §5, §6; docs/payouts.md "Bulk payouts"): upload a CSV
 * (`text/csv` body, up to 10,000 rows), list and read files (with live progress), a checker's
 * decision on the whole file, and each row's result as CSV (formula cells neutralised, csv.ts).
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { DECISION_NOTE_MAX } from '../../../services/payout-approvals.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { csvStream, rupeesOf } from './csv.js';
import { personOf } from './payout-approvals-api.js';
import { sessionOf } from './session.js';

/** 10,000 rows of at most ~600 bytes each, with room to spare. */
export const BULK_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const strict = { additionalProperties: false } as const;
const UploadQuery = Type.Object({ file_name: Type.String({ minLength: 1, maxLength: 255 }) }, strict);
const FileParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const DecisionBody = Type.Object({ note: Type.Optional(Type.String({ maxLength: DECISION_NOTE_MAX })) }, strict);
const RejectBody = Type.Object({ note: Type.String({ minLength: 1, maxLength: DECISION_NOTE_MAX }) }, strict);

export async function registerBulkPayoutsApi(api: FastifyInstance, ctx: AppContext): Promise<void> {
  const hide = { hide: true, tags: ['console'] };

  await api.register(async (scope) => {
    scope.addContentTypeParser(/^text\/csv(\s*;.*)?$/i, { parseAs: 'buffer', bodyLimit: BULK_BODY_LIMIT_BYTES }, (_req, body, done) => done(null, body));
    scope.post('/bulk-payouts', { schema: { ...hide, querystring: UploadQuery }, config: { console: 'payouts.make' }, bodyLimit: BULK_BODY_LIMIT_BYTES }, async (request, reply) => {
      const { file_name } = request.query as Static<typeof UploadQuery>;
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return reply.code(201).send(okEnvelope(request, await ctx.bulkPayouts.upload(personOf(request), file_name, body)));
    });
  });

  api.get('/bulk-payouts', { schema: hide, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.bulkPayouts.list(sessionOf(request).user.org_id));
  });

  api.get('/bulk-payouts/:id', { schema: { ...hide, params: FileParams }, config: { console: 'read' } }, async (request) => {
    const { id } = request.params as Static<typeof FileParams>;
    return okEnvelope(request, await ctx.bulkPayouts.get(sessionOf(request).user.org_id, id));
  });

  api.post('/bulk-payouts/:id/approve', { schema: { ...hide, params: FileParams, body: Type.Optional(DecisionBody) }, config: { console: 'payouts.check' } }, async (request) => {
    const { id } = request.params as Static<typeof FileParams>;
    const b = (request.body ?? {}) as Static<typeof DecisionBody>;
    return okEnvelope(request, await ctx.bulkPayouts.decide(personOf(request), id, 'approve', b.note ?? null));
  });

  api.post('/bulk-payouts/:id/reject', { schema: { ...hide, params: FileParams, body: RejectBody }, config: { console: 'payouts.check' } }, async (request) => {
    const { id } = request.params as Static<typeof FileParams>;
    const { note } = request.body as Static<typeof RejectBody>;
    return okEnvelope(request, await ctx.bulkPayouts.decide(personOf(request), id, 'reject', note));
  });

  api.get('/bulk-payouts/:id/results.csv', { schema: { ...hide, params: FileParams }, config: { console: 'read' } }, async (request, reply) => {
    const { id } = request.params as Static<typeof FileParams>;
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
