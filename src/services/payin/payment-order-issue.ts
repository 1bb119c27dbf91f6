/**
 * What a new payment order is made of: its row (status by response mode, the chosen provider, the
 * encrypted callback secret) and, for an INTENT order or a payer's details, the collection the
 * provider issues for it with its payment window.
 */
import { AppError } from '../../domain/errors.js';
import { initialOrderStatus } from '../../domain/payment-order.js';
import { collectingMerchant, type CollectionIssued, type Provider, ProviderError } from '../../providers/provider.js';
import type { Vault } from '../../security/vault.js';
import type { NewPaymentOrder } from '../../store/repos/payment-order-creates-repo.js';
import type { ClientsService } from '../shared/clients.js';
import type { Principal } from '../shared/principal.js';
import type { CreatePaymentOrderInput } from './payment-order-input.js';
import { callbackSecretContext } from './payment-order-secrets.js';
import { orderIdFor } from './payment-order-view.js';

function providerUnavailable(err: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The payment provider is temporarily unavailable. Retry with the same Idempotency-Key.', { cause: err });
}

export function newOrderRow(
vault: Vault,
id: string,
  principal: Principal,
  input: CreatePaymentOrderInput,
  issued: (CollectionIssued & { expiresAt: Date }) | null,
  chosen: { accountId: string | null; provider: Provider },
): NewPaymentOrder {
  const status = initialOrderStatus(input.responseMode);
  return {
    id,
    order_id: orderIdFor(id),
    org_id: principal.orgId,
    client_pk: principal.pk,
    merchant_order_reference: input.merchantOrderReference,
    amount_paise: input.amountPaise,
    currency: 'INR',
    purpose: input.purpose,
    response_mode: input.responseMode,
    status,
    provider: chosen.provider.name,
    livemode: chosen.provider.livemode,
    provider_account_id: chosen.accountId,
    provider_status: issued ? 'PENDING' : 'NOT_INITIATED',
    provider_reference: issued?.providerReference ?? null,
    upi_uri: issued?.upiUri ?? null,
    customer_name: input.customer.name,
    customer_email: input.customer.email,
    customer_phone: input.customer.phone,
    customer_consent_at: input.customer.consent ? new Date() : null,
    expires_in_minutes: input.expiresInMinutes,
    expires_at: issued?.expiresAt ?? null,
    callback_url: input.callback?.url ?? null,
    callback_secret_enc: input.callback ? vault.encrypt(input.callback.secret, callbackSecretContext(id)) : null,
    return_url: input.returnUrl,
  };
}

export async function issueCollection(
clients: Pick<ClientsService, 'orgName'>,
provider: Provider,
  o: { orderId: string; orgId: string; accountId: string | null; amountPaise: number; purpose: string; expiresInMinutes: number; customer: { name: string | null; email: string | null; phone: string | null } },
): Promise<CollectionIssued & { expiresAt: Date }> {
  const orgName = await clients.orgName(o.orgId);
  const expiresAt = new Date(Date.now() + o.expiresInMinutes * 60_000);
  try {
    const issued = await provider.createCollection({
      reference: o.orderId,
      amountPaise: o.amountPaise,
      note: o.purpose,
      payeeName: orgName ?? 'Merchant',
      expiresAt,
      customer: o.customer,
      // Whose settlement covers the payment (the sandbox settles per merchant, contract §9): the
      // account that collects it, so its settlement is that account's.
      merchant: collectingMerchant(o.orgId, o.accountId),
    });
    return { ...issued, expiresAt };
  } catch (err) {
    if (err instanceof ProviderError) throw providerUnavailable(err);
    throw err;
  }
}

