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

/**
 * Codes only the console answers (maker-checker and bulk payout files, contract §6): never listed
 * on a merchant operation.
 */
const CONSOLE_ONLY_CODES: readonly ErrorCode[] = ['SELF_APPROVAL_DENIED', 'DUPLICATE_FILE'];

/** The codes of the catalogue that a merchant operation may answer with `status`. */
export function codesFor(status: number): ErrorCode[] {
  return ERROR_CODES.filter((c) => httpStatusOf(c) === status && !CONSOLE_ONLY_CODES.includes(c));
}

function errorResponse(status: number, codes: readonly ErrorCode[]) {
  if (codes.length === 0) throw new Error(`no error code of the catalogue answers ${status}`);
  const headers = status === 429 || status === 503 ? { ...REQUEST_ID_HEADER, ...RETRY_AFTER_HEADER } : REQUEST_ID_HEADER;
  return { ...refTo(ErrorEnvelope), description: `${codes.map((c) => '`' + c + '`').join(', ')}. ${STATUS_ADVICE[status] ?? ''}`.trim(), headers };
}

/** Statuses every authenticated operation can answer with, whatever it does. */
export const AUTHENTICATED_ERRORS = [401, 403, 429, 500, 503] as const;
/** ... and those of an operation that reads a request body (400: only a body that is not JSON). */
export const BODY_ERRORS = ['INVALID_JSON', 413, 415, 'VALIDATION_FAILED'] as const;
/** ... and those of an idempotent create (API §5) with its check for card or bank credentials. */
export const CREATE_ERRORS = ['IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_INVALID', 'IDEMPOTENCY_KEY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED', 'SENSITIVE_DATA_REJECTED'] as const;
/** A path id longer than any id (64 characters) is refused by the route's schema. */
export const PATH_ID_ERRORS = ['VALIDATION_FAILED'] as const;

/**
 * The error part of a route's `response` schema: one entry per status, each naming its codes. A
 * number stands for every merchant code of that status; a code adds just that code to its status.
 */
export function errorResponses(...items: Array<number | ErrorCode>) {
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const item of items) {
    const status = typeof item === 'number' ? item : httpStatusOf(item);
    const set = byStatus.get(status) ?? new Set<ErrorCode>();
    for (const c of typeof item === 'number' ? codesFor(item) : [item]) set.add(c);
    byStatus.set(status, set);
  }
  const out: Record<number, ReturnType<typeof errorResponse>> = {};
  for (const s of [...byStatus.keys()].sort()) out[s] = errorResponse(s, ERROR_CODES.filter((c) => byStatus.get(s)!.has(c)));
  return out;
}

export const ERROR_COMPONENTS = [FieldIssue, ErrorCodeSchema, ErrorEnvelope];
