import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { randomPhone, smsClient } from './sms-client.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TIGHT = '"t0";q=2;w=60';
const PASSWORD = 'a long enough secret for e2e';
// E-mails are unique in the deployment: each run its own.
const email = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.com`;

/**
 * The owners' and operators' console pages over HTTP against the running stack, signed in as a
 * real person. Only per-account limits of this test's fresh account change: the deployment's are
 * shared by every test running beside it.
 */
describe('console: operators and owners over HTTP', () => {
  const sms = smsClient();

  /** A console page or form as a browser sends it: the session cookie, no redirect followed. */
  async function consoleCall(method: 'GET' | 'POST', path: string, cookie: string, form?: Record<string, string>) {
    const res = await fetch(sms.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: { cookie, ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(sms.baseUrl).origin } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  }
  async function signIn(address: string): Promise<string> {
    const res = await fetch(`${sms.baseUrl}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(sms.baseUrl).origin },
      body: new URLSearchParams({ email: address, password: PASSWORD }).toString(),
    });
    expect(res.status).toBe(303);
    const cookie = /fs_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
    expect(cookie).toBeTruthy();
    return cookie!;
  }
  const csrfOf = (page: string) => /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';

  it('an operator sets a low limit for an account through the console: its next sharings get 429 within 5 s; removing it admits them again', async () => {
    const tight = await sms.newCampaign();
    const accountId = tight.account.id;
    const operatorEmail = email('operator');
    await sms.admin('POST', '/operators', { email: operatorEmail, name: 'E2E operator', password: PASSWORD });
    const cookie = await signIn(operatorEmail);

    const page = await consoleCall('GET', `/console/sms-limits?account=${accountId}`, cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="/console/sms-limits/account"');
    const _csrf = csrfOf(page.text);
    const set = await consoleCall('POST', '/console/sms-limits/account', cookie, {
      _csrf,
      account: accountId,
      enabled: 'on',
      tier0_limit: '2',
      tier0_window: '60',
    });
    expect(set.status, set.text).toBe(303);

    const share = () => sms.share(tight.account.apiToken, tight.campaignId, { phone_numbers: [randomPhone()] });
    async function shareUntil(done: (r: Awaited<ReturnType<typeof share>>) => boolean) {
      const seen: Awaited<ReturnType<typeof share>>[] = [];
      const until = Date.now() + 5_000;
      for (;;) {
        const r = await share();
        seen.push(r);
        if (done(r) || Date.now() > until) return seen;
        await sleep(100);
      }
    }
    const answers = await shareUntil((r) => r.status === 429);
    expect(answers.filter((r) => r.headers.get('ratelimit-policy') === TIGHT).map((r) => r.status)).toEqual([200, 200, 429]);

    // The page shows the account's own limit, full.
    const full = await consoleCall('GET', `/console/sms-limits?account=${accountId}`, cookie);
    expect(full.text).toContain('this account’s own limits');
    expect(full.text).toMatch(/<th scope="row">t0<\/th><td class="num">2<\/td><td class="num">2<\/td><td class="num">60<\/td>/);

    const removed = await consoleCall('POST', '/console/sms-limits/account/reset', cookie, { _csrf, account: accountId });
    expect(removed.status, removed.text).toBe(303);
    const after = await shareUntil((r) => r.status === 200 && r.headers.get('ratelimit-policy') !== TIGHT);
    expect(after.at(-1)!.status).toBe(200);
    const limits = await sms.admin('GET', `/accounts/${accountId}/sms_limits`);
    expect(limits.source).not.toBe('account');

    // The accounts, a page at a time on the stack's database; the fresh one's page links to its limits.
    const accounts = await consoleCall('GET', '/console/accounts', cookie);
    expect(accounts.status).toBe(200);
    const next = /href="(\/console\/accounts\?page=[^"]+)" rel="next"/.exec(accounts.text)?.[1];
    if (next) expect((await consoleCall('GET', next.replace(/&amp;/g, '&'), cookie)).status).toBe(200);
    const one = await consoleCall('GET', `/console/accounts/${accountId}`, cookie);
    expect(one.status).toBe(200);
    expect(one.text).toContain(`/console/sms-limits?account=${accountId}`);
  });

  it('an owner manages users and tokens of their own account; a member gets 403', async () => {
    const account = await sms.admin('POST', '/accounts', { name: 'console e2e' });
    const ownerEmail = email('owner');
    const memberEmail = email('member');
    await sms.admin('POST', `/accounts/${account.id}/users`, { email: ownerEmail, name: 'Owner', role: 'owner', password: PASSWORD });
    await sms.admin('POST', `/accounts/${account.id}/users`, { email: memberEmail, name: 'Member', role: 'member', password: PASSWORD });
    const owner = await signIn(ownerEmail);

    const users = await consoleCall('GET', '/console/users', owner);
    expect(users.status).toBe(200);
    expect(users.text).toContain(memberEmail);
    const _csrf = csrfOf(users.text);
    const invited = await consoleCall('POST', '/console/users', owner, { _csrf, email: email('invited'), name: 'Invited', role: 'viewer' });
    expect(invited.status).toBe(201);
    expect(invited.text).toMatch(/\/console\/invite\/[A-Za-z0-9_-]{43}/);

    const made = await consoleCall('POST', '/console/tokens', owner, { _csrf, name: 'from the console', kind: 'api' });
    expect(made.status).toBe(201);
    const listed = await sms.admin('GET', `/accounts/${account.id}/tokens`);
    expect((listed as unknown as { data: { name: string }[] }).data.map((t) => t.name)).toContain('from the console');

    const member = await signIn(memberEmail);
    expect((await consoleCall('GET', '/console/users', member)).status).toBe(403);
    expect((await consoleCall('GET', '/console/sms-limits', member)).status).toBe(403);
  });
});
