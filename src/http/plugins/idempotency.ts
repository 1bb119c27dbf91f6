/** HTTP side of idempotent creates: the Idempotency-Key header and sending (replayed) answers. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { CreateResponse, IdempotencyScope } from '../../services/shared/idempotency.js';
import { principalOf } from './merchant-auth.js';
import { rejectSensitiveData } from './sensitive-data.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function idempotencyKeyOf(request: FastifyRequest): string {
  const raw = request.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') throw new AppError('IDEMPOTENCY_KEY_REQUIRED', 'The Idempotency-Key header (a UUID v4) is required for this request.');
  if (!UUID_V4.test(key)) throw new AppError('IDEMPOTENCY_KEY_INVALID', 'The Idempotency-Key header must be a UUID v4.');
  return key.toLowerCase();
}

/** The scope of a create: its key, and what the fingerprint covers (method, route path, body). */
export function idempotencyScopeOf(request: FastifyRequest): IdempotencyScope {
  return {
    clientPk: principalOf(request).pk,
    key: idempotencyKeyOf(request),
    method: request.method,
    path: request.url.split('?')[0] ?? request.url,
    body: request.body,
  };
}

/**
 * preValidation hook of every financial create: the key header first (400), then sensitive
 * credentials (422 SENSITIVE_DATA_REJECTED), before the schema's own 422.
 */
export async function financialCreateChecks(request: FastifyRequest): Promise<void> {
  idempotencyKeyOf(request);
  rejectSensitiveData(request.body);
}

export function sendCreateResponse(reply: FastifyReply, res: CreateResponse): FastifyReply {
  if (res.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(res.status).type('application/json; charset=utf-8').send(res.bodyText);
}
