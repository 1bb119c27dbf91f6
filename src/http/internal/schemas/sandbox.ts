/** Request schemas of the sandbox provider's admin routes (../admin-sandbox.ts). */
import { Type } from '@sinclair/typebox';

export const OrderParams = Type.Object({ order: Type.String({ minLength: 1, maxLength: 64 }) });
export const PayBody = Type.Object(
  {
    utr: Type.Optional(Type.String({ pattern: '^[0-9]{12}$' })),
    // The payer paid another amount than the order's (to exercise the service's confirmation check).
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000_000 })),
    callback: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const FailBody = Type.Object({ callback: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
