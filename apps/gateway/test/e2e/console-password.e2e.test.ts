import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stackClient } from './stack-client.js';

const OLD = 'a long enough secret for e2e';
const NEW = 'a new long enough secret for e2e';

/**
 * A person's own password over HTTP against the running stack: signed in twice (two sessions, as
 * a browser on each of two replicas would hold), the change made with one ends both, and only
 * the new password signs in. Sessions live in the shared store, so this holds on every replica.
 */
describe('console: change your password over HTTP', () => {
  const api = stackClient();
  const origin = new URL(api.baseUrl).origin;

  async function call(method: 'GET' | 'POST', path: string, cookie: string | null, form?: Record<string, string>) {
    const res = await fetch(api.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  }
  /** The session cookie of a sign-in, or null when it was refused. */
  async function signIn(email: string, password: string): Promise<string | null> {
    const res = await fetch(`${api.baseUrl}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ email, password }).toString(),
    });
    if (res.status !== 303) return null;
    return /fs_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0] ?? null;
  }

  it(
    'two sessions of a person end with a change made in one; the new password signs in, the old one not',
    { timeout: 30_000 },
    async () => {
      const account = await api.admin('POST', '/accounts', { name: 'console password' });
      const email = `password-${randomUUID().slice(0, 8)}@example.com`;
      await api.admin('POST', `/accounts/${account.id}/users`, { email, name: 'Password Person', role: 'viewer', password: OLD });
      const one = await signIn(email, OLD);
      const two = await signIn(email, OLD);
      expect(one && two).toBeTruthy();
      expect(one).not.toBe(two);

      const form = await call('GET', '/console/password', one);
      expect(form.status).toBe(200);
      expect(form.text).toContain('autocomplete="current-password"');
      const csrf = /name="_csrf" value="([^"]+)"/.exec(form.text)?.[1];
      expect(csrf).toBeTruthy();

      const wrong = await call('POST', '/console/password', one, {
        _csrf: csrf!,
        current_password: 'not it',
        new_password: NEW,
        new_password2: NEW,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain('id="pw-current-error"');

      const done = await call('POST', '/console/password', one, {
        _csrf: csrf!,
        current_password: OLD,
        new_password: NEW,
        new_password2: NEW,
      });
      expect(done.status).toBe(303);
      expect(done.location).toBe('/console/sign-in?changed=1');
      for (const cookie of [one, two]) {
        const res = await call('GET', '/console/campaigns', cookie);
        expect(res.status).toBe(303);
        expect(res.location).toBe('/console/sign-in');
      }
      expect((await call('GET', '/console/sign-in?changed=1', null)).text).toContain('Password changed; sign in with the new one.');
      expect(await signIn(email, OLD)).toBeNull();
      const again = await signIn(email, NEW);
      expect(again).toBeTruthy();
      expect((await call('GET', '/console/campaigns', again)).status).toBe(200);
    },
  );
});
