/**
 * Verifies a signed callback (API §6.2, docs/callbacks.md "Verifying: the rules"; or Standard
 * Webhooks, contract §11) with node:crypto. For edge runtimes without node:crypto:
 * verifyCallbackWebCrypto (`tijori-sdk/web`). Storing processed event ids to reject replays and
 * retrieving the order before fulfilment remain the receiver's job.
 */
import { createHmac } from 'node:crypto';
import { anyMatch, type CallbackHeaders, finish, prepare, type VerifyCallbackOptions, type WebhookEvent } from './webhook-rules.js';

export type { CallbackHeaders, SigningScheme, VerifyCallbackOptions, WebhookEvent, WebhookEventType } from './webhook-rules.js';

/**
 * Returns the verified event, or throws TijoriSignatureError (answer 401). `rawBody` must be the
 * exact bytes received, never re-serialised JSON. `secret`: the destination's secret, or several
 * during a rotation (contract §11: the old and the new one); any of them may match.
 */
export function verifyCallback(rawBody: string | Uint8Array, headers: CallbackHeaders, secret: string | readonly string[], options: VerifyCallbackOptions = {}): WebhookEvent {
  const check = prepare(rawBody, headers, secret, options);
  const digests = check.keys.map((key) => new Uint8Array(createHmac('sha256', key).update(check.signed).digest()));
  return finish(check, anyMatch(check, digests));
}
