import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consoleApi, FakeSessions, FakeSms, viewerOf } from './console-fakes.js';

// The console's sign-in, sign-out and invitations on a fake of ConsoleSessions: the cookie's
// attributes, the one message of a failed sign-in, the limit, CSRF and the origin rule.

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('console sign-in', () => {
  let sessions: FakeSessions;
  let app: FastifyInstance;
  let secureApp: FastifyInstance;
  beforeAll(async () => {
    sessions = new FakeSessions();
    app = await consoleApi(sessions, new FakeSms(), { publicBaseUrl: 'http://localhost:8080' });
    secureApp = await consoleApi(sessions, new FakeSms(), { publicBaseUrl: 'https://feedback.example.com' });
  });
  afterAll(() => Promise.all([app.close(), secureApp.close()]));
  beforeEach(() => {
    sessions.people.set('owner@example.com', viewerOf('owner'));
    sessions.limited.clear();
  });

  const signIn = (target: FastifyInstance, email: string, password: string, headers: Record<string, string> = {}) =>
    target.inject({ method: 'POST', url: '/console/sign-in', headers: { ...FORM, ...headers }, payload: form({ email, password }) });

  it('shows the form with labelled fields', async () => {
    const res = await app.inject('/console/sign-in');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<label for="email">');
    expect(res.body).toContain('<label for="password">');
    expect(res.body).toContain('action="/console/sign-in"');
  });

  it('sets an HttpOnly, SameSite=Lax session cookie on /console and sends the person to /console/', async () => {
    const res = await signIn(app, 'owner@example.com', 'correct horse battery');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^fs_session=s-u-owner-\d+; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/console');
    expect(cookie).not.toContain('Secure');
  });

  it('marks the cookie Secure when PUBLIC_BASE_URL is https', async () => {
    const res = await signIn(secureApp, 'owner@example.com', 'correct horse battery');
    expect(res.statusCode).toBe(303);
    expect(String(res.headers['set-cookie'])).toMatch(/; Secure(;|$)/);
  });

  it('answers a wrong password and an unknown e-mail with the same page and one message', async () => {
    const wrong = await signIn(app, 'owner@example.com', 'nope');
    const unknown = await signIn(app, 'nobody@example.com', 'correct horse battery');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body).toContain('The e-mail or password is not right.');
    }
    expect(wrong.body.replace(/owner@example\.com/g, 'X')).toBe(unknown.body.replace(/nobody@example\.com/g, 'X'));
  });

  it('answers a limited sign-in 429 with Retry-After and says when to try again', async () => {
    sessions.limited.add('owner@example.com');
    const res = await signIn(app, 'owner@example.com', 'correct horse battery');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('42');
    expect(res.body).toContain('Please try again in 42 seconds.');
    const tr = await signIn(app, 'owner@example.com', 'x', { 'accept-language': 'tr-TR,tr;q=0.9' });
    expect(tr.body).toContain('Lütfen 42 saniye sonra tekrar deneyin.');
  });

  it('refuses a sign-in form posted from another site', async () => {
    const res = await signIn(app, 'owner@example.com', 'correct horse battery', { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('signs out with the CSRF token only, and the cookie is cleared', async () => {
    const cookie = sessions.open(viewerOf('viewer'));
    const headers = { ...FORM, cookie: `fs_session=${cookie}` };
    const missing = await app.inject({ method: 'POST', url: '/console/sign-out', headers, payload: '' });
    expect(missing.statusCode).toBe(403);
    expect(sessions.sessions.has(cookie)).toBe(true);
    const res = await app.inject({
      method: 'POST',
      url: '/console/sign-out',
      headers,
      payload: form({ _csrf: viewerOf('viewer').csrfToken }),
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/sign-in');
    expect(String(res.headers['set-cookie'])).toMatch(/^fs_session=; .*Max-Age=0/);
    expect(sessions.sessions.has(cookie)).toBe(false);
  });

  it('sets an invited person’s password, refusing a weak one, a mismatch and a used link', async () => {
    sessions.invites.set('inv-1', viewerOf('member'));
    const page = await app.inject('/console/invite/inv-1');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('action="/console/invite/inv-1"');
    const post = (fields: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/console/invite/inv-1', headers: FORM, payload: form(fields) });
    expect((await post({ password: 'long enough pw', password2: 'other' })).body).toContain('The two passwords are not the same.');
    expect((await post({ password: 'short', password2: 'short' })).body).toContain('This password is too weak.');
    const ok = await post({ password: 'long enough pw', password2: 'long enough pw' });
    expect(ok.statusCode).toBe(303);
    expect(String(ok.headers['set-cookie'])).toMatch(/^fs_session=.*HttpOnly/);
    const again = await post({ password: 'long enough pw', password2: 'long enough pw' });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain('This invitation link is not valid or has already been used.');
  });
});
