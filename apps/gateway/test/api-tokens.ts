import type { ApiToken } from '../src/accounts/domain/account.js';
import { hashToken, newTokenSecret } from '../src/accounts/domain/token-secret.js';

/** A new secret of the token's kind and the stored token it hashes to (not revoked unless told). */
export function tokenWithSecret(t: Pick<ApiToken, 'id' | 'accountId' | 'kind'> & Partial<ApiToken>): { secret: string; token: ApiToken } {
  const secret = newTokenSecret(t.kind);
  return { secret, token: { name: 'n', hash: hashToken(secret), createdAt: new Date(), revokedAt: null, ...t } };
}
