import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import {
  bootstrapOperator,
  changePassword,
  createOperator,
  createUser,
  deleteUser,
  getUser,
  listUsers,
  updateUser,
} from '../src/accounts/domain/users.use-cases.js';
import { consoleSessions } from '../src/accounts/domain/sessions.use-cases.js';
import { peopleFakes } from './people-fakes.js';

const PASSWORD = 'a long enough secret';

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('users of an account', () => {
  it('creates a user with a role and a hashed password, no invite; the e-mail is unique deployment-wide, any case', async () => {
    const f = peopleFakes();
    const { user, inviteUrl } = await createUser(f.deps, 'acc', {
      email: ' Ada@Example.com ',
      name: ' Ada ',
      role: 'owner',
      password: PASSWORD,
    });
    expect(user).toMatchObject({ accountId: 'acc', email: 'Ada@Example.com', emailKey: 'ada@example.com', name: 'Ada', role: 'owner' });
    expect(user.passwordHash).toBe(`hashed:${PASSWORD}`);
    expect(inviteUrl).toBeNull();
    const dup = await refusal(createUser(f.deps, 'other', { email: 'ADA@example.COM', name: 'B', role: 'viewer' }));
    expect(dup).toMatchObject({ kind: 'conflict', code: 13060, fields: { email: 'is already in use' } });
  });

  it('refuses an unknown role (operator included), a bad e-mail, a short password and the e-mail as password', async () => {
    const f = peopleFakes();
    for (const role of ['admin', 'operator'])
      expect((await refusal(createUser(f.deps, 'acc', { email: 'a@b.c', name: 'A', role }))).fields).toHaveProperty('role');
    expect((await refusal(createUser(f.deps, 'acc', { email: 'no-at', name: 'A', role: 'viewer' }))).fields).toHaveProperty('email');
    const short = await refusal(createUser(f.deps, 'acc', { email: 'a@b.c', name: 'A', role: 'viewer', password: '12345678901' }));
    expect(short.fields.password).toMatch(/at least 12/);
    const same = await refusal(
      createUser(f.deps, 'acc', { email: 'long.name@example.com', name: 'A', role: 'viewer', password: 'LONG.NAME@example.com' }),
    );
    expect(same.fields.password).toMatch(/e-mail/);
    expect(f.users.size).toBe(0);
  });

  it("answers another account's user, or an unknown account, as not found", async () => {
    const f = peopleFakes();
    const { user } = await createUser(f.deps, 'acc', { email: 'a@b.c', name: 'A', role: 'member', password: PASSWORD });
    expect((await refusal(getUser(f.deps, 'other', user.id))).fields).toEqual({ user_id: user.id });
    expect((await refusal(updateUser(f.deps, 'other', user.id, { role: 'viewer' }))).kind).toBe('not_found');
    expect((await refusal(deleteUser(f.deps, 'other', user.id))).kind).toBe('not_found');
    expect((await refusal(listUsers(f.deps, 'nope', {}))).fields).toEqual({ account_id: 'nope' });
    expect((await getUser(f.deps, 'acc', user.id)).role).toBe('member');
  });

  it('lists an account’s users a page at a time, never operators or other accounts’ users', async () => {
    const f = peopleFakes();
    for (let i = 0; i < 3; i++) {
      await createUser(f.deps, 'acc', { email: `u${i}@b.c`, name: `U${i}`, role: 'viewer' });
      f.advance(1000);
    }
    await createUser(f.deps, 'other', { email: 'x@b.c', name: 'X', role: 'viewer' });
    await createOperator(f.deps, { email: 'op@b.c', name: 'Op', password: PASSWORD });
    const first = await listUsers(f.deps, 'acc', { pageSize: 2 });
    expect(first.items.map((u) => u.name)).toEqual(['U2', 'U1']);
    const second = await listUsers(f.deps, 'acc', { pageSize: 2, pageToken: first.nextPageToken });
    expect(second).toMatchObject({ items: [{ name: 'U0' }], nextPageToken: '' });
  });

  it('bootstraps the first operator once', async () => {
    const f = peopleFakes();
    expect(await bootstrapOperator(f.deps, { email: 'op@localhost', name: 'Operator', password: PASSWORD })).toBe('created');
    expect(await bootstrapOperator(f.deps, { email: 'other@localhost', name: 'Operator', password: PASSWORD })).toBe('exists');
    expect([...f.users.values()].map((u) => [u.email, u.role, u.accountId])).toEqual([['op@localhost', 'operator', null]]);
  });
});

describe('sessions end with the user, a role change holds at once', () => {
  it('removal ends every session of the user; a role change shows on the next request', async () => {
    const f = peopleFakes();
    const sessions = consoleSessions(f.deps);
    const { user } = await createUser(f.deps, 'acc', { email: 'a@b.c', name: 'A', role: 'owner', password: PASSWORD });
    const one = await sessions.signIn({ email: 'a@b.c', password: PASSWORD, ip: '192.0.2.1' });
    const two = await sessions.signIn({ email: 'A@B.C', password: PASSWORD, ip: '192.0.2.2' });
    if (!one.ok || !two.ok) throw new Error('sign-in failed');
    await updateUser(f.deps, 'acc', user.id, { role: 'viewer' });
    expect((await sessions.viewer(one.cookie))?.role).toBe('viewer');
    await deleteUser(f.deps, 'acc', user.id);
    expect(await sessions.viewer(one.cookie)).toBeNull();
    expect(await sessions.viewer(two.cookie)).toBeNull();
    expect(f.sessions.size).toBe(0);
  });

  it('a password change ends every session and the old password no longer signs in', async () => {
    const f = peopleFakes();
    const sessions = consoleSessions(f.deps);
    const { user } = await createUser(f.deps, 'acc', { email: 'a@b.c', name: 'A', role: 'member', password: PASSWORD });
    const s = await sessions.signIn({ email: 'a@b.c', password: PASSWORD, ip: '192.0.2.1' });
    if (!s.ok) throw new Error('sign-in failed');
    expect((await refusal(changePassword(f.deps, user.id, 'short'))).fields).toHaveProperty('password');
    expect(await sessions.viewer(s.cookie)).not.toBeNull();
    await changePassword(f.deps, user.id, 'another long secret');
    expect(await sessions.viewer(s.cookie)).toBeNull();
    expect(await sessions.signIn({ email: 'a@b.c', password: PASSWORD, ip: '192.0.2.1' })).toEqual({ ok: false, reason: 'invalid' });
    expect((await sessions.signIn({ email: 'a@b.c', password: 'another long secret', ip: '192.0.2.1' })).ok).toBe(true);
  });
});
