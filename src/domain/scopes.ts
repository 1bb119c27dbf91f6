/**
 * The scopes of an API client: API §5's four and `settlements:read` (contract §9: organization-wide,
 * since a settlement covers the orders of every client). One list, used by validation, SQL and OpenAPI.
 */
export const SCOPES = ['collections:write', 'collections:read', 'payouts:write', 'payouts:read', 'settlements:read'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

/**
 * Whether a credential with these scopes can move money alone (issue #29 item 4): API payouts need
 * no approval, so handing one out from the console needs a second admin (docs/console.md).
 */
export function movesMoney(scopes: readonly string[]): boolean {
  return scopes.includes('payouts:write');
}
