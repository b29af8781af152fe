import { errors } from '@feedback/kit-core';
import type { ApiToken, Principal, TokenKind } from './account.js';
import type { TokenRepository } from './ports.js';
import { hashToken, parseAuthorization } from './token-secret.js';

/**
 * Turns an Authorization header into a Principal, or fails with one uniform 401 whatever
 * was wrong (missing, malformed, unknown, revoked, or a token of the wrong kind), so a
 * caller learns nothing about which tokens exist.
 */
export async function authenticate(
  tokens: Pick<TokenRepository, 'findByHash'>,
  header: string | undefined,
  allowed: readonly TokenKind[],
): Promise<Principal> {
  const secret = parseAuthorization(header);
  if (!secret) throw errors.unauthenticated();
  return admit(await tokens.findByHash(hashToken(secret)), allowed);
}

/** The Principal of a looked-up token, or the uniform 401 (unknown, revoked, wrong kind). */
export function admit(token: ApiToken | null, allowed: readonly TokenKind[]): Principal {
  if (!token || token.revokedAt || !allowed.includes(token.kind)) throw errors.unauthenticated();
  return { accountId: token.accountId, tokenId: token.id, kind: token.kind };
}
