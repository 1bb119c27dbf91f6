/** Request schema of the admin payout-route route (../admin-routes.ts). */
import { Type } from '@sinclair/typebox';

export const RouteBody = Type.Object(
  {
    org: Type.String({ maxLength: 64 }),
    modes: Type.Array(Type.String({ maxLength: 10 }), { minItems: 1, maxItems: 3 }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    /** Contract §8: the provider account the route sends through; without it, the built-in sandbox. */
    provider_account: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
