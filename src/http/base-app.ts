/**
 * What the public and the internal listener share: request ids, JSON-only bodies of at most
 * 64 KiB, strict validation (no coercion, unknown fields kept so they can be rejected), the
 * envelope error handling, one log line and metrics per request.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError, validationError } from '../domain/errors.js';
import { unstorableTextPath } from '../domain/text.js';
import { lazyChildLoggerFactory } from '../observability/lazy-child-logger.js';
import { accessLoggerFor } from '../observability/logger.js';
import { parseJsonStrict } from '../security/strict-json.js';
import { trackAllowedMethods } from './plugins/allowed-methods.js';
import { answerClientError, installEnvelope, sendError } from './plugins/envelope.js';

export const BODY_LIMIT_BYTES = 64 * 1024;

const MAY_HOLD_FORBIDDEN_KEY = /__proto__|constructor|\\u/;
/** Only a \u escape can put U+0000 or a lone surrogate into parsed JSON (raw bytes cannot). */
const MAY_HOLD_UNSTORABLE_TEXT = /\\u(?:0000|d[89a-f])/i;

function rejectForbiddenKeys(key: string, value: unknown): unknown {
  if (key === '__proto__' || key === 'constructor') throw new SyntaxError('forbidden key');
  return value;
}

const ROUTER_OPTIONS = { ignoreTrailingSlash: true, maxParamLength: 200 };
/**
 * Strict validation: no coercion, no defaults, unknown fields kept (so they can be rejected), every
 * error reported. verbose: errors carry their schema object, whose `x-issue` words the answer
 * (plugins/validation.ts); `x-` keywords are annotations, hence strict: false.
 */
export const AJV_OPTIONS = {
  customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: true, strict: false, verbose: true },
} as const;

export function createBaseApp(ctx: AppContext, listener: 'public' | 'internal'): FastifyInstance {
  const log = ctx.log.child({ listener });
  const app: FastifyInstance = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLoggerFactory,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: ctx.config.trustProxy.length > 0 ? ctx.config.trustProxy : false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: ROUTER_OPTIONS,
    // Errors Node's HTTP parser meets before Fastify sees a request (headers over the limit): the
    // envelope with a request_id too, written to the socket.
    clientErrorHandler: (err, socket) => answerClientError(err, socket, log),
    // Malformed URLs and over-long path parameters never reach a route: answer them in the envelope.
    frameworkErrors: (_err, request, reply) => {
      reply.header('x-request-id', request.id);
      return sendError(request, reply, new AppError('NOT_FOUND', 'No such resource or path.'));
    },
    ajv: AJV_OPTIONS,
  });

  app.decorateRequest('principal', null);
  const allowed = trackAllowedMethods(app, ROUTER_OPTIONS);

  // Only JSON bodies are accepted; anything else is 415 before it is read.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/json(\s*;.*)?$/i, { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_req, body, done) => {
    try {
      const text = body as string;
      if (text.trim() === '') return done(new AppError('INVALID_JSON', 'The request body is empty; send a JSON object.'), undefined);
      // A reviver makes JSON.parse several times slower, so it runs only when the text could
      // spell a forbidden key at all (directly or through a \u escape).
      // Duplicate keys are refused too (one scan of the text, docs/merchant-api.md "Request bodies").
      const parsed = parseJsonStrict(text, MAY_HOLD_FORBIDDEN_KEY.test(text) ? rejectForbiddenKeys : undefined);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return done(new AppError('INVALID_JSON', 'The request body must be a JSON object.'), undefined);
      }
      // Every route stores or signs what it is given: text that PostgreSQL cannot hold is refused
      // here for all of them (422 naming the field), whatever each validator checks besides.
      const unstorable = MAY_HOLD_UNSTORABLE_TEXT.test(text) ? unstorableTextPath(parsed) : null;
      if (unstorable !== null) return done(validationError([{ field: unstorable, issue: 'must be well-formed Unicode text without U+0000' }]), undefined);
      done(null, parsed);
    } catch {
      done(new AppError('INVALID_JSON', 'The request body is not valid JSON.'), undefined);
    }
  });
  app.addContentTypeParser('*', (_req, _payload, done) => {
    done(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request bodies must be sent as Content-Type: application/json.'), undefined);
  });

  installEnvelope(app, allowed);

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    // no-store unless a route chose otherwise (the checkout's versioned static assets).
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    return payload;
  });

  const access = accessLoggerFor(ctx.log).child({ listener });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unknown';
    const latencyMs = reply.elapsedTime;
    ctx.metrics.httpRequests.inc({ listener, method: request.method, route, status: String(reply.statusCode) });
    ctx.metrics.httpDuration.observe({ listener, route }, latencyMs / 1000);
    access.info(
      {
        request_id: request.id,
        client_id: request.principal?.clientId,
        method: request.method,
        route,
        status: reply.statusCode,
        latency_ms: Math.round(latencyMs * 100) / 100,
        ip: request.ip,
      },
      'request',
    );
  });

  return app;
}
