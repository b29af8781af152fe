import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConsoleSso, SsoFlow, SsoOutcome } from '../src/console/sso.port.js';
import { consoleApi, FakeSessions, FakeSms, viewerOf } from './console-fakes.js';

// The console's single sign-on routes on a fake provider (the real one: console-sso.process.test.ts):
// the flow cookie, the state check before any call to the provider, and the one page of every failure.

const STATE = 'state-0123456789abcdefghij';
const FLOW: SsoFlow = { state: STATE, nonce: 'nonce-0123456789abcdefghij', codeVerifier: 'verifier-0123456789abcdefghij' };
const FLOW_COOKIE = `fs_sso=${FLOW.state}.${FLOW.nonce}.${FLOW.codeVerifier}`;

class FakeSso implements ConsoleSso {
  displayName = 'Acme ID';
  down = false;
  outcome: SsoOutcome = { ok: true, email: 'owner@example.com', emailVerified: true };
  finished: Array<{ query: string; flow: SsoFlow }> = [];
  async start() {
    return this.down ? null : { url: `https://id.example.com/auth?state=${FLOW.state}`, flow: FLOW };
  }
  async finish(query: string, flow: SsoFlow) {
    this.finished.push({ query, flow });
    return this.outcome;
  }
}

describe('console single sign-on', () => {
  let sessions: FakeSessions;
  let sso: FakeSso;
  let app: FastifyInstance;
  let plain: FastifyInstance;
  beforeAll(async () => {
    sessions = new FakeSessions();
    sso = new FakeSso();
    app = await consoleApi(sessions, new FakeSms(), { publicBaseUrl: 'https://feedback.example.com', sso });
    plain = await consoleApi(sessions, new FakeSms(), { publicBaseUrl: 'https://feedback.example.com' });
  });
  afterAll(() => Promise.all([app.close(), plain.close()]));
  beforeEach(() => {
    sessions.people.set('owner@example.com', viewerOf('owner'));
    sessions.signInVerifiedCalls = [];
    sso.down = false;
    sso.outcome = { ok: true, email: 'owner@example.com', emailVerified: true };
    sso.finished = [];
  });

  const callback = (query: string, cookie = FLOW_COOKIE, lang = '') =>
    app.inject({ url: `/console/sso/callback?${query}`, headers: { cookie: [cookie, lang].filter(Boolean).join('; ') } });
  const cookies = (res: { headers: Record<string, unknown> }) => ([] as string[]).concat((res.headers['set-cookie'] as string[]) ?? []);

  it('the sign-in page offers the provider by its name only when one is configured', async () => {
    const withSso = await app.inject('/console/sign-in');
    expect(withSso.body).toContain('<a href="/console/sso/start">Sign in with Acme ID</a>');
    expect((await app.inject('/console/sign-in?lang=tr')).body).toContain('Acme ID ile giriş yap');
    const without = await plain.inject('/console/sign-in');
    expect(without.statusCode).toBe(200);
    expect(without.body).not.toContain('/console/sso/start');
    expect((await plain.inject('/console/sso/start')).statusCode).toBe(404);
    expect((await plain.inject(`/console/sso/callback?code=x&state=${STATE}`)).statusCode).toBe(404);
  });

  it('start sends the browser to the provider with the flow in an HttpOnly cookie only /console/sso gets, for 10 minutes', async () => {
    const res = await app.inject('/console/sso/start');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`https://id.example.com/auth?state=${STATE}`);
    const [cookie] = cookies(res);
    expect(cookie).toBe(`${FLOW_COOKIE}; Path=/console/sso; HttpOnly; SameSite=Lax; Secure; Max-Age=600`);
  });

  it('a provider that cannot be reached at the start: the sign-in page says so (503), never a 500', async () => {
    sso.down = true;
    const res = await app.inject('/console/sso/start');
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('Acme ID cannot be reached at the moment');
    expect(res.body).toContain('action="/console/sign-in"');
  });

  it('the callback with this browser’s state signs in the user of the verified e-mail, as a password sign-in does', async () => {
    const res = await callback(`code=abc&state=${STATE}&iss=https%3A%2F%2Fid.example.com`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/');
    expect(sso.finished).toEqual([{ query: `code=abc&state=${STATE}&iss=https%3A%2F%2Fid.example.com`, flow: FLOW }]);
    expect(sessions.signInVerifiedCalls).toEqual(['owner@example.com']);
    const set = cookies(res);
    expect(set).toContain('fs_sso=; Path=/console/sso; HttpOnly; SameSite=Lax; Secure; Max-Age=0');
    const session = set.find((c) => c.startsWith('fs_session='))!;
    expect(session).toMatch(/^fs_session=s-u-owner-\d+; Path=\/console; HttpOnly; SameSite=Lax; Secure$/);
    const page = await app.inject({ url: '/console/', headers: { cookie: session.split(';')[0]! } });
    expect(page.statusCode).toBe(200);
  });

  it('another state, no flow cookie or a forged one: refused before the provider is asked (400)', async () => {
    for (const res of [
      await callback('code=abc&state=someone-elses-state-0123456789'),
      await callback(`code=abc&state=${STATE}`, ''),
      await callback(`code=abc&state=${STATE}`, `fs_sso=${STATE}.<script>.x`),
      await callback('code=abc'),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('Signing in with Acme ID did not complete. Please try again.');
      expect(cookies(res).some((c) => c.startsWith('fs_session='))).toBe(false);
    }
    expect(sso.finished).toEqual([]);
    expect(sessions.signInVerifiedCalls).toEqual([]);
  });

  it('an unknown e-mail and an unverified one get the same page (403): nothing tells which e-mails are users', async () => {
    sso.outcome = { ok: true, email: 'stranger@example.com', emailVerified: true };
    const unknown = await callback(`code=abc&state=${STATE}`);
    sso.outcome = { ok: true, email: 'owner@example.com', emailVerified: false };
    const unverified = await callback(`code=abc&state=${STATE}`);
    sso.outcome = { ok: true, email: undefined, emailVerified: false };
    const none = await callback(`code=abc&state=${STATE}`);
    for (const res of [unknown, unverified, none]) {
      expect(res.statusCode).toBe(403);
      expect(res.body).toBe(unknown.body);
      expect(res.body).toContain('This Acme ID account cannot sign in here.');
      expect(res.body).not.toContain('example.com');
      // Its language links go to the sign-in page, not back to the callback with the code.
      expect(res.body).toContain('href="/console/sign-in?lang=tr"');
      expect(res.body).not.toContain('code=');
      expect(cookies(res).some((c) => c.startsWith('fs_session='))).toBe(false);
    }
    // An unverified e-mail is never looked up.
    expect(sessions.signInVerifiedCalls).toEqual(['stranger@example.com']);
  });

  it('the provider refusing, a bad answer, or the provider down at the exchange: the sign-in page, in the person’s language', async () => {
    sso.outcome = { ok: false, reason: 'denied' };
    expect((await callback(`error=access_denied&state=${STATE}`)).statusCode).toBe(400);
    sso.outcome = { ok: false, reason: 'rejected' };
    const rejected = await callback(`code=abc&state=${STATE}`, FLOW_COOKIE, 'lang=tr');
    expect(rejected.statusCode).toBe(400);
    expect(rejected.body).toContain('Acme ID ile giriş tamamlanamadı.');
    sso.outcome = { ok: false, reason: 'unavailable' };
    const down = await callback(`code=abc&state=${STATE}`);
    expect(down.statusCode).toBe(503);
    expect(down.body).toContain('Acme ID cannot be reached at the moment');
    expect(sessions.signInVerifiedCalls).toEqual([]);
  });
});
