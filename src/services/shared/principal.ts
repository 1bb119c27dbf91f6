/** The authenticated caller of a merchant API request, and the scope check each route makes. */
import { AppError } from '../../domain/errors.js';
import type { Scope } from '../../domain/scopes.js';

/** The authenticated caller of a merchant API request. */
export interface Principal {
  pk: string;
  clientId: string;
  orgId: string;
  scopes: readonly Scope[];
  rateLimitPerMinute: number;
  /**
   * The console user who was shown the secret this request authenticated with (migration 0092);
   * null: the operator's CLI made it. A refund made with it is not approved by that person.
   */
  secretIssuedBy?: string | null;
}

export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) throw new AppError('API_SCOPE_DENIED', `This client lacks the ${scope} scope.`);
}
