import { errors } from '@feedback/kit-core';
import type { ApiToken, Principal, TokenKind } from './account.js';
import type { TokenRepository } from './ports.js';
import { hashToken, parseAuthorization } from './token-secret.js';

/**
 * Turns an Authorization header into a Principal. Whatever makes the header no credential at all
 * (missing, malformed, unknown, revoked) is one uniform 401, so a caller learns nothing about
 * which tokens exist; a valid token of a kind the route does not take is 403 (admit).
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

/**
 * The Principal of a looked-up token: 401 for an unknown or revoked one; 403 for a valid token
 * of the wrong kind. Its holder knows the token is valid anyway, and "permission denied" tells
 * an integrator to use the other token instead of hunting for a typo in a good one.
 */
export function admit(token: ApiToken | null, allowed: readonly TokenKind[]): Principal {
  if (!token || token.revokedAt) throw errors.unauthenticated();
  if (!allowed.includes(token.kind)) throw errors.permissionDenied();
  return { accountId: token.accountId, tokenId: token.id, kind: token.kind };
}
