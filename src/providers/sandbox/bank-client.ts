/** HTTP client of the sandbox bank (payouts). Implemented with the PayOut issue. */
import type { PayoutRequest, PayoutStatus, PayoutSubmitResult, ProviderCallback } from '../provider.js';

export function createBankClient(opts: { baseUrl: () => string; timeoutMs: number }) {
  void opts;
  return {
    async submitPayout(_req: PayoutRequest): Promise<PayoutSubmitResult> {
      throw new Error('sandbox bank client not implemented yet');
    },
    async payoutStatus(_reference: string): Promise<PayoutStatus> {
      throw new Error('sandbox bank client not implemented yet');
    },
  };
}

export function parseBankCallback(_body: Record<string, unknown>): ProviderCallback | null {
  return null;
}
