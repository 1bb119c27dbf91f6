/** Request schema of the admin bank connection route (../admin-bank-connections.ts). */
import { Type } from '@sinclair/typebox';

export const BankConnectionBody = Type.Object(
  {
    org: Type.String({ maxLength: 64 }),
    modes: Type.Array(Type.String({ maxLength: 10 }), { minItems: 1, maxItems: 3 }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    /** Contract §8: the provider account the bank connection sends through; without it, the built-in sandbox. */
    provider_account: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
