import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStackFile } from '@feedback/dev-stack';
import { createLogger } from '@feedback/kit-core/runtime';
import { connectMongo } from '@feedback/kit-stores';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startGatewayProcess, type GatewayProcess } from './gateway-process.js';

/*
 * The console's single sign-on against a real OpenID Connect provider: oidc-provider (certified)
 * in this process on a free loopback port, with a static confidential client and three people,
 * and a gateway process of its own configured with OIDC_* (and a database of its own). A browser
 * is played over HTTP: a cookie jar per origin, redirects followed by hand, the provider's own
 * login and consent forms posted. docs/decisions.md "Single sign-on".
 */

const stack = readStackFile();
const hex = () => randomBytes(4).toString('hex');

/** A browser enough for the round trip: cookies per origin (paths ignored: the names do not collide), manual redirects. */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();
  /** Every URL requested, in order. */
  readonly visited: string[] = [];

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const { origin } = new URL(url);
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    this.visited.push(url);
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (init.form) Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', origin });
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      redirect: 'manual',
      ...(init.form && { body: new URLSearchParams(init.form).toString() }),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      const gone = value === '' || attrs.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (gone) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  /** Follows redirects from `url`; `rewrite` may change a URL before it is requested (a tampered callback). */
  async follow(url: string, init: { method?: string; form?: Record<string, string> } = {}, rewrite = (u: string) => u): Promise<Response> {
    let res = await this.request(rewrite(url), init);
    for (let hops = 0; res.status >= 300 && res.status < 400; hops++) {
      if (hops > 10) throw new Error('too many redirects');
      url = new URL(res.headers.get('location')!, url).href;
      res = await this.request(rewrite(url));
    }
    return res;
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }
}

/** The provider's login and consent pages are forms: fill in `login` and post them until the browser leaves the provider. */
async function throughProvider(browser: Browser, issuer: string, first: Response, login: string, rewrite?: (u: string) => string) {
  let res = first;
  let url = browser.visited.at(-1)!;
  while (url.startsWith(issuer) && res.status === 200) {
    const page = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, '&');
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`no form on the provider's page: ${page.slice(0, 300)}`);
    const form: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
    res = await browser.follow(new URL(action, url).href, { method: 'POST', form }, rewrite);
    url = browser.visited.at(-1)!;
  }
  return { res, url };
}

