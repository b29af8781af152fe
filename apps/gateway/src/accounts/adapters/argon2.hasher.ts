import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../domain/people.ports.js';

/**
 * argon2id (the library's default algorithm) with OWASP's first recommended setting: 19 MiB,
 * 2 passes, 1 lane (docs/decisions.md "People and sessions"). The parameters travel in the PHC
 * string, so raising them later still verifies older hashes.
 */
export const ARGON2_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const argon2Hasher: PasswordHasher = {
  hash: (password) => hash(password, ARGON2_PARAMS),
  async verify(stored, password) {
    try {
      return await verify(stored, password);
    } catch {
      // A stored value that is no PHC string verifies nothing.
      return false;
    }
  },
};
