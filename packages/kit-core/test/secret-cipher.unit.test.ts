import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretCipher, SecretKeyMissingError, secretKeyId, type SealedSecret } from '../src/secret-cipher.js';

const settings = { key: 'TEST_SECRET_KEY', previousKeys: 'TEST_SECRET_PREVIOUS_KEYS', what: 'a test secret' };
const cipherOf = (current: Buffer | undefined, previous: Buffer[] = []) => new SecretCipher(current, previous, { settings });

/** Values sealed by the two ciphers the services had before this one, as their documents hold them (bytes in base64). */
const KEY_7 = Buffer.alloc(32, 7);
const KEY_9 = Buffer.alloc(32, 9);
const bytes = (o: { keyId: string; iv: string; ciphertext: string; tag: string }): SealedSecret => ({
  keyId: o.keyId,
  iv: Buffer.from(o.iv, 'base64'),
  ciphertext: Buffer.from(o.ciphertext, 'base64'),
  tag: Buffer.from(o.tag, 'base64'),
});
/** webhooks' AesSecretCipher, key KEY_7, context the endpoint id. */
const WEBHOOKS_SEALED = bytes({
  keyId: 'k4bb06f8e4e3a7715',
  iv: 'k1FKhgxqArHsJm4e',
  ciphertext: 'yIVDwq0+g4CP',
  tag: '33pozcF/2GNCRasBu8cWAQ==',
});
/** messaging's SecretBox, key KEY_9, context the account's. */
const MESSAGING_SEALED = bytes({
  keyId: 'k8c0cc17a04942cc4',
  iv: '8iErPRtYu6m0pxKn',
  ciphertext: 'LESs1aEGAm6IKsHVcVj0yDtlSA==',
  tag: 'P3wjWv+uFaYzeXnGsTnKlA==',
});

describe('SecretCipher (AES-256-GCM with key ids)', () => {
  const key = randomBytes(32);

  it('opens what it sealed, with a fresh IV each time, and names the sealing key', () => {
    const c = cipherOf(key);
    const a = c.seal('{"password":"pa55"}', 'acc-1');
    const b = c.seal('{"password":"pa55"}', 'acc-1');
    expect(a.keyId).toBe(secretKeyId(key));
    expect(a.iv.equals(b.iv)).toBe(false);
    expect(a.ciphertext.toString('latin1')).not.toContain('pa55');
    expect(c.open(a, 'acc-1')).toBe('{"password":"pa55"}');
    expect(c.isStale(a)).toBe(false);
  });

  it('refuses a tampered value, or one sealed for another context', () => {
    const c = cipherOf(key);
    const a = c.seal('secret', 'acc-1');
    expect(() => c.open(a, 'acc-2')).toThrow(/authenticate/);
    const flipped = Buffer.from(a.ciphertext);
    flipped[0]! ^= 1;
    expect(() => c.open({ ...a, ciphertext: flipped }, 'acc-1')).toThrow(/authenticate/);
    const tag = Buffer.from(a.tag);
    tag[15]! ^= 1;
    expect(() => c.open({ ...a, tag }, 'acc-1')).toThrow(/authenticate/);
    // A forged key id: the named key does not authenticate what another key sealed.
    const other = cipherOf(randomBytes(32));
    expect(() => other.open({ ...a, keyId: other.currentKeyId! }, 'acc-1')).toThrow(/authenticate/);
  });

  it('rotates: the previous key still opens, new values name the current key', () => {
    const old = cipherOf(key).seal('secret', 'c');
    const next = randomBytes(32);
    const rotated = cipherOf(next, [key]);
    expect(rotated.open(old, 'c')).toBe('secret');
    expect(rotated.isStale(old)).toBe(true);
    const fresh = rotated.seal('x', 'c');
    expect(fresh.keyId).toBe(secretKeyId(next));
    expect(fresh.keyId).not.toBe(old.keyId);
    // Once the old key is dropped: unavailable, naming both variables.
    const dropped = cipherOf(next);
    expect(() => dropped.open(old, 'c')).toThrow(SecretKeyMissingError);
    expect(() => dropped.open(old, 'c')).toThrow(/no longer has \(neither TEST_SECRET_KEY nor one of TEST_SECRET_PREVIOUS_KEYS\)/);
    try {
      dropped.open(old, 'c');
    } catch (err) {
      expect(err).toMatchObject({ kind: 'unavailable', keyId: old.keyId });
    }
  });

  it('without a current key nothing is sealed (unavailable, naming the variable), previous keys still open', () => {
    const c = cipherOf(undefined, [KEY_9]);
    expect(c.currentKeyId).toBeUndefined();
    expect(() => c.seal('x', 'c')).toThrow(/no TEST_SECRET_KEY: a test secret cannot be stored/);
    try {
      c.seal('x', 'c');
    } catch (err) {
      expect(err).toMatchObject({ kind: 'unavailable' });
    }
    expect(c.open(MESSAGING_SEALED, 'account_sms_providers:acc-1')).toBe('{"password":"pa55"}');
  });

  it('reads what the services stored before: webhooks endpoint secrets and messaging provider settings', () => {
    expect(cipherOf(KEY_7).open(WEBHOOKS_SEALED, 'ep-1')).toBe('whsec_old');
    expect(cipherOf(randomBytes(32), [KEY_9, KEY_7]).open(MESSAGING_SEALED, 'account_sms_providers:acc-1')).toBe('{"password":"pa55"}');
    // Bytes as the MongoDB driver hands them back (a Uint8Array view, not a Buffer).
    const asRead = { ...WEBHOOKS_SEALED, ciphertext: new Uint8Array(WEBHOOKS_SEALED.ciphertext), tag: new Uint8Array(WEBHOOKS_SEALED.tag) };
    expect(cipherOf(KEY_7).open(asRead, 'ep-1')).toBe('whsec_old');
  });

  it('takes 32-byte keys only', () => {
    expect(() => cipherOf(randomBytes(16))).toThrow(/32 bytes/);
    expect(() => cipherOf(key, [randomBytes(31)])).toThrow(/32 bytes/);
  });
});
