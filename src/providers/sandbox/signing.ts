/**
 * How the sandbox signs the callbacks it sends to the service (its own scheme, as a real PSP has
 * its own): header `X-Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
const TOLERANCE_SECONDS = 300;

/** The sandbox's signing key, derived from the master key so both ends agree without setup. */
export function sandboxSigningSecret(masterKey: Buffer): string {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'tijori/sandbox-provider/v1', 32)).toString('hex');
}

export function signSandboxBody(secret: string, body: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${nowSeconds}.${body}`).digest('hex');
  return `t=${nowSeconds},v1=${mac}`;
}

export function verifySandboxSignature(secret: string, body: string, header: string | undefined, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  const ts = Number(m[1]);
  if (Math.abs(nowSeconds - ts) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${ts}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2] as string, 'hex'));
}
