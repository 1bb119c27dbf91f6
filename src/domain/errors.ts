/**
 * The one catalogue of error codes the service may answer with (contract §4), and the HTTP
 * status each maps to. Adding a code without a status is a compile error (exhaustive switch).
 */
export const ERROR_CODES = [
  'INVALID_JSON',
  // A request Node's HTTP parser could not read at all (malformed request line, unknown method, HTTP/9.9).
  'MALFORMED_REQUEST',
  'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_KEY_INVALID',
  'API_AUTH_FAILED',
  'API_SCOPE_DENIED',
  'API_IP_NOT_ALLOWED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'GONE',
  'IDEMPOTENCY_KEY_IN_PROGRESS',
  'INVALID_STATE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'VALIDATION_FAILED',
  'IDEMPOTENCY_KEY_REUSED',
  'SENSITIVE_DATA_REJECTED',
  'BENEFICIARY_INVALID',
  'ROUTE_INVALID',
  'MODE_NOT_ENABLED',
  'REFUND_EXCEEDS_AMOUNT',
  'SELF_APPROVAL_DENIED',
  'DUPLICATE_FILE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case 'INVALID_JSON':
    case 'MALFORMED_REQUEST':
    case 'IDEMPOTENCY_KEY_REQUIRED':
    case 'IDEMPOTENCY_KEY_INVALID':
      return 400;
    case 'API_AUTH_FAILED':
      return 401;
    case 'API_SCOPE_DENIED':
    case 'API_IP_NOT_ALLOWED':
    case 'SELF_APPROVAL_DENIED': // maker-checker (contract §6): a maker never decides their own payout or file
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'METHOD_NOT_ALLOWED':
      return 405;
    case 'IDEMPOTENCY_KEY_IN_PROGRESS':
    case 'INVALID_STATE':
    case 'DUPLICATE_FILE': // a bulk payout file with the SHA-256 of one the organization uploaded before
      return 409;
    case 'REQUEST_TIMEOUT':
      return 408;
    case 'GONE':
      return 410;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'HEADERS_TOO_LARGE':
      return 431;
    case 'VALIDATION_FAILED':
    case 'IDEMPOTENCY_KEY_REUSED':
    case 'SENSITIVE_DATA_REJECTED':
    case 'BENEFICIARY_INVALID':
    case 'ROUTE_INVALID':
    case 'MODE_NOT_ENABLED':
    case 'REFUND_EXCEEDS_AMOUNT':
      return 422;
    case 'RATE_LIMITED':
      return 429;
    case 'INTERNAL_ERROR':
      return 500;
    case 'SERVICE_UNAVAILABLE':
      return 503;
  }
}

/** One field-level problem, as carried in `error.details` of a validation error. */
export interface FieldIssue {
  field: string;
  issue: string;
}

/**
 * An expected failure with a code from the catalogue. Its message is safe to show to a merchant;
 * anything that is not an AppError becomes INTERNAL_ERROR with a generic message.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: FieldIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: FieldIssue[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }

  get status(): number {
    return httpStatusOf(this.code);
  }
}

export function validationError(details: FieldIssue[], message = 'The request is not valid.'): AppError {
  return new AppError('VALIDATION_FAILED', message, { details });
}

export function notFound(what = 'resource'): AppError {
  return new AppError('NOT_FOUND', `No such ${what}.`);
}
