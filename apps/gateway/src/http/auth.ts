import { errors } from '@feedback/kit-core';
import { currentContext } from '@feedback/kit-core/runtime';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { ApiToken, Principal, TokenKind } from '../accounts/domain/account.js';
import { admit } from '../accounts/domain/authenticate.js';
import type { TokenRepository } from '../accounts/domain/ports.js';
import { hashToken, parseAuthorization } from '../accounts/domain/token-secret.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

export type Authenticator = (
  kinds: readonly TokenKind[],
) => (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/** Token lookups; `cachedByHash` (CachedTokenRepository) answers a cached token without waiting. */
export type TokenLookup = Pick<TokenRepository, 'findByHash'> & { cachedByHash?(hash: string): ApiToken | null | undefined };

/**
 * An onRequest hook per route: authentication runs before the body is even parsed, so
 * an unauthenticated caller gets 401 whatever it sent (authenticate.ts, the same checks).
 * A callback hook: a token in the cache is admitted synchronously, without the promises and
 * microtask turns of an async hook, which every authenticated request would pay.
 */
export function makeAuthenticator(tokens: TokenLookup): Authenticator {
  return (kinds) => (req, _reply, done) => {
    const secret = parseAuthorization(authorizationHeader(req));
    if (!secret) return done(errors.unauthenticated());
    const hash = hashToken(secret);
    const settle = (token: ApiToken | null) => {
      let principal: Principal;
      try {
        principal = admit(token, kinds);
      } catch (err) {
        return done(err as Error);
      }
      req.principal = principal;
      const ctx = currentContext();
      if (ctx) {
        ctx.accountId = principal.accountId;
        ctx.tokenId = principal.tokenId;
      }
      done();
    };
    const cached = tokens.cachedByHash?.(hash);
    if (cached !== undefined) return settle(cached);
    tokens.findByHash(hash).then(settle, (err: unknown) => done(err as Error));
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
