/** The admin API's one guard: `Authorization: Bearer ADMIN_TOKEN`, compared in constant time. */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../domain/errors.js';
import { safeEqualStrings } from '../../security/secrets.js';

export function adminAuth(ctx: AppContext) {
  return async (request: FastifyRequest) => {
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!token || !safeEqualStrings(token, ctx.config.adminToken)) throw new AppError('API_AUTH_FAILED', 'Missing or invalid admin token.');
  };
}
