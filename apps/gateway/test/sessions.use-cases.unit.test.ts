import { describe, expect, it } from 'vitest';
import { secretKey } from '../src/accounts/domain/password-rules.js';
import { consoleSessions } from '../src/accounts/domain/sessions.use-cases.js';
import { createUser } from '../src/accounts/domain/users.use-cases.js';
import { inviteToken, peopleFakes } from './people-fakes.js';

const PASSWORD = 'a long enough secret';
const HOUR = 3_600_000;

async function withUser(opts: { maxFailures?: number } = {}) {
  const f = peopleFakes(opts);
  const sessions = consoleSessions(f.deps);
  await createUser(f.deps, 'acc', { email: 'ada@example.com', name: 'Ada', role: 'member', password: PASSWORD });
  return { f, sessions };
}

describe('console sign-in', () => {
  it('signs in: an opaque cookie stored only as its SHA-256, a viewer with a CSRF token', async () => {
    const { f, sessions } = await withUser();
    const res = await sessions.signIn({ email: 'Ada@Example.com', password: PASSWORD, ip: '192.0.2.1' });
    if (!res.ok) throw new Error('sign-in failed');
    expect(res.viewer).toMatchObject({ accountId: 'acc', role: 'member', email: 'ada@example.com', name: 'Ada' });
    expect(res.viewer.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([...f.sessions.keys()]).toEqual([secretKey(res.cookie)]);
    expect(JSON.stringify([...f.sessions.values()])).not.toContain(res.cookie);
    expect(await sessions.viewer(res.cookie)).toEqual(res.viewer);
    await sessions.signOut(res.cookie);
    expect(await sessions.viewer(res.cookie)).toBeNull();
  });

  it('answers an unknown e-mail exactly as a wrong password, after verifying against a dummy hash', async () => {
    const { f, sessions } = await withUser();
    const wrong = await sessions.signIn({ email: 'ada@example.com', password: 'not the password', ip: '192.0.2.1' });
    const unknown = await sessions.signIn({ email: 'nobody@example.com', password: 'not the password', ip: '192.0.2.1' });
    expect(unknown).toEqual(wrong);
    expect(unknown).toEqual({ ok: false, reason: 'invalid' });
    // Both paths ran one verification each (the second against the dummy hash).
    expect(f.verified).toHaveLength(2);
    expect(f.verified[1]).not.toBe(f.verified[0]);
  });

  it('an invited user (no password yet) cannot sign in with any password', async () => {
    const { f, sessions } = await withUser();
    await createUser(f.deps, 'acc', { email: 'inv@example.com', name: 'Inv', role: 'viewer' });
    expect(await sessions.signIn({ email: 'inv@example.com', password: `hashed:x`, ip: '192.0.2.1' })).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('limits failures per e-mail with the wait; a success clears the e-mail’s count', async () => {
    const { sessions } = await withUser({ maxFailures: 3 });
    for (let i = 0; i < 2; i++) await sessions.signIn({ email: 'ada@example.com', password: 'wrong password!', ip: '192.0.2.1' });
    expect((await sessions.signIn({ email: 'ada@example.com', password: PASSWORD, ip: '192.0.2.1' })).ok).toBe(true);
    for (let i = 0; i < 3; i++) await sessions.signIn({ email: 'ada@example.com', password: 'wrong password!', ip: '192.0.2.9' });
    // The right password too, once limited: the limiter answers before any check.
    expect(await sessions.signIn({ email: 'ada@example.com', password: PASSWORD, ip: '192.0.2.1' })).toEqual({
      ok: false,
      reason: 'limited',
      retryAfterSec: 900,
    });
  });

  it('expires a session after the idle time, and after the absolute time however busy', async () => {
    const { f, sessions } = await withUser();
    const idle = await sessions.signIn({ email: 'ada@example.com', password: PASSWORD, ip: '192.0.2.1' });
    const busy = await sessions.signIn({ email: 'ada@example.com', password: PASSWORD, ip: '192.0.2.1' });
    if (!idle.ok || !busy.ok) throw new Error('sign-in failed');
    // Seen at 11 h, the idle session lives on (the idle time slides); unseen from 11 h to 33 h, it is over.
    for (let i = 1; i <= 15; i++) {
      f.advance(11 * HOUR);
      expect(await sessions.viewer(busy.cookie)).not.toBeNull();
      if (i === 1) expect(await sessions.viewer(idle.cookie)).not.toBeNull();
      if (i === 3) expect(await sessions.viewer(idle.cookie)).toBeNull();
    }
    // 176 h after sign-in: past the absolute 7 days.
    f.advance(11 * HOUR);
    expect(await sessions.viewer(busy.cookie)).toBeNull();
  });

  it('refuses cookies it never made', async () => {
    const { sessions } = await withUser();
    for (const c of ['', 'x', 'a'.repeat(5000)]) expect(await sessions.viewer(c)).toBeNull();
  });
});

describe('invites', () => {
  it('an invite sets the password once, signs the user in, and cannot be used again', async () => {
    const { f, sessions } = await withUser();
    const { inviteUrl } = await createUser(f.deps, 'acc', { email: 'inv@example.com', name: 'Inv', role: 'viewer' });
    expect(inviteUrl).toMatch(/^https:\/\/feedback\.example\/console\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = inviteToken(inviteUrl);
    expect(await sessions.acceptInvite(token, 'short')).toEqual({ ok: false, reason: 'weak_password' });
    expect(await sessions.acceptInvite(token, 'INV@example.com')).toEqual({ ok: false, reason: 'weak_password' });
    const accepted = await sessions.acceptInvite(token, 'my own long secret');
    if (!accepted.ok) throw new Error('invite refused');
    expect(accepted.viewer).toMatchObject({ email: 'inv@example.com', role: 'viewer', accountId: 'acc' });
    expect(await sessions.viewer(accepted.cookie)).not.toBeNull();
    expect(await sessions.acceptInvite(token, 'yet another secret')).toEqual({ ok: false, reason: 'invalid' });
    expect((await sessions.signIn({ email: 'inv@example.com', password: 'my own long secret', ip: '192.0.2.1' })).ok).toBe(true);
  });

  it('an invite expires after its time', async () => {
    const { f, sessions } = await withUser();
    const { inviteUrl } = await createUser(f.deps, 'acc', { email: 'inv@example.com', name: 'Inv', role: 'viewer' });
    f.advance(7 * 24 * HOUR);
    expect(await sessions.acceptInvite(inviteToken(inviteUrl), 'my own long secret')).toEqual({ ok: false, reason: 'invalid' });
    expect(await sessions.acceptInvite('made-up', 'my own long secret')).toEqual({ ok: false, reason: 'invalid' });
  });
});
