import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Bytes at or above this would favour the first letters of the alphabet (256 % 62 != 0). */
const UNBIASED_BELOW = 256 - (256 % ALPHABET.length);

/**
 * A random code of `length` base62 characters from the OS CSPRNG: 7 characters are 3.5e12
 * possibilities, so codes cannot be guessed by counting, and a collision (rare, retried by
 * the caller) is caught by the unique key, never served twice.
 */
export function newShortCode(length: number, random: (n: number) => Uint8Array = randomBytes): string {
  let code = '';
  while (code.length < length) {
    for (const b of random(length * 2)) {
      if (b < UNBIASED_BELOW && code.length < length) code += ALPHABET[b % ALPHABET.length];
    }
  }
  return code;
}
