/** Request schemas of the console's payment-order and payout pages (../money-api.ts). */
import { Type } from '@sinclair/typebox';
import { consoleCsvOperation as csv, consoleOperation as op, ISO_TIME, LimitText } from './common.js';
import * as A from './answers.js';

export const ListQuery = Type.Object(
  {
    status: Type.Optional(Type.String({ maxLength: 40 })),
    created_from: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    created_to: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(LimitText),
  },
  { additionalProperties: false },
);
export const RefParams = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 100 }) });

const LIST = 'The filters of contract §7 and `search` (an id, a reference or a UTR). `data`: one page, newest first; `next_cursor` for the next, older page.';
const EXPORT = 'The filters of the list; every matching row (no pages). A bad filter is 422 in the envelope before the file starts.';
/** The OpenAPI part of each route's schema (tag `console`); every role may read these. */
export const MONEY_OPS = {
  listOrders: op({ data: A.List(A.OrderRow), operationId: 'consoleListPaymentOrders', summary: 'The payment orders of the organization', access: 'read', description: LIST }),
  exportOrders: csv({ operationId: 'consoleExportPaymentOrders', summary: 'The payment orders matching the filters, as CSV', description: EXPORT }),
  getOrder: op({ data: A.OrderDetail, operationId: 'consoleGetPaymentOrder', summary: 'One payment order with its history and callbacks', access: 'read', description: '`ref`: the order id or the id. `data`: the order.' }),
  listPayouts: op({ data: A.List(A.PayoutRow), operationId: 'consoleListPayouts', summary: 'The payouts of the organization', access: 'read', description: LIST }),
  exportPayouts: csv({ operationId: 'consoleExportPayouts', summary: 'The payouts matching the filters, as CSV', description: EXPORT }),
  getPayout: op({ data: A.PayoutDetail, operationId: 'consoleGetPayout', summary: 'One payout with its attempts and callbacks', access: 'read', description: '`ref`: the transaction id or the id. `data`: the payout.' }),
};
