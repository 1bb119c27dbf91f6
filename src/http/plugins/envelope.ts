/**
 * The response envelopes of API §2.1 and §7, and the error handler that turns every failure into
 * one: AppErrors keep their code, Fastify's own errors are mapped to catalogue codes, anything
 * else is logged and answered as INTERNAL_ERROR without detail.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode, type FieldIssue, httpStatusOf } from '../../domain/errors.js';
import type { Logger } from '../../observability/logger.js';
import type { AllowedMethods } from './allowed-methods.js';
import { DatabaseUnavailableError } from '../../store/db.js';
import { validationDetails } from './validation.js';

export interface ErrorEnvelope {
  success: false;
  error: { code: ErrorCode; message: string; request_id: string; details?: FieldIssue[] };
  request_id: string;
}

export function errorEnvelope(requestId: string, code: ErrorCode, message: string, details?: FieldIssue[]): ErrorEnvelope {
  return {
    success: false,
    error: { code, message, request_id: requestId, ...(details && details.length > 0 ? { details } : {}) },
    request_id: requestId,
  };
}

export function okEnvelope<T>(request: FastifyRequest, data: T, extra: Record<string, unknown> = {}) {
  return { success: true as const, data, ...extra, request_id: request.id };
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  UNSUPPORTED_MEDIA_TYPE: 'Request bodies must be sent as Content-Type: application/json.',
  PAYLOAD_TOO_LARGE: 'The request body is larger than 64 KiB.',
  INVALID_JSON: 'The request body is not a valid JSON object.',
  INTERNAL_ERROR: 'An internal error occurred. Retry with the same Idempotency-Key.',
  NOT_FOUND: 'No such resource.',
  SERVICE_UNAVAILABLE: 'The service is temporarily unavailable. Retry with the same Idempotency-Key.',
};

/** Classifies any thrown value into a code, a safe message and optional details. */
export function classify(err: unknown): { code: ErrorCode; message: string; details?: FieldIssue[]; headers?: Record<string, string> } {
  if (err instanceof DatabaseUnavailableError) return { code: 'SERVICE_UNAVAILABLE', message: MESSAGES.SERVICE_UNAVAILABLE as string };
  if (err instanceof AppError) return { code: err.code, message: err.message, details: err.details, headers: err.headers };
  const fe = err as FastifyError;
  if (fe && Array.isArray(fe.validation)) {
    return { code: 'VALIDATION_FAILED', message: 'The request is not valid.', details: validationDetails(fe.validation, fe.validationContext) };
  }
  const mapped = fe?.code ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped) return { code: mapped, message: MESSAGES[mapped] ?? fe.message };
  // JSON.parse failures (incl. prototype poisoning) surface as SyntaxError with status 400.
  if (fe && (fe instanceof SyntaxError || fe.statusCode === 400)) return { code: 'INVALID_JSON', message: MESSAGES.INVALID_JSON as string };
  if (fe?.statusCode === 413) return { code: 'PAYLOAD_TOO_LARGE', message: MESSAGES.PAYLOAD_TOO_LARGE as string };
  if (fe?.statusCode === 415) return { code: 'UNSUPPORTED_MEDIA_TYPE', message: MESSAGES.UNSUPPORTED_MEDIA_TYPE as string };
  return { code: 'INTERNAL_ERROR', message: MESSAGES.INTERNAL_ERROR as string };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const c = classify(err);
  const status = httpStatusOf(c.code);
  if (status >= 500 && c.code !== 'SERVICE_UNAVAILABLE') request.log.error({ err }, 'unhandled error');
  else if (c.code === 'SERVICE_UNAVAILABLE') request.log.warn({ err: (err as Error)?.message }, 'dependency unavailable');
  if (c.headers) reply.headers(c.headers);
  if (c.code === 'SERVICE_UNAVAILABLE') reply.header('retry-after', '1');
  return reply.code(status).type('application/json; charset=utf-8').send(errorEnvelope(request.id, c.code, c.message, c.details));
}

/**
 * Installs the envelope error and not-found handlers on an app. A path that exists with other
 * methods answers 405 METHOD_NOT_ALLOWED with `Allow`, not 404.
 */
export function installEnvelope(app: FastifyInstance, allowed?: AllowedMethods): void {
  app.setErrorHandler((err, request, reply) => sendError(request, reply, err));
  // A path that exists with other methods is refused before its body is read (no 400 INVALID_JSON
  // or 415 for a body the route would never take): the not-found route runs onRequest first.
  if (allowed) {
    app.addHook('onRequest', async (request) => {
      if (!request.is404) return;
      const methods = allowed.of(request.url);
      if (methods.length === 0) return;
      const allow = methods.join(', ');
      throw new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on this path; allowed: ${allow}.`, { headers: { allow } });
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const methods = allowed?.of(request.url) ?? [];
    if (methods.length === 0) return sendError(request, reply, new AppError('NOT_FOUND', 'No such resource or path.'));
    const allow = methods.join(', ');
    return sendError(request, reply, new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on this path; allowed: ${allow}.`, { headers: { allow } }));
  });
}

/**
 * Node's `clientError`: the request could not even be parsed, so no Fastify request exists. Headers
 * over the limit get 431 HEADERS_TOO_LARGE in the envelope, with a fresh request_id in the body and
 * in X-Request-Id; other parse failures get Fastify's usual answers. The connection is closed.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex, log: Logger): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const requestId = randomUUID();
  let status: number;
  let body: string;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    body = JSON.stringify(errorEnvelope(requestId, 'HEADERS_TOO_LARGE', 'The request headers are larger than the server accepts (16 KiB in all).'));
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = JSON.stringify(errorEnvelope(requestId, 'REQUEST_TIMEOUT', 'The request was not received in time.'));
  } else {
    // A malformed request line, an unknown method, an HTTP version other than 1.0/1.1, bad header syntax.
    status = 400;
    body = JSON.stringify(errorEnvelope(requestId, 'MALFORMED_REQUEST', 'The request could not be read as HTTP/1.1.'));
  }
  log.debug({ request_id: requestId, err: err.message, code: err.code, status }, 'client error before a request');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
