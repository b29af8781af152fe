import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SecretCipher } from '../../domain/ports.js';
import type { SealedSecret } from '../../domain/webhook.js';

const keyIdOf = (key: Buffer) => `k${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

/**
 * Endpoint secrets at rest, AES-256-GCM under WEBHOOKS_SECRET_KEY (they must be read back to sign,
 * so they cannot be hashed). The endpoint id is the associated data: a sealed secret copied to
 * another endpoint's document does not open. Previous keys still open what they sealed.
 */
export class AesSecretCipher implements SecretCipher {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const k of [current, ...previous]) {
      if (k.length !== 32) throw new Error('an AES-256 key must be 32 bytes');
      this.keys.set(keyIdOf(k), k);
    }
    this.currentId = keyIdOf(current);
  }

  seal(plaintext: string, context: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv).setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId: this.currentId, iv, ciphertext, tag: cipher.getAuthTag() };
  }

  open(s: SealedSecret, context: string): string {
    const key = this.keys.get(s.keyId);
    if (!key) throw new Error(`secret sealed with key ${s.keyId}, which is neither WEBHOOKS_SECRET_KEY nor a previous key`);
    const decipher = createDecipheriv('aes-256-gcm', key, s.iv, { authTagLength: 16 }).setAAD(Buffer.from(context));
    decipher.setAuthTag(s.tag);
    return Buffer.concat([decipher.update(s.ciphertext), decipher.final()]).toString('utf8');
  }
}
