import { hash, randomBytes } from 'node:crypto';
import type { TokenKind } from './account.js';

const PREFIX: Record<TokenKind, string> = { api: 'fbk_api_', integration: 'fbk_int_' };

/** 256 random bits, base64url, with a prefix that tells people (and secret scanners) what it is. */
export function newTokenSecret(kind: TokenKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

/**
 * Tokens carry 256 bits of entropy, so a plain SHA-256 is a safe, fast lookup key. crypto.hash
 * is the one-shot form (no Hash object per request; same digest as createHash).
 */
export function hashToken(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/**
 * Reads the secret out of an Authorization header. Accepted forms (docs/api.md "Authentication"):
 * `Bearer <token>`, `Token token=<token>`, `Token token="<token>"`. Spaces or tabs between `=`
 * and the value, inside the quotes and at the end are ignored: the original API's examples write
 * `Token token= <TOKEN>`, and integrators copy them. Anything else is undefined, in particular two
 * values, a quote inside the value or an unterminated one: which part is the token would be a guess.
 */
export function parseAuthorization(header: string | undefined): string | undefined {
  if (!header || header.length > 1024) return undefined;
  const bearer = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  const token = /^Token[ ]+token=[ \t]*(?:"[ \t]*([A-Za-z0-9._~+/=-]+)[ \t]*"|([A-Za-z0-9._~+/=-]+))[ \t]*$/i.exec(header);
  if (token) return token[1] ?? token[2];
  return undefined;
}
