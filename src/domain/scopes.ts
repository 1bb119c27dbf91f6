/** The four scopes of an API client (API §5). One list, used by validation, SQL and OpenAPI. */
export const SCOPES = ['collections:write', 'collections:read', 'payouts:write', 'payouts:read'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}
