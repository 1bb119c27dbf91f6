/**
 * The adapter's check of the sandbox's callback signature (the sandbox's documented scheme:
 * header `X-Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`).
 * Written on this side of the wire, as for any provider: the signing half lives in the sandbox
 * (src/sandbox/signing.ts), which no adapter code imports.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
const TOLERANCE_SECONDS = 300;

export function verifySandboxSignature(secret: string, body: string, header: string | undefined, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  const ts = Number(m[1]);
  if (Math.abs(nowSeconds - ts) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${ts}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2] as string, 'hex'));
}
