import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { SecretCipher } from './secret-cipher.js';

/**
 * Personal data kept without its clear text. A value only ever compared for equality (a TCKN, an
 * erased person's phone on the opt-out list) is stored as a keyed hash: HMAC-SHA-256 under a key
 * derived from the deployment's PERSONAL_DATA_KEY, so a database dump alone cannot be turned
 * back into numbers by trying all 10^11 of them. A value that must be shown again is sealed with
 * AES-256-GCM under another derived key, bound to a context (the account id), by kit-core's one
 * SecretCipher.
 *
 * Both forms name the key that made them (`keyId`), so the key can be rotated: the new key hashes
 * and seals, the previous ones (PERSONAL_DATA_PREVIOUS_KEYS) still open what they sealed, and a
 * lookup asks for the hashes under every key (`hashes`) until the stored ones are rewritten.
 *
 * Formats (strings, so they fit any document field and any index):
 * - hash:   `pdh1.<keyId>.<base64url HMAC>`
 * - sealed: `pds1.<keyId>.<base64url iv>.<base64url ciphertext+tag>`
 */
export class PersonalDataProtector {
  private readonly hashKeys = new Map<string, Buffer>();
  private readonly cipher: SecretCipher;
  /** The id of the key that hashes and seals now. */
  readonly currentKeyId: string;

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== 32) throw new Error('a personal data key must be 32 bytes');
      const id = personalDataKeyId(key);
      this.hashKeys.set(id, derive(key, 'feedback personal data hash v1'));
    }
    this.cipher = new SecretCipher(current, previous, {
      settings: { key: 'PERSONAL_DATA_KEY', previousKeys: 'PERSONAL_DATA_PREVIOUS_KEYS' },
      keyId: personalDataKeyId,
      aesKey: (key) => derive(key, 'feedback personal data seal v1'),
    });
    this.currentKeyId = personalDataKeyId(current);
  }

  /**
   * The keyed hash of a value under the current key. `purpose` separates kinds of value
   * ("tckn", "phone"...), so one kind's hash never matches another's.
   */
  hash(value: string, purpose: string): string {
    return this.hashUnder(this.currentKeyId, value, purpose);
  }

  /** The value's hash under every configured key, the current one first: look up with `$in`. */
  hashes(value: string, purpose: string): string[] {
    return [...this.hashKeys.keys()].map((id) => this.hashUnder(id, value, purpose));
  }

  /** Whether a stored hash was made under an older key (a migration may rewrite it). */
  isStale(hashOrSealed: string): boolean {
    return keyIdIn(hashOrSealed) !== this.currentKeyId;
  }

  seal(value: string, context: string): string {
    const s = this.cipher.seal(value, context);
    return `pds1.${s.keyId}.${s.iv.toString('base64url')}.${Buffer.concat([s.ciphertext, s.tag]).toString('base64url')}`;
  }

  /** The clear value; throws when the key is not configured, or the value was altered or sealed for another context. */
  open(sealed: string, context: string): string {
    const [tag, keyId, iv, body] = sealed.split('.');
    if (tag !== 'pds1' || !keyId || !iv || !body) throw new Error('not a sealed personal data value');
    const bytes = Buffer.from(body, 'base64url');
    const ciphertext = bytes.subarray(0, Math.max(0, bytes.length - 16));
    return this.cipher.open({ keyId, iv: Buffer.from(iv, 'base64url'), ciphertext, tag: bytes.subarray(ciphertext.length) }, context);
  }

  private hashUnder(keyId: string, value: string, purpose: string): string {
    const mac = createHmac('sha256', this.hashKeys.get(keyId)!).update(`${purpose}\u0000${value}`).digest('base64url');
    return `pdh1.${keyId}.${mac}`;
  }
}

/** Sensitive whatever the configuration says: the Turkish national identity number. */
export const ALWAYS_SENSITIVE = 'tckn';

/**
 * The lower-cased names of the attributes kept only protected (SENSITIVE_CUSTOMER_ATTRIBUTES):
 * the TCKN always, and the configured names, compared without case.
 */
export function sensitiveNames(configured: readonly string[] = []): ReadonlySet<string> {
  return new Set([ALWAYS_SENSITIVE, ...configured.map((n) => n.toLowerCase())]);
}

/** Whether a stored string is one of this module's hashes (a migration tells done from to-do). */
export const isPersonalDataHash = (v: unknown): v is string => typeof v === 'string' && v.startsWith('pdh1.');
/** Whether a stored string is one of this module's sealed values. */
export const isPersonalDataSealed = (v: unknown): v is string => typeof v === 'string' && v.startsWith('pds1.');

/** Not a secret: a short hash of the key, so a stored value names the key that made it. */
export function personalDataKeyId(key: Buffer): string {
  return `k${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

const keyIdIn = (v: string) => v.split('.')[1];

const derive = (key: Buffer, info: string) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), info, 32));
