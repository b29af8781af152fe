import { SecretCipher, SecretKeyMissingError, secretKeyId, type SealedSecret } from '@feedback/kit-core';

/** A value sealed with AES-256-GCM, with the id of the key that sealed it. */
export type Sealed = SealedSecret;
export { SecretKeyMissingError };
/** Not a secret: a short hash of the key, so a document names the key that opens it. */
export const keyIdOf = secretKeyId;

/**
 * Seals and opens an account's SMS provider settings with kit-core's SecretCipher (AES-256-GCM,
 * key ids) under the deployment's key (SMS_PROVIDER_SECRETS_KEY): the new key seals, the previous
 * ones (SMS_PROVIDER_SECRETS_PREVIOUS_KEYS) still open what they sealed. `context` (the account id)
 * is bound as associated data: a sealed value copied into another account's document does not
 * open. Without a key nothing can be stored (UNAVAILABLE naming the variable).
 */
export class SecretBox extends SecretCipher {
  constructor(current: Buffer | undefined, previous: readonly Buffer[] = []) {
    super(current, previous, {
      settings: { key: 'SMS_PROVIDER_SECRETS_KEY', previousKeys: 'SMS_PROVIDER_SECRETS_PREVIOUS_KEYS', what: 'an account SMS provider' },
    });
  }
}
