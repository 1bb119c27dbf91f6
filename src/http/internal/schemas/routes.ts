/** Request schema of the admin payout-route route (../admin-routes.ts). */
import { Type } from '@sinclair/typebox';

export const RouteBody = Type.Object(
  {
    org: Type.String({ maxLength: 64 }),
    modes: Type.Array(Type.String({ maxLength: 10 }), { minItems: 1, maxItems: 3 }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
