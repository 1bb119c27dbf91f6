/** Request schemas of the admin settlement and reconciliation routes (../admin-settlements.ts). */
import { Type } from '@sinclair/typebox';

export const SyncBody = Type.Object(
  { org: Type.String({ minLength: 1, maxLength: 64 }), provider_account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
);
export const OrgQuery = Type.Object({ org: Type.String({ minLength: 1, maxLength: 64 }), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) });
export const BreaksQuery = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 64 }),
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('resolved')])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
});
export const BreakParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const ResolveBody = Type.Object(
  { actor: Type.String({ minLength: 1, maxLength: 200 }), note: Type.String({ minLength: 1, maxLength: 2000 }) },
  { additionalProperties: false },
);
export const SettleBody = Type.Object({ org: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false });
export const PayoutCheckBody = Type.Object({ org: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
