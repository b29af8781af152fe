import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser } from '../src/accounts/domain/users.use-cases.js';
import { consoleFeature } from '../src/console/console.feature.js';
import { adminFakes } from './console-admin-fakes.js';
import { FakeSessions, FakeSms, viewerOf } from './console-fakes.js';
import { testApi } from './listeners.js';

// The owners' and operators' pages on fakes: users and tokens (owners; operators on a chosen
// account), accounts, an account's SMS provider and the SMS limits (operators); who may see and
// do what, forms again with the error next to the field, both languages.

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const PASSWORD = 'a long enough secret';

describe('console: users, tokens, accounts, SMS provider and limits', () => {
  let sessions: FakeSessions;
  let fakes: ReturnType<typeof adminFakes>;
  let app: FastifyInstance;
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    sessions = new FakeSessions();
    fakes = adminFakes();
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
    for (const role of ['owner', 'member', 'viewer'] as const) cookies[role] = sessions.open(viewerOf(role));
    cookies.operator = sessions.open(viewerOf('operator', null));
  });
  afterAll(() => app.close());
  beforeEach(() => {
    fakes.people.users.clear();
    fakes.tokens.clear();
    fakes.limits.own.clear();
    fakes.limits.stored = null;
    fakes.limits.sets = [];
  });

  const get = (url: string, role: string) => app.inject({ url, headers: { cookie: `fs_session=${cookies[role]}` } });
  const post = (url: string, role: string, fields: Record<string, string>, csrf = true) =>
    app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, cookie: `fs_session=${cookies[role]}` },
      payload: new URLSearchParams({ ...(csrf ? { _csrf: viewerOf(role as 'owner').csrfToken } : {}), ...fields }).toString(),
    });
  const person = (accountId: string, role: string, email: string) =>
    createUser(fakes.people.deps, accountId, { email, name: `Name ${email}`, role, password: PASSWORD }).then((c) => c.user);

  describe('users', () => {
    it("lists the owner's account's users only, with the owner's nav; both languages", async () => {
      await person('acc-1', 'owner', 'ada@example.com');
      await person('acc-2', 'owner', 'other@example.com');
      const res = await get('/console/users', 'owner');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('ada@example.com');
      expect(res.body).not.toContain('other@example.com');
      expect(res.body).toContain('href="/console/users">Users</a><a href="/console/tokens">Tokens</a>');
      expect(res.body).not.toContain('/console/sms-limits');
      const tr = await get('/console/users?lang=tr', 'owner');
      expect(tr.body).toContain('<h1>Kullanıcılar</h1>');
      expect(tr.body).toContain('Kullanıcıyı ekle');
    });

    it('refuses members and viewers (403), reading or writing; a POST without the CSRF token is 403', async () => {
      for (const role of ['member', 'viewer']) {
        expect((await get('/console/users', role)).statusCode).toBe(403);
        expect((await get('/console/tokens', role)).statusCode).toBe(403);
        expect((await post('/console/users', role, { email: 'n@example.com', name: 'N', role: 'viewer' })).statusCode).toBe(403);
      }
      expect((await post('/console/users', 'owner', { email: 'n@example.com', name: 'N', role: 'viewer' }, false)).statusCode).toBe(403);
      expect(fakes.people.users.size).toBe(0);
    });

    it('invites a user without a password (the link shown once), adds one with a password', async () => {
      const invited = await post('/console/users', 'owner', {
        email: 'new@example.com',
        name: 'New <b>one</b>',
        role: 'viewer',
        password: '',
      });
      expect(invited.statusCode).toBe(201);
      expect(invited.body).toMatch(/<code>https:\/\/feedback\.example\/console\/invite\/[A-Za-z0-9_-]+<\/code>/);
      expect(invited.body).toContain('New &lt;b&gt;one&lt;/b&gt;');
      const user = [...fakes.people.users.values()][0]!;
      expect(user).toMatchObject({ accountId: 'acc-1', role: 'viewer', passwordHash: null });
      // Shown once: the list does not carry it.
      expect((await get('/console/users', 'owner')).body).not.toContain('/console/invite/');

      const withPassword = await post('/console/users', 'owner', {
        email: 'pw@example.com',
        name: 'Pat',
        role: 'member',
        password: PASSWORD,
      });
      expect(withPassword.statusCode).toBe(201);
      expect(withPassword.body).toContain('Pat can sign in now.');
      expect(withPassword.body).not.toContain('/console/invite/');
    });

    it('answers bad input with the form again and the error next to the field; a taken e-mail is 409', async () => {
      const bad = await post('/console/users', 'owner', { email: 'not-an-email', name: 'X', role: 'viewer' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('aria-invalid="true" aria-describedby="u-email-error"');
      expect(bad.body).toContain('<p class="alert" id="u-email-error">must be an e-mail address</p>');
      expect(bad.body).toContain('value="not-an-email"');
      const weak = await post('/console/users', 'owner', { email: 'w@example.com', name: 'W', role: 'viewer', password: 'short' });
      expect(weak.statusCode).toBe(400);
      expect(weak.body).toContain('id="u-password-error"');
      await person('acc-2', 'viewer', 'taken@example.com');
      const taken = await post('/console/users', 'owner', { email: 'TAKEN@example.com', name: 'T', role: 'viewer' });
      expect(taken.statusCode).toBe(409);
      expect(taken.body).toContain('<p class="alert" id="u-email-error">This e-mail is already in use.</p>');
    });

    it("changes a user's role and name; another account's user is 404", async () => {
      const u = await person('acc-1', 'viewer', 'v@example.com');
      const page = await get(`/console/users/${u.id}`, 'owner');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('action="/console/users/' + u.id + '/remove"');
      const saved = await post(`/console/users/${u.id}`, 'owner', { name: 'Vera', role: 'member' });
      expect(saved.statusCode).toBe(303);
      expect(saved.headers.location).toBe('/console/users?done=saved');
      expect(fakes.people.users.get(u.id)).toMatchObject({ name: 'Vera', role: 'member' });
      const bad = await post(`/console/users/${u.id}`, 'owner', { name: '', role: 'member' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('id="e-name-error"');

      const foreign = await person('acc-2', 'member', 'f@example.com');
      expect((await get(`/console/users/${foreign.id}`, 'owner')).statusCode).toBe(404);
      expect((await post(`/console/users/${foreign.id}/remove`, 'owner', {})).statusCode).toBe(404);
      expect(fakes.people.users.has(foreign.id)).toBe(true);
    });

    it('refuses removing the last owner with a clear message; removes a user and ends their sessions', async () => {
      const owner = await person('acc-1', 'owner', 'o@example.com');
      const last = await post(`/console/users/${owner.id}/remove`, 'owner', {});
      expect(last.statusCode).toBe(409);
      expect(last.body).toContain('This is the account’s last owner: make someone else an owner first.');
      const demote = await post(`/console/users/${owner.id}`, 'owner', { name: 'O', role: 'viewer' });
      expect(demote.statusCode).toBe(409);
      expect(fakes.people.users.get(owner.id)?.role).toBe('owner');

      await person('acc-1', 'owner', 'o2@example.com');
      fakes.people.sessions.set('h1', { idHash: 'h1', userId: owner.id } as never);
      const removed = await post(`/console/users/${owner.id}/remove`, 'owner', {});
      expect(removed.statusCode).toBe(303);
      expect(removed.headers.location).toBe('/console/users?done=removed');
      expect(fakes.people.users.has(owner.id)).toBe(false);
      expect(fakes.people.sessions.has('h1')).toBe(false);
    });

    it("an operator manages a chosen account's users (the account carried in links and forms); unknown account 404", async () => {
      await person('acc-2', 'owner', 'two@example.com');
      const choose = await get('/console/users', 'operator');
      expect([choose.statusCode, choose.headers.location]).toEqual([303, '/console/accounts']);
      const res = await get('/console/users?account=acc-2', 'operator');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('two@example.com');
      expect(res.body).toContain('<input type="hidden" name="account" value="acc-2">');
      const made = await post('/console/users', 'operator', { account: 'acc-2', email: 'op-made@example.com', name: 'M', role: 'member' });
      expect(made.statusCode).toBe(201);
      expect([...fakes.people.users.values()].find((u) => u.email === 'op-made@example.com')?.accountId).toBe('acc-2');
      expect((await get('/console/users?account=nope', 'operator')).statusCode).toBe(404);
    });
  });

  describe('tokens', () => {
    it('creates a token (its secret shown once), lists it without the secret, revokes it; foreign 404; bad name 400', async () => {
      const made = await post('/console/tokens', 'owner', { name: 'CRM', kind: 'api' });
      expect(made.statusCode).toBe(201);
      const secret = /<code>([^<]+)<\/code>/.exec(made.body)?.[1];
      expect(secret).toBeTruthy();
      const token = [...fakes.tokens.values()][0]!;
      expect(token).toMatchObject({ accountId: 'acc-1', name: 'CRM', kind: 'api', revokedAt: null });
      expect(token.hash).not.toBe(secret);
      const list = await get('/console/tokens', 'owner');
      expect(list.body).toContain('CRM');
      expect(list.body).not.toContain(secret!);

      const revoked = await post(`/console/tokens/${token.id}/revoke`, 'owner', {});
      expect(revoked.statusCode).toBe(303);
      expect(fakes.tokens.get(token.id)?.revokedAt).not.toBeNull();
      expect((await get('/console/tokens?revoked=1', 'owner')).body).toContain('The token was revoked');

      fakes.tokens.set('t-other', { ...token, id: 't-other', accountId: 'acc-2', revokedAt: null });
      expect((await post('/console/tokens/t-other/revoke', 'owner', {})).statusCode).toBe(404);
      expect(fakes.tokens.get('t-other')?.revokedAt).toBeNull();
      expect((await post('/console/tokens/t-other/revoke', 'member', {})).statusCode).toBe(403);

      const bad = await post('/console/tokens', 'owner', { name: '  ', kind: 'api' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('id="t-name-error"');
      expect((await get('/console/tokens?lang=tr', 'owner')).body).toContain('API anahtarları');
    });
  });

  describe('accounts (operators)', () => {
    it('lists and creates accounts, opens one with its links; account people get 403', async () => {
      const list = await get('/console/accounts', 'operator');
      expect(list.statusCode).toBe(200);
      expect(list.body).toContain('Shop One');
      expect(list.body).toContain('href="/console/accounts">Accounts</a><a href="/console/sms-limits">SMS limits</a>');
      const made = await post('/console/accounts', 'operator', { name: 'Shop Three' });
      expect(made.statusCode).toBe(303);
      const page = await get(made.headers.location as string, 'operator');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<h1>Shop Three</h1>');
      for (const link of ['/console/?account=', '/console/users?account=', '/console/tokens?account=', '/console/sms-limits?account='])
        expect(page.body).toContain(link);
      const bad = await post('/console/accounts', 'operator', { name: '' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('id="a-name-error"');
      expect((await get('/console/accounts/nope', 'operator')).statusCode).toBe(404);
      for (const role of ['owner', 'member', 'viewer']) {
        expect((await get('/console/accounts', role)).statusCode).toBe(403);
        expect((await get('/console/sms-provider?account=acc-1', role)).statusCode).toBe(403);
        expect((await get('/console/sms-limits', role)).statusCode).toBe(403);
        expect((await post('/console/accounts', role, { name: 'X' })).statusCode).toBe(403);
      }
    });

    it("shows an account's SMS provider without its secrets; none: the deployment's", async () => {
      const res = await get('/console/sms-provider?account=acc-1', 'operator');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('https://sms.example/send');
      expect(res.body).toContain('<code>dlr.auth_token</code>');
      expect(res.body).not.toContain('hunter2-secret');
      expect(res.body).not.toContain('tok-secret');
      const none = await get('/console/sms-provider?account=acc-2', 'operator');
      expect(none.body).toContain('has no provider of its own');
      expect((await get('/console/sms-provider?account=nope', 'operator')).statusCode).toBe(404);
    });
  });

  describe('SMS limits (operators)', () => {
    it("shows the deployment's tiers and their source, and an account's usage", async () => {
      const res = await get('/console/sms-limits?account=acc-1', 'operator');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('From: the built-in defaults');
      expect(res.body).toMatch(/<th scope="row">t3<\/th><td class="num">160<\/td><td class="num">625<\/td>/);
      expect(res.body).toMatch(/<th scope="row">t0<\/th><td class="num">1<\/td><td class="num">20<\/td>/);
      expect(res.body).toContain('no window open');
      expect((await get('/console/sms-limits?lang=tr', 'operator')).body).toContain('Kaynak: yerleşik varsayılanlar');
    });

    it("sets an account's own limits, shows them, removes them", async () => {
      const set = await post('/console/sms-limits/account', 'operator', {
        account: 'acc-1',
        enabled: 'on',
        tier0_limit: '2',
        tier0_window: '60',
      });
      expect(set.statusCode).toBe(303);
      expect(set.headers.location).toBe('/console/sms-limits?account=acc-1&saved=1');
      expect(fakes.limits.sets).toEqual([
        { scope: { kind: 'account', accountId: 'acc-1' }, config: { enabled: true, tiers: [{ name: 't0', limit: 2, windowSeconds: 60 }] } },
      ]);
      const page = await get('/console/sms-limits?account=acc-1&saved=1', 'operator');
      expect(page.body).toContain('From: this account’s own limits');
      expect(page.body).toContain('action="/console/sms-limits/account/reset"');
      expect(page.body).toContain('Accounts with limits of their own: 1');
      const removed = await post('/console/sms-limits/account/reset', 'operator', { account: 'acc-1' });
      expect(removed.statusCode).toBe(303);
      expect(fakes.limits.own.size).toBe(0);
      const off = await post('/console/sms-limits/account', 'operator', { account: 'acc-2' });
      expect(off.statusCode).toBe(303);
      expect(fakes.limits.own.get('acc-2')).toEqual({ enabled: false, tiers: [] });
    });

    it('answers bad tiers with the form again and the error next to the field; nothing stored', async () => {
      const bad = await post('/console/sms-limits/account', 'operator', {
        account: 'acc-1',
        enabled: 'on',
        tier0_limit: 'x',
        tier0_window: '60',
        tier2_name: 'b',
        tier2_limit: '0',
        tier2_window: '5',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('id="a-tier0-limit-error"');
      expect(bad.body).toContain('id="a-tier2-limit-error"');
      expect(bad.body).toContain('value="x"');
      const none = await post('/console/sms-limits', 'operator', { enabled: 'on' });
      expect(none.statusCode).toBe(400);
      expect(none.body).toMatch(/<p class="alert" role="alert">[^<]+<\/p>/);
      expect(fakes.limits.sets).toEqual([]);
      expect((await post('/console/sms-limits/account', 'operator', { account: 'nope', enabled: 'on' })).statusCode).toBe(404);
    });

    it("sets and resets the deployment's limits; CSRF and roles checked", async () => {
      const set = await post('/console/sms-limits', 'operator', {
        enabled: 'on',
        tier0_name: 'burst',
        tier0_limit: '50',
        tier0_window: '10',
      });
      expect(set.statusCode).toBe(303);
      expect(fakes.limits.stored).toEqual({ enabled: true, tiers: [{ name: 'burst', limit: 50, windowSeconds: 10 }] });
      expect((await get('/console/sms-limits', 'operator')).body).toContain('From: stored settings');
      expect((await post('/console/sms-limits/reset', 'operator', {})).statusCode).toBe(303);
      expect(fakes.limits.stored).toBeNull();
      expect(
        (await post('/console/sms-limits', 'operator', { enabled: 'on', tier0_limit: '1', tier0_window: '1' }, false)).statusCode,
      ).toBe(403);
      expect((await post('/console/sms-limits', 'owner', { enabled: 'on', tier0_limit: '1', tier0_window: '1' })).statusCode).toBe(403);
      expect(fakes.limits.sets).toHaveLength(1);
    });
  });
});
