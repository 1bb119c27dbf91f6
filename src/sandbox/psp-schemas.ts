/**
 * Request schemas of the sandbox PSP (psp-routes.ts). TypeBox, so that each route's handler gets
 * its types from the schema that validates it (the sandbox server keeps Fastify's default Ajv).
 */
import { Type } from '@sinclair/typebox';

const REFERENCE = '^[A-Za-z0-9]{1,35}$';

export const CreateCollectionBody = Type.Object(
  {
    reference: Type.String({ pattern: REFERENCE }),
    amount_paise: Type.Integer({ minimum: 100, maximum: 10_000_000_000 }),
    note: Type.String({ maxLength: 255 }),
    payee_name: Type.String({ minLength: 1, maxLength: 200 }),
    expires_at: Type.String({ maxLength: 40 }),
    merchant_category_code: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })),
    /** The collecting merchant (the service sends its organization id): whose settlement covers the payment. */
    merchant: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

/** `pay` reads utr/amount_paise, `fail` reads reason; both may skip the callback. */
export const DecideBody = Type.Object(
  {
    utr: Type.Optional(Type.String({ pattern: '^[0-9]{12}$' })),
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000_000 })),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    callback: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const CreateRefundBody = Type.Object(
  {
    reference: Type.String({ pattern: REFERENCE }),
    collection_reference: Type.String({ pattern: REFERENCE }),
    amount_paise: Type.Integer({ minimum: 1, maximum: 10_000_000_000 }),
  },
  { additionalProperties: false },
);

/** The reference in a path: any text (an unknown one is answered 404 NOT_FOUND by the route). */
export const ReferenceParams = Type.Object({ reference: Type.String() });

/** `POST /psp/settlements`: one merchant's, or (no body / no merchant) every merchant's. */
export const SettleBody = Type.Optional(Type.Object({ merchant: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false }));

export const ListSettlementsQuery = Type.Object(
  {
    merchant: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    from: Type.Optional(Type.String({ maxLength: 40 })),
    cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);

export const SettlementParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** `GET /psp/settlements/:id/lines`: the lines after `cursor` (a line id), `limit` at a time. */
export const SettlementLinesQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);
