/**
 * Console request schemas whose checked shape a service takes as its input (the console's routes
 * keep the others beside them, as the route builds the service's input from them).
 */
import { type Static, Type } from '@sinclair/typebox';

/** `limit` of a console list: digits (query strings are not coerced); the route clamps the number. */
export const LimitText = Type.String({ pattern: '^[0-9]{1,3}$' });

/** A keyset page of a console list (the settlements and a settlement's lines). */
export const PageQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 200 })), limit: Type.Optional(LimitText) }, { additionalProperties: false });
export type ConsolePageQuery = Static<typeof PageQuery>;
