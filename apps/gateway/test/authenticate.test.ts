import { describe, expect, it } from 'vitest';
import type { ApiToken } from '../src/accounts/domain/account.js';
import { authenticate } from '../src/accounts/domain/authenticate.js';
import { hashToken, newTokenSecret, parseAuthorization } from '../src/accounts/domain/token-secret.js';

describe('parseAuthorization', () => {
  it('reads the three documented header forms', () => {
    expect(parseAuthorization('Bearer abc-123')).toBe('abc-123');
    expect(parseAuthorization('Token token=abc_123')).toBe('abc_123');
    expect(parseAuthorization('Token token="abc_123"')).toBe('abc_123');
  });
  it('rejects anything else', () => {
    for (const h of [undefined, '', 'Basic abc', 'Bearer', 'Token abc', 'Token token="abc', 'Bearer a b', 'Token token=a"b"']) {
      expect(parseAuthorization(h)).toBeUndefined();
    }
  });
});

describe('authenticate', () => {
  const secret = newTokenSecret('api');
  const token: ApiToken = {
    id: 't1',
    accountId: 'a1',
    kind: 'api',
    name: 'n',
    hash: hashToken(secret),
    createdAt: new Date(),
    revokedAt: null,
  };
  const repo = (t: ApiToken | null) => ({ findByHash: async (h: string) => (t && t.hash === h ? t : null) });

  it('finds the principal by the hash of the secret', async () => {
    expect(secret).toMatch(/^fbk_api_[A-Za-z0-9_-]{43}$/);
    await expect(authenticate(repo(token), `Token token="${secret}"`, ['api'])).resolves.toEqual({
      accountId: 'a1',
      tokenId: 't1',
      kind: 'api',
    });
  });

  it('answers the same 401 for unknown, revoked and wrong-kind tokens', async () => {
    const cases = [
      authenticate(repo(token), 'Bearer nope', ['api']),
      authenticate(repo({ ...token, revokedAt: new Date() }), `Bearer ${secret}`, ['api']),
      authenticate(repo(token), `Bearer ${secret}`, ['integration']),
      authenticate(repo(token), undefined, ['api']),
    ];
    for (const c of cases) await expect(c).rejects.toMatchObject({ kind: 'unauthenticated', code: 13001 });
  });
});
