/**
 * Route options for merchant API routes (onRequest, before the body is read): an address over its
 * failed-authentication limit is refused first, with no look-up; then authentication + IP allow
 * list (a failure counts against the address); then the per-client rate limit (so requests that
 * then fail the scope check or validation are counted too); then the scope check. The principal is
 * attached to the request for handlers.
 */
import type { FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../domain/errors.js';
import type { Scope } from '../../domain/scopes.js';
import { type Principal, requireScope } from '../../services/shared/clients.js';
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

async function takeClientLimit(ctx: AppContext, request: FastifyRequest, principal: Principal): Promise<void> {
  let decision: { allowed: boolean; retryAfterMs: number };
  try {
    decision = await ctx.rateLimiter.take(principal.pk, principal.rateLimitPerMinute);
  } catch (err) {
    // A rate limiter outage must not take payments down with it: fail open, loudly.
    request.log.warn({ err: (err as Error).message }, 'rate limiter unavailable; request allowed');
    return;
  }
  if (!decision.allowed) throw rateLimitedError(decision, `Rate limit of ${principal.rateLimitPerMinute} requests per minute exceeded.`);
}

export function merchantRoute(ctx: AppContext, scope: Scope): Pick<RouteShorthandOptions, 'onRequest'> {
  return {
    onRequest: async (request: FastifyRequest) => {
      const principal = await authenticate(ctx, request);
      request.principal = principal;
      await takeClientLimit(ctx, request, principal);
      requireScope(principal, scope);
    },
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('merchant route without authentication');
  return request.principal;
}
