/**
 * Every named component of the merchant API, in the order they are added to the public app (a
 * component is added before any schema that refers to it). One line per resource module: a new
 * resource (refunds, lists) adds its module and its line here.
 */
import type { Component } from './common.js';
import { ERROR_COMPONENTS } from './errors.js';
import { PAYMENT_ORDER_COMPONENTS } from './payment-orders.js';
import { PAYOUT_COMPONENTS } from './payouts.js';
import { REFUND_COMPONENTS } from './refunds.js';
import { SETTLEMENT_COMPONENTS } from './settlements.js';
import { WEBHOOK_EVENT_SCHEMAS } from './webhooks.js';

export const API_COMPONENTS: Component[] = [...ERROR_COMPONENTS, ...PAYMENT_ORDER_COMPONENTS, ...PAYOUT_COMPONENTS, ...REFUND_COMPONENTS, ...SETTLEMENT_COMPONENTS, ...WEBHOOK_EVENT_SCHEMAS];
