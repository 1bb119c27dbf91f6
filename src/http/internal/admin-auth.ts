/**
 * The admin API's one guard: `Authorization: Bearer ADMIN_TOKEN`, compared in constant time.
 * During an admin token rotation ADMIN_TOKEN_PREVIOUS is accepted too (docs/operations.md,
 * "Rotating the admin token"): each use of it is logged as a warning and counted
 * (`tijori_admin_previous_token_uses_total`), so the operator sees when nothing uses it any more;
 * the overlap itself is audited once (operator_audit_log `admin_token.overlap_started`, with
 * fingerprints of both tokens, never the tokens).
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../domain/errors.js';
import { safeEqualStrings } from '../../security/secrets.js';
import { insertOperatorAuditOnce } from '../../store/repos/key-rotation-repo.js';
import { newRowId } from '../../store/row-id.js';

/** A token's public fingerprint: enough to tell tokens apart in an audit entry, useless to an attacker. */
export function tokenFingerprint(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 16);
}

export function adminAuth(ctx: AppContext) {
  const previous = ctx.config.adminTokenPrevious;
  const previousUses = ctx.metrics.counter('tijori_admin_previous_token_uses_total', 'Admin API requests authenticated with ADMIN_TOKEN_PREVIOUS (a token rotation overlap)', []);
  let overlapAudited: Promise<void> | undefined;
  return async (request: FastifyRequest) => {
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (token && safeEqualStrings(token, ctx.config.adminToken)) return;
    if (token && previous && safeEqualStrings(token, previous)) {
      previousUses.inc();
      request.log.warn({ event: 'admin_previous_token_used' }, 'admin API called with ADMIN_TOKEN_PREVIOUS: move the caller to the new ADMIN_TOKEN before the overlap ends');
      overlapAudited ??= insertOperatorAuditOnce(ctx.db, {
        id: newRowId(),
        actor: 'operator',
        action: 'admin_token.overlap_started',
        detail: { token: tokenFingerprint(ctx.config.adminToken), previous: tokenFingerprint(previous) },
      }).catch((err: unknown) => {
        overlapAudited = undefined;
        request.log.error({ err }, 'could not audit the admin token overlap');
      });
      await overlapAudited;
      return;
    }
    throw new AppError('API_AUTH_FAILED', 'Missing or invalid admin token.');
  };
}
