import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { changeOwnPassword } from '../src/accounts/domain/own-password.use-cases.js';
import { consoleSessions } from '../src/accounts/domain/sessions.use-cases.js';
import { createUser } from '../src/accounts/domain/users.use-cases.js';
import { peopleFakes } from './people-fakes.js';

const OLD = 'a long enough secret';
const NEW = 'another long secret';
const IP = '192.0.2.1';

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

async function signedInUser() {
  const f = peopleFakes();
  const sessions = consoleSessions(f.deps);
  const { user } = await createUser(f.deps, 'acc', { email: 'ada@example.com', name: 'Ada', role: 'viewer', password: OLD });
  const one = await sessions.signIn({ email: 'ada@example.com', password: OLD, ip: IP });
  const two = await sessions.signIn({ email: 'ada@example.com', password: OLD, ip: IP });
  if (!one.ok || !two.ok) throw new Error('sign-in failed');
  return { f, sessions, user, cookies: [one.cookie, two.cookie] };
}

describe('changing your own password', () => {
  it('with the right current password: the new hash is stored, every session of the user ends, the new password signs in', async () => {
    const { f, sessions, user, cookies } = await signedInUser();
    await changeOwnPassword(f.deps, user.id, OLD, NEW);
    expect(f.users.get(user.id)?.passwordHash).toBe(`hashed:${NEW}`);
    for (const cookie of cookies) expect(await sessions.viewer(cookie)).toBeNull();
    expect(await sessions.signIn({ email: 'ada@example.com', password: OLD, ip: IP })).toEqual({ ok: false, reason: 'invalid' });
    expect((await sessions.signIn({ email: 'ada@example.com', password: NEW, ip: IP })).ok).toBe(true);
  });

  it('refuses a wrong current password naming current_password, and changes nothing', async () => {
    const { f, sessions, user, cookies } = await signedInUser();
    const err = await refusal(changeOwnPassword(f.deps, user.id, 'not the password', NEW));
    expect(err).toMatchObject({ kind: 'invalid', fields: { current_password: 'is not right' } });
    expect(f.users.get(user.id)?.passwordHash).toBe(`hashed:${OLD}`);
    for (const cookie of cookies) expect(await sessions.viewer(cookie)).not.toBeNull();
  });

  it('refuses a new password the rules refuse (short, the e-mail) naming new_password, and changes nothing', async () => {
    const { f, sessions, user, cookies } = await signedInUser();
    expect((await refusal(changeOwnPassword(f.deps, user.id, OLD, 'short'))).fields.new_password).toMatch(/at least 12/);
    expect((await refusal(changeOwnPassword(f.deps, user.id, OLD, 'ADA@example.com'))).fields.new_password).toMatch(/e-mail/);
    expect(f.users.get(user.id)?.passwordHash).toBe(`hashed:${OLD}`);
    expect(await sessions.viewer(cookies[0]!)).not.toBeNull();
  });

  it('refuses a person without a password (invited) as a wrong current password', async () => {
    const f = peopleFakes();
    const { user } = await createUser(f.deps, 'acc', { email: 'bo@example.com', name: 'Bo', role: 'member' });
    expect((await refusal(changeOwnPassword(f.deps, user.id, '', NEW))).fields).toEqual({ current_password: 'is not right' });
    expect(f.users.get(user.id)?.passwordHash).toBeNull();
  });
});
