/** HTTP client of the sandbox PSP (collections). Implemented with the PayIn issue. */
import type { CollectionIssued, CollectionRequest, CollectionStatus, ProviderCallback } from '../provider.js';

export function createPspClient(opts: { baseUrl: () => string; timeoutMs: number }) {
  void opts;
  return {
    async createCollection(_req: CollectionRequest): Promise<CollectionIssued> {
      throw new Error('sandbox PSP client not implemented yet');
    },
    async collectionStatus(_reference: string): Promise<CollectionStatus> {
      throw new Error('sandbox PSP client not implemented yet');
    },
  };
}

export function parsePspCallback(_body: Record<string, unknown>): ProviderCallback | null {
  return null;
}
