/**
 * Route options for merchant API routes: authentication + IP allow list (onRequest), then the
 * per-client rate limit (preParsing, so even bodies that fail validation are counted), then the
 * scope check. The principal is attached to the request for handlers.
 */
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../domain/errors.js';
import type { Scope } from '../../domain/scopes.js';
import { type Principal, requireScope } from '../../services/clients.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function merchantRoute(ctx: AppContext, scope: Scope): Pick<RouteShorthandOptions, 'onRequest' | 'preParsing'> {
  return {
    onRequest: async (request: FastifyRequest) => {
      const principal = await ctx.clients.authenticate(header(request, 'x-service-client-id'), header(request, 'authorization'), request.ip);
      request.principal = principal;
      requireScope(principal, scope);
    },
    preParsing: async (request: FastifyRequest, reply: FastifyReply) => {
      const principal = request.principal as Principal;
      let decision: { allowed: boolean; retryAfterMs: number };
      try {
        decision = await ctx.rateLimiter.take(principal.pk, principal.rateLimitPerMinute);
      } catch (err) {
        // A rate limiter outage must not take payments down with it: fail open, loudly.
        request.log.warn({ err: (err as Error).message }, 'rate limiter unavailable; request allowed');
        return;
      }
      if (!decision.allowed) {
        const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
        reply.header('retry-after', String(seconds));
        throw new AppError('RATE_LIMITED', `Rate limit of ${principal.rateLimitPerMinute} requests per minute exceeded. Retry after ${seconds} s.`);
      }
    },
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('merchant route without authentication');
  return request.principal;
}
