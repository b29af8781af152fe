import { currentContext } from '@feedback/kit-core';
import type { FastifyRequest } from 'fastify';
import type { Principal, TokenKind } from '../domain/account.js';
import { authenticate } from '../domain/authenticate.js';
import type { TokenRepository } from '../domain/ports.js';

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
    const principal = await authenticate(tokens, req.headers.authorization, kinds);
    req.principal = principal;
    const ctx = currentContext();
    if (ctx) {
      ctx.accountId = principal.accountId;
      ctx.tokenId = principal.tokenId;
    }
  };
}

export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new Error('route has no authentication hook');
  return req.principal;
}
