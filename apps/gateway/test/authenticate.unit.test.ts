import { describe, expect, it } from 'vitest';
import type { ApiToken } from '../src/accounts/domain/account.js';
import { authenticate } from '../src/accounts/domain/authenticate.js';
import { parseAuthorization } from '../src/accounts/domain/token-secret.js';
import { tokenWithSecret } from './api-tokens.js';

describe('parseAuthorization', () => {
  it('reads the three documented header forms', () => {
    expect(parseAuthorization('Bearer abc-123')).toBe('abc-123');
    expect(parseAuthorization('Token token=abc_123')).toBe('abc_123');
    expect(parseAuthorization('Token token="abc_123"')).toBe('abc_123');
  });
  it('ignores spaces and tabs around the value, as in `Token token= <TOKEN>`', () => {
    for (const h of [
      'Token token= abc_123',
      'Token token=  abc_123 ',
      'Token token=\tabc_123',
      'Token token= "abc_123"',
      'Token token=" abc_123 "',
      'token TOKEN= abc_123',
    ]) {
      expect(parseAuthorization(h), h).toBe('abc_123');
    }
  });
  it('rejects anything else', () => {
    for (const h of [
      undefined,
      '',
      'Basic abc',
      'Bearer',
      'Token abc',
      'Token token="abc',
      'Bearer a b',
      'Token token=a"b"',
      'Token token=',
      'Token token= ',
      'Token token= a b',
      'Token token= "a b"',
      'Token token= "abc',
      'Token token= abc"',
      'Token token = abc',
      'Token token= "abc" def',
      `Token token= ${'a'.repeat(1030)}`,
    ]) {
      expect(parseAuthorization(h), h).toBeUndefined();
    }
  });
});

describe('authenticate', () => {
  const { secret, token } = tokenWithSecret({ id: 't1', accountId: 'a1', kind: 'api' });
  const repo = (t: ApiToken | null) => ({ findByHash: async (h: string) => (t && t.hash === h ? t : null) });

  it('finds the principal by the hash of the secret', async () => {
    expect(secret).toMatch(/^fbk_api_[A-Za-z0-9_-]{43}$/);
    await expect(authenticate(repo(token), `Token token="${secret}"`, ['api'])).resolves.toEqual({
      accountId: 'a1',
      tokenId: 't1',
      kind: 'api',
    });
  });

  it('reads the secret of `Token token= <TOKEN>` (a space after the equals sign)', async () => {
    await expect(authenticate(repo(token), `Token token= ${secret}`, ['api'])).resolves.toMatchObject({ tokenId: 't1' });
  });

  it('answers the same 401 for missing, malformed, unknown and revoked tokens', async () => {
    const cases = [
      authenticate(repo(token), 'Bearer nope', ['api']),
      authenticate(repo({ ...token, revokedAt: new Date() }), `Bearer ${secret}`, ['api']),
      authenticate(repo({ ...token, revokedAt: new Date() }), `Bearer ${secret}`, ['integration']),
      authenticate(repo(token), `Basic ${secret}`, ['api']),
      authenticate(repo(token), undefined, ['api']),
    ];
    for (const c of cases) await expect(c).rejects.toMatchObject({ kind: 'unauthenticated', code: 13001 });
  });

  it('answers 403 for a valid token of a kind the route does not take', async () => {
    for (const header of [`Bearer ${secret}`, `Token token="${secret}"`]) {
      await expect(authenticate(repo(token), header, ['integration'])).rejects.toMatchObject({ kind: 'permission_denied', code: 13013 });
    }
    const integration = { ...token, kind: 'integration' as const };
    await expect(authenticate(repo(integration), `Bearer ${secret}`, ['api'])).rejects.toMatchObject({ kind: 'permission_denied' });
    await expect(authenticate(repo(integration), `Bearer ${secret}`, ['api', 'integration'])).resolves.toMatchObject({
      kind: 'integration',
    });
  });
});
