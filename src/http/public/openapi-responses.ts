/**
 * Response descriptions for the OpenAPI document only. They are added by @fastify/swagger's
 * transform, not to the route schemas, so they never change how a response is serialised (the
 * creates send their stored bytes; the GETs serialise their views as they are).
 */
import { ERROR_CODES } from '../../domain/errors.js';

const errorEnvelope = {
  type: 'object',
  required: ['success', 'error', 'request_id'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: { type: 'string', enum: [...ERROR_CODES] },
        message: { type: 'string' },
        request_id: { type: 'string' },
        details: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, issue: { type: 'string' } } } },
      },
    },
    request_id: { type: 'string' },
  },
};

/** Every order and payout (contract §7): `data.livemode`, false for the sandbox provider. */
const resourceData = {
  type: 'object',
  additionalProperties: true,
  required: ['livemode'],
  properties: {
    livemode: { type: 'boolean', description: 'true when real money moves (a provider account on its production address); false for the sandbox (test mode).' },
  },
};

function successEnvelope(description: string, extra: Record<string, unknown> = {}) {
  return {
    description,
    type: 'object',
    required: ['success', 'data', 'request_id'],
    properties: { success: { const: true }, data: resourceData, ...extra, request_id: { type: 'string' } },
  };
}

const errors = (codes: string) => ({ description: `Error envelope (${codes})`, ...errorEnvelope });

/** Success status and description per route; every route also documents its error answers. */
const SUCCESS: Record<string, { status: number; description: string; extra?: Record<string, unknown> }> = {
  'POST /api/v1/merchant/payment-orders': { status: 201, description: 'The payment order (API §2.2). Replays carry `Idempotent-Replayed: true`.' },
  'GET /api/v1/merchant/payment-orders/:order': { status: 200, description: 'The authoritative state of the payment order (API §2.2).' },
  'POST /api/v1/merchant/payment-orders/:order/cancel': { status: 200, description: 'The cancelled payment order.' },
  'POST /api/v1/merchant/payouts': {
    status: 201,
    description: 'The payout (API §2.3), submitted; not final. Replays carry `Idempotent-Replayed: true`.',
    extra: { approval_required: { const: false }, message: { type: 'string' } },
  },
  'POST /api/v1/merchant/payment-orders/:order/refunds': {
    status: 201,
    description: 'The refund (contract §6): PENDING_REVIEW, or PROCESSING when the organization skips review. Replays carry `Idempotent-Replayed: true`. 409 INVALID_STATE unless the order is PAID or MANUALLY_CONFIRMED; 422 REFUND_EXCEEDS_AMOUNT past the order amount.',
  },
  'GET /api/v1/merchant/payment-orders/:order/refunds': {
    status: 200,
    description: 'The refunds of the payment order (`data` is an array), oldest first.',
    extra: { data: { type: 'array', items: { type: 'object', additionalProperties: true } } },
  },
  'GET /api/v1/merchant/refunds/:refund': { status: 200, description: 'The refund (contract §6), by `id` or `refund_id`.' },
  'GET /api/v1/merchant/payouts/:payout': { status: 200, description: 'The payout with its attempts, bank reference and UTR (API §2.3).' },
};

export function documentedResponses(method: string, url: string): Record<string, unknown> | undefined {
  const s = SUCCESS[`${method} ${url}`];
  if (!s) return undefined;
  return {
    [s.status]: successEnvelope(s.description, s.extra),
    '4XX': errors('400/422 validation, 401/403 credentials or scope, 404 not found, 409 idempotency or state, 413, 415, 429'),
    '5XX': errors('500 internal, 503 dependency unavailable: retry with the same Idempotency-Key'),
  };
}
