/** Request schemas of the console's "Provider accounts" page and the provider anomaly lists (../providers-api.ts). */
import { Type } from '@sinclair/typebox';
import { consoleOperation as op, LimitText, strict } from './common.js';
import * as A from './answers.js';

export const AddProviderAccountBody = Type.Object(
  {
    provider: Type.String({ maxLength: 20, description: 'sandbox, cashfree or razorpayx' }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    // Checked whole by the provider's own rules (src/providers/accounts/config.ts), as `tijori provider add` does.
    config: Type.Object({}, { additionalProperties: true, description: 'the config file of contract §8 (its credentials are stored encrypted and never shown again)' }),
  },
  strict,
);
export const CollectionsAccountBody = Type.Object({ provider_account_id: Type.String({ maxLength: 64 }) }, strict);
export const AnomalyQuery = Type.Object(
  {
    provider_account_id: Type.Optional(Type.String({ maxLength: 64 })),
    payment_order: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'an order_id: the anomalies about that order' })),
    payout: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'a transaction_id: the anomalies about that payout' })),
    cursor: Type.Optional(Type.String({ maxLength: 64 })),
    limit: Type.Optional(LimitText),
  },
  strict,
);

/** The OpenAPI part of each route's schema (tag `console`); permissions in docs/console.md. */
export const PROVIDER_OPS = {
  listAccounts: op({
    data: A.ProviderAccounts, operationId: 'consoleListProviderAccounts',
    summary: "The organization's provider accounts (admins)",
    access: 'read',
    description:
      '`data`: `{collections_provider_account_id, accounts}`; each account with provider, name, livemode, `callback_url` (the intake address to register at the provider), ' +
      '`serves_collections`, the `payout_routes` using it and `created_at`. Never a credential.',
  }),
  addAccount: op({
    data: A.AddedProviderAccount, operationId: 'consoleAddProviderAccount',
    summary: 'Add a provider account (admins; as `tijori provider add`)',
    access: 'change',
    status: 201,
    description: '`data`: `{provider_account_id, provider, name, livemode, callback_url}`. The config is validated as the CLI does; never shown again.',
  }),
  useForCollections: op({
    data: A.ProviderAccount, operationId: 'consoleUseProviderAccountForCollections',
    summary: "Choose the account of the organization's new payment orders (admins; as `tijori collections use`)",
    access: 'change',
    description: '`data`: the chosen account.',
  }),
  listAnomalies: op({
    data: A.List(A.Anomaly), operationId: 'consoleListProviderAnomalies',
    summary: 'What providers sent that could not be used (admins and developers)',
    access: 'read',
    description:
      'Unknown statuses, successes without a UTR, amounts in another format, bodies that do not parse: recorded, never applied. At most one of `provider_account_id`, ' +
      '`payment_order`, `payout`. `data`: one page, newest first, each `{id, provider_account_id, provider, kind, operation, resource, excerpt, created_at}`; `next_cursor`.',
  }),
};
