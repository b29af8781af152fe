import { currentContext, errors } from '@feedback/kit-core';
import type { FastifyRequest } from 'fastify';
import type { Principal, TokenKind } from '../accounts/domain/account.js';
import { authenticate } from '../accounts/domain/authenticate.js';
import type { TokenRepository } from '../accounts/domain/ports.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

export type Authenticator = (kinds: readonly TokenKind[]) => (req: FastifyRequest) => Promise<void>;

/**
 * An onRequest hook per route: authentication runs before the body is even parsed, so
 * an unauthenticated caller gets 401 whatever it sent.
 */
export function makeAuthenticator(tokens: Pick<TokenRepository, 'findByHash'>): Authenticator {
  return (kinds) => async (req) => {
    const principal = await authenticate(tokens, authorizationHeader(req), kinds);
    req.principal = principal;
    const ctx = currentContext();
    if (ctx) {
      ctx.accountId = principal.accountId;
      ctx.tokenId = principal.tokenId;
    }
  };
}

/**
 * The request's one Authorization header. Node keeps the first of several and drops the rest;
 * two credentials in one request are ambiguous (a proxy may have read the other one), so a
 * repeated header counts as none: the caller gets the uniform 401.
 */
export function authorizationHeader(req: FastifyRequest): string | undefined {
  const raw = req.raw.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') seen++;
  return seen === 1 ? req.headers.authorization : undefined;
}

export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new Error('route has no authentication hook');
  return req.principal;
}

/** After authentication: an account_id in the path must be the caller's own (403, no data). */
export async function requireOwnAccount(req: FastifyRequest) {
  const { account_id } = req.params as { account_id?: string };
  if (account_id !== principalOf(req).accountId) throw errors.permissionDenied();
}
