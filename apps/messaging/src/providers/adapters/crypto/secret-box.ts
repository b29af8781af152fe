import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError, errors } from '@feedback/kit-core';

/** A value sealed with AES-256-GCM, with the id of the key that sealed it. */
export interface Sealed {
  keyId: string;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/** Not a secret: a short hash of the key, so a document names the key that opens it. */
export function keyIdOf(key: Buffer): string {
  return `k${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/**
 * Seals and opens small secrets (an account's SMS provider) with AES-256-GCM under the
 * deployment's key (SMS_PROVIDER_SECRETS_KEY). Each sealed value carries its key's id, so a key
 * can be rotated: the new key seals, the previous ones (SMS_PROVIDER_SECRETS_PREVIOUS_KEYS) still
 * open what they sealed. `context` is bound to the ciphertext as associated data (the account
 * id): a sealed value copied into another account's document does not open.
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  /** The key that seals; undefined: the deployment has none, and nothing can be stored. */
  readonly currentKeyId: string | undefined;

  constructor(current: Buffer | undefined, previous: readonly Buffer[] = []) {
    for (const k of [current, ...previous]) {
      if (k === undefined) continue;
      if (k.length !== 32) throw new Error('an AES-256 key must be 32 bytes');
      this.keys.set(keyIdOf(k), k);
    }
    this.currentKeyId = current ? keyIdOf(current) : undefined;
  }

  seal(plaintext: string, context: string): Sealed {
    const keyId = this.currentKeyId;
    if (!keyId)
      throw errors.unavailable(
        'This deployment has no SMS_PROVIDER_SECRETS_KEY: an account SMS provider cannot be stored (its settings are only stored encrypted)',
      );
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(keyId)!, iv).setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId, iv, ciphertext, tag: cipher.getAuthTag() };
  }

  /** Throws when the key is not configured, or the value was altered or sealed for another context. */
  open(s: Sealed, context: string): string {
    const key = this.keys.get(s.keyId);
    if (!key) throw new SecretKeyMissingError(s.keyId);
    const decipher = createDecipheriv('aes-256-gcm', key, s.iv, { authTagLength: 16 }).setAAD(Buffer.from(context));
    decipher.setAuthTag(s.tag);
    return Buffer.concat([decipher.update(s.ciphertext), decipher.final()]).toString('utf8');
  }
}

/** A configuration problem the operator can fix (the key was dropped too early), hence UNAVAILABLE, not a bug. */
export class SecretKeyMissingError extends AppError {
  override name = 'SecretKeyMissingError';
  constructor(readonly keyId: string) {
    super(
      'unavailable',
      `Sealed with key ${keyId}, which is neither SMS_PROVIDER_SECRETS_KEY nor one of SMS_PROVIDER_SECRETS_PREVIOUS_KEYS`,
    );
  }
}
