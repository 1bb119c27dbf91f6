/**
 * The error envelope of API §7 / contract §4 and the error answers an operation documents. Codes
 * and their HTTP statuses come from the one catalogue, src/domain/errors.ts: a code added there
 * appears here (in the enum and under its status) without a change to this file.
 */
import { Type } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode, httpStatusOf } from '../../../domain/errors.js';
import { refTo, REQUEST_ID_HEADER, RETRY_AFTER_HEADER } from './common.js';

export const FieldIssue = Type.Object(
  {
    field: Type.String({ description: 'dotted path of the field, e.g. `beneficiary.ifsc`; `(body)` for the body as a whole' }),
    issue: Type.String({ description: 'what is wrong with it, in words' }),
  },
  { $id: 'FieldIssue', additionalProperties: false },
);

export const ErrorCodeSchema = Type.Unsafe<ErrorCode>({
  $id: 'ErrorCode',
  type: 'string',
  enum: [...ERROR_CODES],
  description: 'Machine-readable error code (contract §4).',
});

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object(
      {
        code: refTo(ErrorCodeSchema),
        message: Type.String({ description: 'safe to show to an operator; never a stack trace' }),
        request_id: Type.String(),
        details: Type.Optional(Type.Array(refTo(FieldIssue), { description: 'VALIDATION_FAILED: one entry per field that breaks a rule' })),
      },
      { additionalProperties: false },
    ),
    request_id: Type.String(),
  },
  { $id: 'ErrorEnvelope', additionalProperties: false, description: 'Every error answer (API §7).' },
);

const STATUS_ADVICE: Record<number, string> = {
  400: 'The body is not JSON, or the Idempotency-Key header is missing or not a UUID v4. Do not retry unchanged.',
  401: 'Missing or wrong client id or secret.',
  403: 'The client lacks the scope, or the source address is not on its allow list.',
  404: 'No such resource for this client (resources are scoped to the organization and the API client).',
  405: 'The path exists with other methods (see `Allow`).',
  409: 'The first request with this Idempotency-Key is still running, or the resource is not in a state that allows this.',
  410: 'The resource is gone.',
  413: 'The body is over 64 KiB.',
  415: 'The body is not `application/json`.',
  422: 'A field breaks a rule (`error.details`), the Idempotency-Key was used for a different request, or a reference does not resolve.',
  429: 'Over the client rate limit (or too many failed authentications): wait `Retry-After` seconds, with jitter.',
  431: 'Request headers are over the limit.',
  500: 'Outcome unknown: retry with the same Idempotency-Key.',
  503: 'A dependency is down: retry after `Retry-After` seconds with the same Idempotency-Key.',
};

/** The codes of the catalogue that answer with `status`. */
export function codesFor(status: number): ErrorCode[] {
  return ERROR_CODES.filter((c) => httpStatusOf(c) === status);
}

function errorResponse(status: number) {
  const codes = codesFor(status);
  if (codes.length === 0) throw new Error(`no error code of the catalogue answers ${status}`);
  const headers = status === 429 || status === 503 ? { ...REQUEST_ID_HEADER, ...RETRY_AFTER_HEADER } : REQUEST_ID_HEADER;
  return { ...refTo(ErrorEnvelope), description: `${codes.map((c) => '`' + c + '`').join(', ')}. ${STATUS_ADVICE[status] ?? ''}`.trim(), headers };
}

/** Statuses every authenticated operation can answer with, whatever it does. */
export const AUTHENTICATED_ERRORS = [401, 403, 429, 500, 503] as const;
/** ... and those of an operation that reads a request body. */
export const BODY_ERRORS = [400, 413, 415, 422] as const;

/** The error part of a route's `response` schema: one entry per status, each naming its codes. */
export function errorResponses(...statuses: number[]) {
  const out: Record<number, ReturnType<typeof errorResponse>> = {};
  for (const s of [...new Set(statuses)].sort()) out[s] = errorResponse(s);
  return out;
}

export const ERROR_COMPONENTS = [FieldIssue, ErrorCodeSchema, ErrorEnvelope];
