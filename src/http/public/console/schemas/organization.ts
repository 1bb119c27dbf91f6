/** Request schemas and OpenAPI entries of the organization settings page and the provider checks lists (../organization-api.ts). */
import { Type } from '@sinclair/typebox';
import { consoleOperation as op, strict } from './common.js';
import * as A from './answers.js';

export const OrgSettingsBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'what payers see as the payee' })),
    refund_review: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('required')], { description: 'contract §6: whether refunds wait for a reviewer' })),
  },
  strict,
);
export const CheckRefParams = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 100 }) });

/** The OpenAPI part of each route's schema (tag `console`). */
export const ORGANIZATION_OPS = {
  getSettings: op({
    data: A.OrgSettings, operationId: 'consoleGetOrganization',
    summary: "The organization's settings",
    access: 'read',
    description: '`data`: `{id, name, refund_review, created_at}`. Every role may read them.',
  }),
  updateSettings: op({
    data: A.OrgSettings, operationId: 'consoleUpdateOrganization',
    summary: "Change the organization's name or refund review",
    access: 'change',
    description: 'Admins only (org.manage). Audited as `organization.updated` in the same transaction. `data`: the settings after the change.',
  }),
  orderChecks: op({
    data: A.OrderChecks, operationId: 'consoleListOrderProviderChecks',
    summary: "A payment order's status checks with its provider",
    access: 'read',
    description:
      '`ref`: the order id or the id. `data`: `{checks, truncated}`; each check (oldest first, the newest 200) has `checked_at`, `reason` (live_check, expiry_check), `provider`, `asked` (our reference), ' +
      '`answer` (NOT_FOUND, PENDING, SUCCESS, FAILED, NO_ANSWER), `provider_status`, `utr`, `amount_paise`, `provider_reference`, `failure_reason`, `error`, `outcome` (what the service did), `duration_ms`.',
  }),
  payoutInquiries: op({
    data: A.PayoutInquiries, operationId: 'consoleListPayoutInquiries',
    summary: "A payout's status inquiries, attempt by attempt",
    access: 'read',
    description:
      '`ref`: the transaction id or the id. `data`: `{checks, truncated}`; each inquiry (oldest first) has `checked_at`, `attempt_no`, `provider`, `asked`, `answer` (NOT_FOUND, PENDING, SUCCESS, FAILED, REVERSED, NO_ANSWER), ' +
      '`mapped_status` (the attempt status it maps to), `bank_reference`, `utr`, `failure_reason`, `error`, `outcome`, `duration_ms`.',
  }),
};
