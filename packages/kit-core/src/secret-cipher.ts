import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError, errors } from './errors.js';

/** A value sealed with AES-256-GCM, with the id of the key that sealed it (read back from a store as any bytes). */
export interface SealedSecret<Bytes extends Uint8Array = Buffer> {
  keyId: string;
  iv: Bytes;
  ciphertext: Bytes;
  tag: Bytes;
}

/** The variables a deployment sets the keys with: error messages name them, so an operator knows what to fix. */
export interface SecretKeySettings {
  /** The current key's variable, e.g. WEBHOOKS_SECRET_KEY. */
  key: string;
  /** The previous keys' variable, e.g. WEBHOOKS_SECRET_PREVIOUS_KEYS. */
  previousKeys: string;
  /** What cannot be stored without a current key, for the message ("an account SMS provider"). */
  what?: string;
}

export interface SecretCipherOptions {
  settings: SecretKeySettings;
  /** A key's id (default `secretKeyId`); a caller with ids of its own (PersonalDataProtector) passes them. */
  keyId?: (key: Buffer) => string;
  /** The AES key used for a configured key (default the key itself; PersonalDataProtector derives one). */
  aesKey?: (key: Buffer) => Buffer;
}

/** Not a secret: a short hash of the key, so a stored value names the key that opens it. */
export function secretKeyId(key: Buffer): string {
  return `k${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/**
 * The one way a service seals a small secret it must read back (a webhook endpoint's signing
 * secret, an account's SMS provider settings, a personal data value shown again): AES-256-GCM, a
 * 12-byte random IV, a 16-byte tag. Each sealed value names its key (`keyId`), so keys rotate: the
 * current key seals, the previous ones still open what they sealed until it is rewritten.
 * `context` is bound as associated data (an endpoint id, an account id): a sealed value copied into
 * another document does not open.
 *
 * Errors: a value sealed under a key the deployment no longer has, or a seal without a current
 * key, is `unavailable` (SecretKeyMissingError, an AppError): the operator fixes it by restoring the
 * key, it is not a bug. A value altered or sealed for another context fails authentication (a
 * plain Error, `internal` at the edge): the data is wrong, no setting helps.
 */
export class SecretCipher {
  private readonly keys = new Map<string, Buffer>();
  /** The key that seals; undefined: the deployment has none, and nothing can be sealed. */
  readonly currentKeyId: string | undefined;
  private readonly settings: SecretKeySettings;

  constructor(current: Buffer | undefined, previous: readonly Buffer[], o: SecretCipherOptions) {
    const idOf = o.keyId ?? secretKeyId;
    for (const k of [current, ...previous]) {
      if (k === undefined) continue;
      if (k.length !== 32) throw new Error('an AES-256 key must be 32 bytes');
      this.keys.set(idOf(k), o.aesKey ? o.aesKey(k) : k);
    }
    this.currentKeyId = current ? idOf(current) : undefined;
    this.settings = o.settings;
  }

  seal(plaintext: string, context: string): SealedSecret {
    const keyId = this.currentKeyId;
    if (!keyId) {
      const what = this.settings.what ?? 'a secret';
      throw errors.unavailable(`This deployment has no ${this.settings.key}: ${what} cannot be stored (it is only stored encrypted)`);
    }
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(keyId)!, iv).setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId, iv, ciphertext, tag: cipher.getAuthTag() };
  }

  /** The clear value; throws when the key is not configured, or the value was altered or sealed for another context. */
  open(s: SealedSecret<Uint8Array>, context: string): string {
    const key = this.keys.get(s.keyId);
    if (!key) throw new SecretKeyMissingError(s.keyId, this.settings);
    const decipher = createDecipheriv('aes-256-gcm', key, s.iv, { authTagLength: 16 }).setAAD(Buffer.from(context));
    decipher.setAuthTag(s.tag);
    return Buffer.concat([decipher.update(s.ciphertext), decipher.final()]).toString('utf8');
  }

  /** Whether a value was sealed under an older key (a migration may rewrite it). */
  isStale(s: Pick<SealedSecret, 'keyId'>): boolean {
    return s.keyId !== this.currentKeyId;
  }
}

/** A configuration problem the operator can fix (the key was dropped too early), hence UNAVAILABLE, not a bug. */
export class SecretKeyMissingError extends AppError {
  override name = 'SecretKeyMissingError';
  constructor(
    readonly keyId: string,
    settings: SecretKeySettings,
  ) {
    super(
      'unavailable',
      `Sealed with key ${keyId}, which this deployment no longer has (neither ${settings.key} nor one of ${settings.previousKeys})`,
    );
  }
}
