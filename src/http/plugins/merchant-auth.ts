/**
 * Route options for merchant API routes (onRequest, before the body is read): an address over its
 * failed-authentication limit is refused first, with no look-up; then authentication + IP allow
 * list (a failure counts against the address); then the per-client rate limit (so requests that
 * then fail the scope check or validation are counted too); then the scope check. The principal is
 * attached to the request for handlers.
 */
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../domain/errors.js';
import type { Scope } from '../../domain/scopes.js';
import { type Principal, requireScope } from '../../services/shared/principal.js';
import type { RateDecision } from '../../security/rate-limiter.js';
import { rateLimitedError } from '../../security/source-limits.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Failures of the credentials or of the source address: what the per-address limit counts. */
const AUTHENTICATION_FAILURES = new Set(['API_AUTH_FAILED', 'API_IP_NOT_ALLOWED']);

async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
  const refused = ctx.sourceLimits.refusedBeforeAuthentication(request.ip);
  if (refused) throw refused;
  try {
    return await ctx.clients.authenticate(header(request, 'x-service-client-id'), header(request, 'authorization'), request.ip);
  } catch (err) {
    if (err instanceof AppError && AUTHENTICATION_FAILURES.has(err.code)) throw (await ctx.sourceLimits.authenticationFailed(request.ip)) ?? err;
    throw err;
  }
}

/**
 * `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-08 and later: Structured
 * Field lists) for the client's per-minute limit, on every answer once the client is known, errors
 * included (contract §11): `"per-minute";q=LIMIT;w=60` and `"per-minute";r=REMAINING;t=SECONDS`.
 */
export const RATE_LIMIT_POLICY_NAME = 'per-minute';

function rateLimitHeaders(reply: FastifyReply, limitPerMinute: number, decision: RateDecision): void {
  reply.header('ratelimit-policy', `"${RATE_LIMIT_POLICY_NAME}";q=${limitPerMinute};w=60`);
  if (decision.remaining !== undefined && decision.resetMs !== undefined) {
    reply.header('ratelimit', `"${RATE_LIMIT_POLICY_NAME}";r=${decision.remaining};t=${Math.ceil(decision.resetMs / 1000)}`);
  }
}

async function takeClientLimit(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<void> {
  let decision: RateDecision;
  try {
    decision = await ctx.rateLimiter.take(principal.pk, principal.rateLimitPerMinute);
  } catch (err) {
    // A rate limiter outage must not take payments down with it: fail open, loudly.
    request.log.warn({ err: (err as Error).message }, 'rate limiter unavailable; request allowed');
    return;
  }
  rateLimitHeaders(reply, principal.rateLimitPerMinute, decision);
  if (!decision.allowed) throw rateLimitedError(decision, `Rate limit of ${principal.rateLimitPerMinute} requests per minute exceeded.`);
}

export function merchantRoute(ctx: AppContext, scope: Scope): Pick<RouteShorthandOptions, 'onRequest'> {
  return {
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      const principal = await authenticate(ctx, request);
      request.principal = principal;
      await takeClientLimit(ctx, request, reply, principal);
      requireScope(principal, scope);
    },
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('merchant route without authentication');
  return request.principal;
}
