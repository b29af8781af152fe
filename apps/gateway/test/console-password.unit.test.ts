import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleSessions } from '../src/accounts/domain/people.js';
import { consoleSessions } from '../src/accounts/domain/sessions.use-cases.js';
import { createOperator, createUser } from '../src/accounts/domain/users.use-cases.js';
import { consoleFeature } from '../src/console/console.feature.js';
import { adminFakes } from './console-admin-fakes.js';
import { FakeSms } from './console-fakes.js';
import { testApi } from './listeners.js';

// The signed-in person's own password on the people fakes, with the real session use cases: a
// change ends every session of the person (this one too), bad input is the form again naming the field.

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const OLD = 'a long enough secret';
const NEW = 'another long secret';
const IP = '192.0.2.1';

describe('console: change your password', () => {
  let fakes: ReturnType<typeof adminFakes>;
  let sessions: ConsoleSessions;
  let app: FastifyInstance;
  let people = 0;
  beforeAll(async () => {
    fakes = adminFakes();
    sessions = consoleSessions(fakes.people.deps);
    app = await testApi({
      features: [
        consoleFeature({
          sessions,
          sms: new FakeSms(),
          accounts: fakes.deps.accountsAdmin.accounts,
          publicBaseUrl: 'http://localhost:8080',
          displayTimeZone: 'UTC',
          clock: { now: () => new Date('2026-11-02T08:00:00.000Z') },
          admin: fakes.deps,
        }),
      ],
    });
  });
  afterAll(() => app.close());

  /** A new person of the role, signed in twice (two sessions, as on two replicas). */
  async function signedIn(role: 'owner' | 'member' | 'viewer' | 'operator' = 'viewer') {
    const email = `p${++people}@example.com`;
    const input = { email, name: `Person ${people}`, password: OLD };
    const user =
      role === 'operator'
        ? (await createOperator(fakes.people.deps, input)).user
        : (await createUser(fakes.people.deps, 'acc-1', { ...input, role })).user;
    const one = await sessions.signIn({ email, password: OLD, ip: IP });
    const two = await sessions.signIn({ email, password: OLD, ip: IP });
    if (!one.ok || !two.ok) throw new Error('sign-in failed');
    return { user, email, cookies: [one.cookie, two.cookie], csrf: one.viewer.csrfToken };
  }
  const get = (url: string, cookie?: string) => app.inject({ url, headers: cookie ? { cookie: `fs_session=${cookie}` } : {} });
  const post = (cookie: string, fields: Record<string, string>, url = '/console/password') =>
    app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, cookie: `fs_session=${cookie}` },
      payload: new URLSearchParams(fields).toString(),
    });
  const change = (p: { cookies: string[]; csrf: string }, current: string, next: string, again = next) =>
    post(p.cookies[0]!, { _csrf: p.csrf, current_password: current, new_password: next, new_password2: again });

  it('the form for every role: current and new password fields with their autocomplete, the CSRF token; a link in the header', async () => {
    for (const role of ['viewer', 'operator'] as const) {
      const p = await signedIn(role);
      const res = await get('/console/password', p.cookies[0]);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('name="current_password" type="password" autocomplete="current-password"');
      expect(res.body).toContain('name="new_password" type="password" autocomplete="new-password"');
      expect(res.body).toContain('name="new_password2" type="password" autocomplete="new-password"');
      expect(res.body).toContain(`name="_csrf" value="${p.csrf}"`);
      expect(res.body).toContain('<a href="/console/password">Password</a>');
    }
  });

  it('a change: 303 to sign-in with the notice, this session and the other end, the new password signs in', async () => {
    const p = await signedIn('member');
    const res = await change(p, OLD, NEW);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/sign-in?changed=1');
    expect(String(res.headers['set-cookie'])).toMatch(/fs_session=;/);
    for (const cookie of p.cookies) {
      expect(await sessions.viewer(cookie)).toBeNull();
      expect((await get('/console/password', cookie)).headers.location).toBe('/console/sign-in');
    }
    expect(fakes.people.users.get(p.user.id)?.passwordHash).toBe(`hashed:${NEW}`);
    expect((await sessions.signIn({ email: p.email, password: NEW, ip: IP })).ok).toBe(true);
    expect((await get('/console/sign-in?changed=1')).body).toContain('Password changed; sign in with the new one.');
    expect((await get('/console/sign-in?changed=1&lang=tr')).body).toContain('Parola değişti; yeni parolayla giriş yapın.');
    expect((await get('/console/sign-in')).body).not.toContain('Password changed');
  });

  it('a wrong current password: 400, the form again with the error next to current_password, nothing changed', async () => {
    const p = await signedIn();
    const res = await change(p, 'not the password', NEW);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('id="pw-current-error">The current password is not right.');
    expect(res.body).not.toContain(NEW);
    expect(fakes.people.users.get(p.user.id)?.passwordHash).toBe(`hashed:${OLD}`);
    for (const cookie of p.cookies) expect(await sessions.viewer(cookie)).not.toBeNull();
    const tr = await post(
      p.cookies[0]!,
      { _csrf: p.csrf, current_password: 'x', new_password: NEW, new_password2: NEW },
      '/console/password?lang=tr',
    );
    expect(tr.body).toContain('Şu anki parola doğru değil.');
  });

  it('a weak new password, or two that differ: 400 naming the field, nothing changed', async () => {
    const p = await signedIn('owner');
    const weak = await change(p, OLD, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('id="pw-new-error">At least 12 characters, and not your e-mail address.');
    const differ = await change(p, OLD, NEW, `${NEW}!`);
    expect(differ.statusCode).toBe(400);
    expect(differ.body).toContain('id="pw-again-error">The two passwords are not the same.');
    expect(fakes.people.users.get(p.user.id)?.passwordHash).toBe(`hashed:${OLD}`);
    expect(await sessions.viewer(p.cookies[0]!)).not.toBeNull();
  });

  it('without the CSRF token: 403, nothing changed; without a session: 303 to sign-in', async () => {
    const p = await signedIn();
    const res = await post(p.cookies[0]!, { current_password: OLD, new_password: NEW, new_password2: NEW });
    expect(res.statusCode).toBe(403);
    expect(fakes.people.users.get(p.user.id)?.passwordHash).toBe(`hashed:${OLD}`);
    const anon = await app.inject({ method: 'POST', url: '/console/password', headers: FORM, payload: `current_password=${OLD}` });
    expect(anon.statusCode).toBe(303);
    expect(anon.headers.location).toBe('/console/sign-in');
    expect((await get('/console/password')).headers.location).toBe('/console/sign-in');
  });
});
