/**
 * Encryption at rest with the MASTER_KEY: AES-256-GCM for values that must be read back (callback
 * signing secrets, bank account numbers), and a keyed hash for equality look-ups of such values
 * without decrypting (e.g. "is this account number already a beneficiary?").
 *
 * Key rotation (docs/operations.md, "Rotating the master key"): with MASTER_KEY_PREVIOUS set, values
 * are written under MASTER_KEY and read under either key (the ciphertext format carries no key id,
 * so the previous release, which knows one key, keeps reading what it wrote; a value is tried under
 * the current key first). `tijori keys rotate-master` then re-encrypts every column of
 * src/services/keys/encrypted-columns.ts. The look-up key is derived from LOOKUP_KEY when set, else
 * from MASTER_KEY_PREVIOUS while a rotation runs, else from MASTER_KEY: keyed look-ups (beneficiary
 * accounts, checkout links) keep their values across a rotation once LOOKUP_KEY pins the old key.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;

export interface VaultKeys {
  /** MASTER_KEY_PREVIOUS: still accepted for decryption while a rotation runs. */
  previous?: Buffer | undefined;
  /** LOOKUP_KEY: the key the look-up hashes are derived from, when pinned. */
  lookup?: Buffer | undefined;
}

function check(key: Buffer, name: string): Buffer {
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes`);
  return key;
}

const encKeyOf = (master: Buffer) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'tijori/encrypt/v1', 32));

export class Vault {
  private readonly encKey: Buffer;
  private readonly previousEncKey: Buffer | undefined;
  private readonly lookupKey: Buffer;

  constructor(masterKey: Buffer, keys: VaultKeys = {}) {
    check(masterKey, 'master key');
    // Separate keys per purpose, derived from the one master key.
    this.encKey = encKeyOf(masterKey);
    this.previousEncKey = keys.previous ? encKeyOf(check(keys.previous, 'previous master key')) : undefined;
    const lookupBase = keys.lookup ? check(keys.lookup, 'lookup key') : (keys.previous ?? masterKey);
    this.lookupKey = Buffer.from(hkdfSync('sha256', lookupBase, Buffer.alloc(0), 'tijori/lookup/v1', 32));
  }

  /** Whether a previous master key is configured (a rotation may be running). */
  get hasPreviousKey(): boolean {
    return this.previousEncKey !== undefined;
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
    return this.open(blob, context).plaintext;
  }

  /**
   * Decrypts under the current key, else the previous one; `current` says which. Throws when
   * neither key (or the context) fits.
   */
  open(blob: Buffer, context: string): { plaintext: string; current: boolean } {
    if (blob.length < 29 || blob[0] !== VERSION) throw new Error('unknown ciphertext format');
    try {
      return { plaintext: decryptWith(this.encKey, blob, context), current: true };
    } catch (err) {
      if (!this.previousEncKey) throw err;
      return { plaintext: decryptWith(this.previousEncKey, blob, context), current: false };
    }
  }

  /**
   * A public fingerprint of the look-up key (an HMAC of a constant: reveals nothing of the key),
   * recorded by a master key rotation so that a start with another look-up key is refused.
   */
  lookupFingerprint(): string {
    return createHmac('sha256', this.lookupKey).update('tijori/lookup-key-fingerprint').digest('hex').slice(0, 16);
  }

  /** Deterministic keyed hash for look-ups; reveals equality only, to holders of the key. */
  lookupHash(value: string, scope: string): Buffer {
    return createHmac('sha256', this.lookupKey).update(scope).update('\0').update(value).digest();
  }
}

function decryptWith(key: Buffer, blob: Buffer, context: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(1, 13));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(blob.subarray(13, 29));
  return Buffer.concat([decipher.update(blob.subarray(29)), decipher.final()]).toString('utf8');
}
