/**
 * Encryption at rest with the MASTER_KEY: AES-256-GCM for values that must be read back (callback
 * signing secrets, bank account numbers), and a keyed hash for equality look-ups of such values
 * without decrypting (e.g. "is this account number already a beneficiary?").
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;

export class Vault {
  private readonly encKey: Buffer;
  private readonly lookupKey: Buffer;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('master key must be 32 bytes');
    // Separate keys per purpose, derived from the one master key.
    this.encKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'tijori/encrypt/v1', 32));
    this.lookupKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'tijori/lookup/v1', 32));
  }

  /** version(1) | iv(12) | tag(16) | ciphertext; `context` binds the value to its owner row. */
  encrypt(plaintext: string, context: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encKey, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ct]);
  }

  decrypt(blob: Buffer, context: string): string {
    if (blob.length < 29 || blob[0] !== VERSION) throw new Error('unknown ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', this.encKey, blob.subarray(1, 13));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(blob.subarray(13, 29));
    return Buffer.concat([decipher.update(blob.subarray(29)), decipher.final()]).toString('utf8');
  }

  /** Deterministic keyed hash for look-ups; reveals equality only, to holders of the key. */
  lookupHash(value: string, scope: string): Buffer {
    return createHmac('sha256', this.lookupKey).update(scope).update('\0').update(value).digest();
  }
}
