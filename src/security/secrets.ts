/**
 * Generation and storage of secrets. API client secrets are only ever stored as SHA-256 hashes
 * (they carry 256 bits of entropy, so a slow KDF buys nothing) and compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'abcdefghijkmnopqrstuvwxyz23456789'; // no 0/1/l: ids are read aloud and copied

function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** Public identifier of an API client, sent in X-Service-Client-Id. */
export function newClientId(): string {
  return `tj_client_${randomToken(20)}`;
}

/** 32 random bytes, base64url, with a prefix that secret scanners can recognise. */
export function newClientSecret(): string {
  return `tj_secret_${randomBytes(32).toString('base64url')}`;
}

/**
 * Signing secret of a callback destination (shown once, stored encrypted): `whsec_` + standard
 * Base64 of 32 random bytes, so it also serves the Standard Webhooks scheme (contract §11).
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const candidate = hashSecret(secret);
  return candidate.length === storedHash.length && timingSafeEqual(candidate, storedHash);
}

/** Constant-time comparison of two strings of possibly different length. */
export function safeEqualStrings(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
