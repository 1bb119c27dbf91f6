/**
 * tijori-sdk: a typed client for the Tijori merchant API.
 *
 *   const tijori = new Tijori({ baseUrl: 'https://pay.example.in/api/v1', clientId, clientSecret });
 *   const order = await tijori.paymentOrders.create({ amount_paise: 49_900, purpose: 'Order #1001' });
 *   redirect(order.checkout_url);
 */
export {
  ListPromise,
  Tijori,
  type CreateOptions,
  type CreatePaymentOrderRequest,
  type CreatePayoutRequest,
  type CreateRefundRequest,
  type ListQuery,
  type Page,
  type PaymentOrder,
  type PaymentOrderListQuery,
  type Payout,
  type PayoutCreated,
  type PayoutListQuery,
  type Refund,
  type RequestOptions,
  type Settlement,
  type SettlementLine,
  type SettlementLineListQuery,
  type SettlementListQuery,
  type ResponseMeta,
  type TijoriOptions,
  type WithResponse,
} from './client.js';
export { TijoriApiError, TijoriConnectionError, TijoriSignatureError, type ErrorCode, type FieldIssue } from './errors.js';
export { verifyCallback, type CallbackHeaders, type SigningScheme, type VerifyCallbackOptions, type WebhookEvent, type WebhookEventType } from './verify-callback.js';
export { verifyCallbackWebCrypto } from './verify-callback-web.js';
export type { components, paths, webhooks } from './generated/openapi.js';
