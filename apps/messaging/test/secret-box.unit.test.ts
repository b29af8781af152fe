import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyIdOf, SecretBox, SecretKeyMissingError } from '../src/providers/adapters/crypto/secret-box.js';
import { loadEnv } from '../src/env.js';

describe('sealing provider settings (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('opens what it sealed, only with the same key and context, and a fresh IV each time', () => {
    const box = new SecretBox(key);
    const a = box.seal('{"password":"pa55"}', 'account_sms_providers:acc-1');
    const b = box.seal('{"password":"pa55"}', 'account_sms_providers:acc-1');
    expect(a.keyId).toBe(keyIdOf(key));
    expect(a.iv.equals(b.iv)).toBe(false);
    expect(a.ciphertext.toString('latin1')).not.toContain('pa55');
    expect(box.open(a, 'account_sms_providers:acc-1')).toBe('{"password":"pa55"}');

    // Another account's document: the associated data differs, so it does not open.
    expect(() => box.open(a, 'account_sms_providers:acc-2')).toThrow(/authenticate/);
    // Altered: one flipped bit of ciphertext or tag.
    const flipped = Buffer.from(a.ciphertext);
    flipped[0]! ^= 1;
    expect(() => box.open({ ...a, ciphertext: flipped }, 'account_sms_providers:acc-1')).toThrow(/authenticate/);
    expect(() => box.open({ ...a, tag: a.tag.subarray(0, 4) }, 'account_sms_providers:acc-1')).toThrow();
  });

  it('another key cannot open it; a previous key still can, while the current one seals', () => {
    const sealed = new SecretBox(key).seal('secret', 'c');
    const other = new SecretBox(randomBytes(32));
    expect(() => other.open(sealed, 'c')).toThrow(SecretKeyMissingError);
    // A document naming the other key's id (forged or mixed up): that key does not authenticate it.
    expect(() => other.open({ ...sealed, keyId: other.currentKeyId! }, 'c')).toThrow(/authenticate/);

    const rotated = new SecretBox(randomBytes(32), [key]);
    expect(rotated.open(sealed, 'c')).toBe('secret');
    expect(rotated.seal('x', 'c').keyId).toBe(rotated.currentKeyId);
    expect(rotated.currentKeyId).not.toBe(keyIdOf(key));
  });

  it('without a key nothing is sealed: UNAVAILABLE naming the variable', () => {
    const box = new SecretBox(undefined);
    expect(box.currentKeyId).toBeUndefined();
    expect(() => box.seal('secret', 'c')).toThrow(/SMS_PROVIDER_SECRETS_KEY/);
    try {
      box.seal('secret', 'c');
    } catch (err) {
      expect(err).toMatchObject({ kind: 'unavailable' });
    }
  });

  it('SMS_PROVIDER_SECRETS_KEY must be 32 bytes of base64; empty is unset', () => {
    const good = key.toString('base64');
    // What messaging requires besides (its personal-data key).
    const required = { PERSONAL_DATA_KEY: randomBytes(32).toString('base64') };
    expect(loadEnv({ ...required, SMS_PROVIDER_SECRETS_KEY: good }).SMS_PROVIDER_SECRETS_KEY?.equals(key)).toBe(true);
    expect(loadEnv({ ...required, SMS_PROVIDER_SECRETS_KEY: key.toString('base64url') }).SMS_PROVIDER_SECRETS_KEY?.equals(key)).toBe(true);
    expect(loadEnv({ ...required, SMS_PROVIDER_SECRETS_KEY: '' }).SMS_PROVIDER_SECRETS_KEY).toBeUndefined();
    expect(loadEnv({ ...required }).SMS_PROVIDER_SECRETS_KEY).toBeUndefined();
    expect(() => loadEnv({ ...required, SMS_PROVIDER_SECRETS_KEY: randomBytes(16).toString('base64') })).toThrow(
      /SMS_PROVIDER_SECRETS_KEY: must be 32 bytes/,
    );
    expect(() => loadEnv({ ...required, SMS_PROVIDER_SECRETS_KEY: 'not base64 at all, but forty-four characters' })).toThrow(
      /SMS_PROVIDER_SECRETS_KEY/,
    );
    expect(
      loadEnv({ ...required, SMS_PROVIDER_SECRETS_PREVIOUS_KEYS: `${good}, ${randomBytes(32).toString('base64')}` })
        .SMS_PROVIDER_SECRETS_PREVIOUS_KEYS,
    ).toHaveLength(2);
    expect(() => loadEnv({ ...required, SMS_PROVIDER_SECRETS_PREVIOUS_KEYS: `${good},short` })).toThrow(
      /SMS_PROVIDER_SECRETS_PREVIOUS_KEYS/,
    );
  });
});
