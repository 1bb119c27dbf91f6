/**
 * How the sandbox signs the callbacks it sends to the service (its own scheme, as a real PSP has
 * its own): header `X-Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`.
 * The service's side of the scheme (verification) is the adapter's own code,
 * src/providers/sandbox/signature.ts, as it would be for any provider.
 */
import { createHmac, hkdfSync } from 'node:crypto';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/**
 * The sandbox's signing key, derived from the master key so both ends agree without setup: the
 * composition root (src/service.ts) hands it to the adapter, as an operator would copy a real
 * provider's webhook secret into its configuration.
 */
export function sandboxSigningSecret(masterKey: Buffer): string {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'tijori/sandbox-provider/v1', 32)).toString('hex');
}

export function signSandboxBody(secret: string, body: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${nowSeconds}.${body}`).digest('hex');
  return `t=${nowSeconds},v1=${mac}`;
}
