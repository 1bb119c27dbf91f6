/** The console answers' building blocks and the lists the console shows (answers.ts). */
import { type TSchema, Type } from '@sinclair/typebox';
import { BREAK_KINDS } from '../../../../domain/reconciliation.js';
import { PAYMENT_ORDER_STATUSES } from '../../../../domain/payment-order.js';
import { PAYOUT_STATUSES } from '../../../../domain/payout.js';
import { REFUND_STATUSES } from '../../../../domain/refund.js';
import { ROLES } from '../../../../services/console/roles.js';
import { Nullable, StringEnum } from '../../schemas/common.js';

/** An ISO 8601 time on the wire; the server may hand a Date, which JSON.stringify writes as one. */
export const Time = () => Type.Unsafe<string | Date>({ type: 'string', format: 'date-time' });
export const NullableTime = () => Type.Unsafe<string | Date | null>({ type: ['string', 'null'], format: 'date-time' });
export const Str = () => Type.String();
export const NStr = () => Nullable(Type.String());
export const Int = () => Type.Integer();
export const NInt = () => Nullable(Type.Integer());
export const Bool = () => Type.Boolean();
export const List = <T extends TSchema>(item: T) => Type.Array(item);

// ---- enums the console shows as lists (console/src/generated/openapi.ts exports their values) ----
export const ConsoleRole = StringEnum(ROLES, { description: 'the console roles (contract §5)' });
export const ConsoleUserStatus = StringEnum(['invited', 'active', 'disabled']);
export const ConsoleOrderStatus = StringEnum(PAYMENT_ORDER_STATUSES);
export const ConsolePayoutStatus = StringEnum(PAYOUT_STATUSES);
export const ConsoleRefundStatus = StringEnum(REFUND_STATUSES);
export const ConsoleBreakKind = StringEnum(BREAK_KINDS);
