/**
 * verifyCallback for runtimes with Web Crypto and no node:crypto (Cloudflare Workers, Vercel Edge,
 * Deno, browsers' service workers): the same rules (webhook-rules.ts), asynchronous because
 * `crypto.subtle` is. Import it from `tijori-sdk/web`, which loads nothing from `node:`.
 */
import { anyMatch, type CallbackHeaders, finish, prepare, type VerifyCallbackOptions, type WebhookEvent } from './webhook-rules.js';

export type { CallbackHeaders, SigningScheme, VerifyCallbackOptions, WebhookEvent, WebhookEventType } from './webhook-rules.js';
export { TijoriSignatureError } from './errors.js';

export async function verifyCallbackWebCrypto(
  rawBody: string | Uint8Array,
  headers: CallbackHeaders,
  secret: string | readonly string[],
  options: VerifyCallbackOptions = {},
): Promise<WebhookEvent> {
  const check = prepare(rawBody, headers, secret, options);
  const digests = await Promise.all(
    check.keys.map(async (raw) => {
      const key = await crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      return new Uint8Array(await crypto.subtle.sign('HMAC', key, check.signed as Uint8Array<ArrayBuffer>));
    }),
  );
  return finish(check, anyMatch(check, digests));
}
