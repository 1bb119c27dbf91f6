/** Errors the SDK throws: one for every answer in the API's error envelope, one for no answer at all. */
import type { components } from './generated/openapi.js';

export type ErrorCode = components['schemas']['ErrorCode'];
export type FieldIssue = components['schemas']['FieldIssue'];

/** The service answered with its error envelope (API §7). */
export class TijoriApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly requestId: string;
  readonly details: FieldIssue[];
  /** Seconds from `Retry-After` (429, 503), when given. */
  readonly retryAfterSeconds: number | undefined;
  /** The key of the create this answers, so a later retry can reuse it (never make a new one for an uncertain create). */
  readonly idempotencyKey: string | undefined;

  constructor(init: { status: number; code: ErrorCode; message: string; requestId: string; details?: FieldIssue[]; retryAfterSeconds?: number; idempotencyKey?: string }) {
    super(`${init.code}: ${init.message} (request_id ${init.requestId})`);
    this.name = 'TijoriApiError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.idempotencyKey = init.idempotencyKey;
  }
}

/**
 * No usable answer (connection failed, timed out, or not the API's JSON): the outcome of a create
 * is unknown. Retry it with `idempotencyKey`, or retrieve the resource, before anything else.
 */
export class TijoriConnectionError extends Error {
  readonly idempotencyKey: string | undefined;

  constructor(message: string, options: { cause?: unknown; idempotencyKey?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TijoriConnectionError';
    this.idempotencyKey = options.idempotencyKey;
  }
}

/** A callback failed verification (API §6.2): answer it with HTTP 401 and do not act on it. */
export class TijoriSignatureError extends Error {
  readonly reason: 'missing_header' | 'bad_timestamp' | 'timestamp_out_of_tolerance' | 'bad_signature' | 'bad_json' | 'event_id_mismatch';

  constructor(reason: TijoriSignatureError['reason'], message: string) {
    super(message);
    this.name = 'TijoriSignatureError';
    this.reason = reason;
  }
}
