/** Request schemas of the sandbox bank (bank-routes.ts), in TypeBox so handlers take their types from them. */
import { Type } from '@sinclair/typebox';

export const SubmitBody = Type.Object({
  reference: Type.String({ pattern: '^[A-Za-z0-9]{1,35}$' }),
  amount_paise: Type.Integer({ minimum: 1 }),
  mode: Type.Unsafe<'IMPS' | 'NEFT' | 'RTGS'>({ type: 'string', enum: ['IMPS', 'NEFT', 'RTGS'] }),
  beneficiary: Type.Object({
    name: Type.String({ minLength: 1 }),
    account_number: Type.String({ pattern: '^[0-9]{8,20}$' }),
    ifsc: Type.String({ pattern: '^[A-Z]{4}0[A-Z0-9]{6}$' }),
  }),
  // `type: [string, null]` (not anyOf), as the bank has always declared it.
  remarks: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'] })),
});
export type SubmitBody = typeof SubmitBody.static;
