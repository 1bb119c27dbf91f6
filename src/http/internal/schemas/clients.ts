/** Request schemas of the admin organization and API-client routes (../admin-clients.ts). */
import { RATE_LIMIT_BOUNDS } from '../../../domain/rate-limit.js';
import { SCOPES } from '../../../domain/scopes.js';
import { Type } from '@sinclair/typebox';

export const OrgBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
export const ClientBody = Type.Object(
  {
    org: Type.String({ maxLength: 64 }),
    scopes: Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: SCOPES.length }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    allow_ips: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
    rate_limit: Type.Optional(Type.Integer(RATE_LIMIT_BOUNDS)),
  },
  { additionalProperties: false },
);
export const ClientParams = Type.Object({ client_id: Type.String({ maxLength: 100 }) });
export const IpBody = Type.Object({ ip: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
/** `tijori client set`: each field given replaces the old value (the allow list whole). */
export const SetBody = Type.Object(
  {
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: SCOPES.length })),
    allow_ips: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
    rate_limit: Type.Optional(Type.Integer(RATE_LIMIT_BOUNDS)),
  },
  { additionalProperties: false },
);