describe('console single sign-on with a real OpenID Connect provider', () => {
  const dbName = `gateway_sso_${hex()}`;
  const email = `sso-${hex()}@example.com`;
  let issuer: string;
  let server: Server;
  let gw: GatewayProcess;
  const secret = randomBytes(24).toString('base64url');

  beforeAll(async () => {
    const [gwPort, providerPort] = [await freePort(), await freePort()];
    issuer = `http://127.0.0.1:${providerPort}`;
    const people: Record<string, { email: string; email_verified: boolean }> = {
      ada: { email: email.toUpperCase(), email_verified: true },
      stranger: { email: `stranger-${hex()}@example.com`, email_verified: true },
      unverified: { email, email_verified: false },
    };
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'feedback-console',
          client_secret: secret,
          redirect_uris: [`http://127.0.0.1:${gwPort}/console/sso/callback`],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      // Dev interactions sign in whoever is typed in; the account then says who that is.
      findAccount: async (_ctx, id) => (people[id] ? { accountId: id, claims: async () => ({ sub: id, ...people[id] }) } : undefined),
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      cookies: { keys: [randomBytes(16).toString('hex')] },
    });
    server = provider.listen(providerPort, '127.0.0.1');
    const secretFile = join(mkdtempSync(join(tmpdir(), 'sso-')), 'client-secret');
    writeFileSync(secretFile, `${secret}\n`);
    gw = await startGatewayProcess({
      // Its info lines too: the refusals are logged, the e-mails and tokens never.
      LOG_LEVEL: 'info',
      API_PORT: String(gwPort),
      PUBLIC_BASE_URL: `http://127.0.0.1:${gwPort}`,
      MONGO_DB: dbName,
      OIDC_ISSUER_URL: issuer,
      OIDC_CLIENT_ID: 'feedback-console',
      OIDC_CLIENT_SECRET_FILE: secretFile,
      OIDC_DISPLAY_NAME: 'Test ID',
    });
    // The user exists before anyone signs in: an operator made them (here through the admin API).
    const admin = (path: string, body: unknown) =>
      fetch(`${gw.baseUrl}/admin/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.admin_token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as { id: string } }));
    const account = await admin('/accounts', { name: 'SSO test' });
    expect(account.status).toBe(201);
    expect((await admin(`/accounts/${account.json.id}/users`, { email, name: 'Ada SSO', role: 'viewer' })).status).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await gw?.kill();
    if (server?.listening) server.close();
    const mongo = await connectMongo({ url: stack.mongo_url, dbName, logger: createLogger('gateway-test', 'silent') });
    await mongo.db.dropDatabase().catch(() => undefined);
    await mongo.close();
  });

  it('the sign-in page offers the provider; start → login → consent → callback signs in the existing user (200 console page)', async () => {
    const signInPage = await (await fetch(`${gw.baseUrl}/console/sign-in`)).text();
    expect(signInPage).toContain('href="/console/sso/start">Sign in with Test ID</a>');

    const browser = new Browser();
    const first = await browser.follow(`${gw.baseUrl}/console/sso/start`);
    expect(browser.visited[1]).toMatch(new RegExp(`^${issuer}/auth\\?.*code_challenge_method=S256`));
    const { res, url } = await throughProvider(browser, issuer, first, 'ada');
    expect(url).toBe(`${gw.baseUrl}/console/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Ada SSO');
    expect(browser.visited.some((u) => u.startsWith(`${gw.baseUrl}/console/sso/callback?code=`))).toBe(true);
    expect(browser.cookie(gw.baseUrl, 'fs_session')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(browser.cookie(gw.baseUrl, 'fs_sso')).toBeUndefined();
  });

  it('an e-mail no user has, and an unverified one, get the same refusal page (403) and no session', async () => {
    const bodies: string[] = [];
    for (const login of ['stranger', 'unverified']) {
      const browser = new Browser();
      const { res, url } = await throughProvider(browser, issuer, await browser.follow(`${gw.baseUrl}/console/sso/start`), login);
      expect(url).toMatch(new RegExp(`^${gw.baseUrl}/console/sso/callback\\?`));
      expect(res.status).toBe(403);
      const body = await res.text();
      expect(body).toContain('This Test ID account cannot sign in here.');
      expect(body).not.toContain('@example.com');
      bodies.push(body);
      expect(browser.cookie(gw.baseUrl, 'fs_session')).toBeUndefined();
    }
    expect(bodies[1]).toBe(bodies[0]);
  });

  it('a callback whose state was changed on the way back is refused (400) and signs nobody in', async () => {
    const browser = new Browser();
    const tamper = (u: string) =>
      u.startsWith(`${gw.baseUrl}/console/sso/callback?`) ? u.replace(/([?&]state=)[^&]+/, '$1forged-state-0123456789') : u;
    const { res, url } = await throughProvider(browser, issuer, await browser.follow(`${gw.baseUrl}/console/sso/start`), 'ada', tamper);
    expect(url).toContain('state=forged-state-0123456789');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Signing in with Test ID did not complete.');
    expect(browser.cookie(gw.baseUrl, 'fs_session')).toBeUndefined();
  });

  // Last: it stops the provider.
  it('the provider gone between the start and the callback: the sign-in page says it cannot be reached (503), never a 500', async () => {
    const browser = new Browser();
    const start = await browser.request(`${gw.baseUrl}/console/sso/start`);
    expect(start.status).toBe(303);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    await new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
    const res = await browser.request(`${gw.baseUrl}/console/sso/callback?code=abc&state=${state}&iss=${encodeURIComponent(issuer)}`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('Test ID cannot be reached at the moment.');
    expect(browser.cookie(gw.baseUrl, 'fs_session')).toBeUndefined();
    // The process writes its lines in batches: wait (10 s at most) for this last one.
    for (const until = Date.now() + 10_000; !gw.output().includes('the callback failed') && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 100));
    const logs = gw.output();
    expect(logs).toContain('single sign-on: the callback failed');
    expect(logs).toContain('single sign-on refused');
    for (const secretText of [email, email.toUpperCase(), 'stranger-', secret]) expect(logs).not.toContain(secretText);
  });
});
