import { describe, expect, it } from 'vitest';
import { secretKey } from '../src/accounts/domain/password-rules.js';
import { consoleSessions } from '../src/accounts/domain/sessions.use-cases.js';
import { createUser } from '../src/accounts/domain/users.use-cases.js';
import { peopleFakes } from './people-fakes.js';

// signInVerified: the console's single sign-on, once the identity provider vouched for an e-mail.
describe('sign-in with an e-mail a provider verified', () => {
  async function withUsers() {
    const f = peopleFakes();
    const sessions = consoleSessions(f.deps);
    await createUser(f.deps, 'acc', { email: 'ada@example.com', name: 'Ada', role: 'viewer', password: 'a long enough secret' });
    return { f, sessions };
  }

  it('makes the session a password sign-in makes (case-insensitive e-mail), with no password check', async () => {
    const { f, sessions } = await withUsers();
    const res = await sessions.signInVerified({ email: 'ADA@example.com', ip: '192.0.2.1' });
    if (!res.ok) throw new Error('not signed in');
    expect(res.viewer).toMatchObject({ accountId: 'acc', role: 'viewer', email: 'ada@example.com', name: 'Ada' });
    expect([...f.sessions.keys()]).toEqual([secretKey(res.cookie)]);
    expect(f.verified).toEqual([]);
    expect(await sessions.viewer(res.cookie)).toEqual(res.viewer);
  });

  it('an invited user who set no password yet signs in too', async () => {
    const { f, sessions } = await withUsers();
    await createUser(f.deps, 'acc', { email: 'inv@example.com', name: 'Inv', role: 'member' });
    expect(await sessions.signInVerified({ email: 'inv@example.com', ip: '192.0.2.1' })).toMatchObject({
      ok: true,
      viewer: { role: 'member' },
    });
  });

  it('an e-mail no user has (or none at all) is invalid: no user is made, no session', async () => {
    const { f, sessions } = await withUsers();
    for (const email of ['nobody@example.com', '', `${'a'.repeat(250)}@example.com`])
      expect(await sessions.signInVerified({ email, ip: '192.0.2.1' })).toEqual({ ok: false, reason: 'invalid' });
    expect(f.sessions.size).toBe(0);
    expect(f.users.size).toBe(1);
  });
});
