import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodedForm, untilAnswered } from './refused-upload.js';
import { stackClient } from './stack-client.js';
import { populatedAccount, type TenantFixture } from './tenant-fixture.js';

/**
 * The console's tenancy matrix, beside the API's (tenancy.e2e.test.ts): every console route,
 * listed from apps/gateway/src/console/*.routes.ts at run time (a route missing from ROUTES
 * fails the first test), called over HTTP against the running stack by real people of account A:
 * on account B's ids the owner gets the 404 page and none of B's names; a viewer's every POST,
 * a member's owner-only and an owner's operator-only routes are 403; no session is 303 to the
 * sign-in page; a POST without the CSRF token is 403. Neither account's data changes.
 */

type Who = 'any' | 'writer' | 'manager' | 'operator';
type Ids = Record<string, string>;
type Route = {
  /** Who may use it: any signed-in person of the account, owners and members, owners, operators. */
  who: Who;
  /** The path with the fixture's ids (ids named as tenant-fixture.ts names them). */
  path: (ids: Ids) => string;
  /** A valid form for a POST (CSRF token added). */
  form?: (ids: Ids) => Record<string, string>;
  /** The upload form: multipart. */
  multipart?: boolean;
  /** A naming one of B's resources is 404 for A's owner (in the path or the query). */
  foreign?: boolean;
};

const q = encodeURIComponent;
const ROUTES: Record<string, Route> = {
  'GET /console/': { who: 'any', path: () => '/console/' },
  'GET /console/campaigns': { who: 'any', path: () => '/console/campaigns' },
  'GET /console/campaigns/:id': { who: 'any', path: (i) => `/console/campaigns/${q(i.campaign_id!)}`, foreign: true },
  'GET /console/sharings/:id': { who: 'any', path: (i) => `/console/sharings/${q(i.sharing_id!)}`, foreign: true },
  'POST /console/sharings/:id/cancel': {
    who: 'writer',
    path: (i) => `/console/sharings/${q(i.sharing_id!)}/cancel`,
    form: () => ({}),
    foreign: true,
  },
  'POST /console/sign-out': { who: 'any', path: () => '/console/sign-out', form: () => ({}) },
  'GET /console/password': { who: 'any', path: () => '/console/password' },
  // A wrong current password: were it ever accepted, the test's people would lose their sessions.
  'POST /console/password': {
    who: 'any',
    path: () => '/console/password',
    form: () => ({
      current_password: 'not the password',
      new_password: 'a new long enough secret',
      new_password2: 'a new long enough secret',
    }),
  },
  'GET /console/uploads': { who: 'any', path: (i) => `/console/uploads?campaign=${q(i.campaign_id!)}`, foreign: true },
  'POST /console/uploads': { who: 'writer', path: () => '/console/uploads', multipart: true, foreign: true },
  'GET /console/uploads/:directory/files/:file': {
    who: 'any',
    path: (i) => `/console/uploads/${q(i.directory_id!)}/files/${q(i.file_entry_id!)}`,
    foreign: true,
  },
  'GET /console/opt-outs': { who: 'any', path: () => '/console/opt-outs' },
  'POST /console/opt-outs': { who: 'writer', path: () => '/console/opt-outs', form: () => ({ phones: '+905329990001' }) },
  'POST /console/opt-outs/remove': { who: 'writer', path: () => '/console/opt-outs/remove', form: (i) => ({ phone: i.phone! }) },
  'GET /console/responses': { who: 'any', path: (i) => `/console/responses?campaign=${q(i.campaign_id!)}`, foreign: true },
  'GET /console/responses/export.csv': {
    who: 'any',
    path: (i) => `/console/responses/export.csv?campaign=${q(i.campaign_id!)}`,
    foreign: true,
  },
  'GET /console/responses/:id': { who: 'any', path: (i) => `/console/responses/${q(i.response_id!)}`, foreign: true },
  'GET /console/webhooks': { who: 'manager', path: () => '/console/webhooks' },
  'POST /console/webhooks': {
    who: 'manager',
    path: () => '/console/webhooks',
    form: () => ({ url: 'https://example.com/console-tenancy', events: 'survey.answered' }),
  },
  'GET /console/webhooks/:id': { who: 'manager', path: (i) => `/console/webhooks/${q(i.endpoint_id!)}`, foreign: true },
  'POST /console/webhooks/:id/enabled': {
    who: 'manager',
    path: (i) => `/console/webhooks/${q(i.endpoint_id!)}/enabled`,
    form: () => ({ enabled: 'false' }),
    foreign: true,
  },
  'POST /console/webhooks/:id/rotate': {
    who: 'manager',
    path: (i) => `/console/webhooks/${q(i.endpoint_id!)}/rotate`,
    form: () => ({}),
    foreign: true,
  },
  'POST /console/webhooks/:id/deliveries/:delivery/replay': {
    who: 'manager',
    path: (i) => `/console/webhooks/${q(i.endpoint_id!)}/deliveries/${q(i.delivery_id!)}/replay`,
    form: () => ({}),
    foreign: true,
  },
  'GET /console/users': { who: 'manager', path: () => '/console/users' },
  'POST /console/users': {
    who: 'manager',
    path: () => '/console/users',
    form: () => ({ email: `invited-${randomUUID().slice(0, 8)}@example.com`, name: 'Invited', role: 'viewer' }),
  },
  'GET /console/users/:id': { who: 'manager', path: (i) => `/console/users/${q(i.user_id!)}`, foreign: true },
  'POST /console/users/:id': {
    who: 'manager',
    path: (i) => `/console/users/${q(i.user_id!)}`,
    form: () => ({ name: 'Renamed', role: 'owner' }),
    foreign: true,
  },
  'POST /console/users/:id/remove': {
    who: 'manager',
    path: (i) => `/console/users/${q(i.user_id!)}/remove`,
    form: () => ({}),
    foreign: true,
  },
  'GET /console/tokens': { who: 'manager', path: () => '/console/tokens' },
  'POST /console/tokens': { who: 'manager', path: () => '/console/tokens', form: () => ({ name: 'console tenancy', kind: 'api' }) },
  'POST /console/tokens/:id/revoke': {
    who: 'manager',
    path: (i) => `/console/tokens/${q(i.token_id!)}/revoke`,
    form: () => ({}),
    foreign: true,
  },
  'GET /console/accounts': { who: 'operator', path: () => '/console/accounts' },
  'POST /console/accounts': { who: 'operator', path: () => '/console/accounts', form: () => ({ name: 'console tenancy' }) },
  'GET /console/accounts/:id': { who: 'operator', path: (i) => `/console/accounts/${q(i.account_id!)}` },
  'GET /console/sms-provider': { who: 'operator', path: () => '/console/sms-provider' },
  'GET /console/sms-limits': { who: 'operator', path: () => '/console/sms-limits' },
  'POST /console/sms-limits': {
    who: 'operator',
    path: () => '/console/sms-limits',
    form: () => ({ enabled: 'on', tier0_limit: '1', tier0_window: '60' }),
  },
  'POST /console/sms-limits/reset': { who: 'operator', path: () => '/console/sms-limits/reset', form: () => ({}) },
  'POST /console/sms-limits/account': {
    who: 'operator',
    path: () => '/console/sms-limits/account',
    form: (i) => ({ account: i.account_id!, enabled: 'on', tier0_limit: '1', tier0_window: '60' }),
  },
  'POST /console/sms-limits/account/reset': {
    who: 'operator',
    path: () => '/console/sms-limits/account/reset',
    form: (i) => ({ account: i.account_id! }),
  },
};
/** Pages anyone reaches without a session (their own tests cover them). */
const PUBLIC = new Set([
  'GET /console/sign-in',
  'POST /console/sign-in',
  'GET /console/invite/:token',
  'POST /console/invite/:token',
  'GET /console/sso/start',
  'GET /console/sso/callback',
]);

/** POSTs about the signed-in person, not the account's data: any role, a viewer too. */
const OWN_POSTS = new Set(['POST /console/sign-out', 'POST /console/password']);

const CONSOLE_SRC = new URL('../../src/console/', import.meta.url);
/** Every `app.get('/console/...')` / `app.post(...)` of the console's route files. */
function declaredRoutes(): string[] {
  return readdirSync(CONSOLE_SRC)
    .filter((f) => f.endsWith('.routes.ts'))
    .flatMap((f) =>
      [...readFileSync(new URL(f, CONSOLE_SRC), 'utf8').matchAll(/app\.(get|post|put|patch|delete)\(\s*'(\/console[^']*)'/g)].map(
        (m) => `${m[1]!.toUpperCase()} ${m[2]!}`,
      ),
    );
}

const api = stackClient();
const origin = new URL(api.baseUrl).origin;
const PASSWORD = 'a long enough secret for console tenancy';
const allowed = (who: Who, role: 'owner' | 'member' | 'viewer') =>
  who === 'any' || (who === 'writer' && role !== 'viewer') || (who === 'manager' && role === 'owner');

type Person = { cookie: string; csrf: string };
type Answer = { status: number; location: string | null; text: string };

async function send(method: string, path: string, who: Person | null, form?: Record<string, string>, multipart = false): Promise<Answer> {
  const headers: Record<string, string> = who ? { cookie: who.cookie } : {};
  let body: string | Uint8Array | undefined;
  if (method === 'POST') {
    headers.origin = origin;
    if (multipart) {
      const f = new FormData();
      for (const [k, v] of Object.entries(form ?? {})) f.append(k, v);
      f.append('file', new Blob(['phone\n+905321234567\n']), 'tenancy.csv');
      const encoded = await encodedForm(f);
      headers['content-type'] = encoded.contentType;
      body = encoded.body;
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form ?? {}).toString();
    }
  }
  const post = () => fetch(api.baseUrl + path, { method, headers, body, redirect: 'manual' });
  const res = multipart ? await untilAnswered(post) : await post();
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

async function person(accountId: string, role: 'owner' | 'member' | 'viewer'): Promise<Person> {
  const email = `console-${role}-${randomUUID().slice(0, 8)}@example.com`;
  await api.admin('POST', `/accounts/${accountId}/users`, { email, name: `Console ${role}`, role, password: PASSWORD });
  const res = await fetch(`${api.baseUrl}/console/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({ email, password: PASSWORD }).toString(),
  });
  const cookie = /fs_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (res.status !== 303 || !cookie) throw new Error(`sign-in as ${role}: ${res.status}`);
  const page = await send('GET', '/console/campaigns', { cookie, csrf: '' });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1];
  if (!csrf) throw new Error(`no CSRF token on the campaigns page of a ${role}`);
  return { cookie, csrf };
}

/** What the console's writes could change, read through the API: equal before and after. */
async function snapshot(t: TenantFixture) {
  const bearer = { authorization: `Bearer ${t.apiToken}` };
  const get = async (path: string) => {
    const res = await api.request('GET', path, { headers: bearer });
    return `${res.status} ${res.text}`;
  };
  const strip = (text: string) => text.replace(/"(last_[a-z_]*|updated_at|[a-z_]*_seen_at)":("[^"]*"|null)/g, '');
  return {
    // Whether it was cancelled, not its recipients' statuses (sending goes on meanwhile).
    sharing: (await get(`/v1/sms_sharings/${t.ids.sharing_id}`)).replace(/^(\d+ ).*("cancelled_at":("[^"]*"|null)).*$/s, '$1$2'),
    optOuts: await get('/v1/sms_opt_outs'),
    endpoint: strip(await get(`/v1/webhook_endpoints/${t.ids.endpoint_id}`)),
    endpoints: strip(await get('/v1/webhook_endpoints')),
    users: strip(JSON.stringify(await api.admin('GET', `/accounts/${t.accountId}/users`))),
    tokens: strip(JSON.stringify(await api.admin('GET', `/accounts/${t.accountId}/tokens`))),
  };
}

let A: TenantFixture;
let B: TenantFixture;
let owner: Person;
let member: Person;
let viewer: Person;
let before: { a: Awaited<ReturnType<typeof snapshot>>; b: Awaited<ReturnType<typeof snapshot>> };

beforeAll(async () => {
  [A, B] = await Promise.all([populatedAccount('console-A'), populatedAccount('console-B')]);
  [owner, member, viewer] = await Promise.all([person(A.accountId, 'owner'), person(A.accountId, 'member'), person(A.accountId, 'viewer')]);
  before = { a: await snapshot(A), b: await snapshot(B) };
}, 180_000);

describe('console tenancy matrix over apps/gateway/src/console/*.routes.ts', () => {
  it('names every console route (add a new one to ROUTES, or to PUBLIC when it needs no session)', () => {
    const declared = declaredRoutes();
    expect(declared.length).toBeGreaterThan(30);
    expect(declared.filter((r) => !(r in ROUTES) && !PUBLIC.has(r))).toEqual([]);
    expect(Object.keys(ROUTES).filter((r) => !declared.includes(r))).toEqual([]);
  });

  it.each(Object.entries(ROUTES))('%s: roles, sessions, CSRF and other accounts', { timeout: 60_000 }, async (key, route) => {
    const method = key.split(' ')[0]!;
    const post = method === 'POST';
    const call = (who: Person | null, ids: Ids, withCsrf = true) =>
      send(
        method,
        route.path(ids),
        who,
        post
          ? {
              ...(route.form?.(ids) ?? {}),
              ...(route.multipart ? multipartFields(ids) : {}),
              ...(withCsrf && who ? { _csrf: who.csrf } : {}),
            }
          : undefined,
        route.multipart,
      );
    const what = (who: string, a: Answer) => `${key} as ${who} → ${a.status} ${a.location ?? ''} ${a.text.slice(0, 300)}`;

    // No session: the sign-in page.
    const anonymous = await call(null, A.ids);
    expect(anonymous.status, what('nobody', anonymous)).toBe(303);
    expect(anonymous.location, what('nobody', anonymous)).toBe('/console/sign-in');

    // A's people by role: refused is the 403 page (a viewer's every write among them).
    for (const [role, who] of [
      ['owner', owner],
      ['member', member],
      ['viewer', viewer],
    ] as const) {
      // Signing out and one's own password are no writes to the account: a viewer may.
      if (allowed(route.who, role) && !(post && role === 'viewer' && !OWN_POSTS.has(key))) continue;
      const res = await call(who, A.ids);
      expect(res.status, what(role, res)).toBe(403);
      expect(res.text, what(role, res)).toMatch(/^<!doctype html>/i);
    }

    // A POST without the session's CSRF token: 403, whoever sends it.
    if (post) {
      const res = await call(owner, A.ids, false);
      expect(res.status, what('owner without CSRF', res)).toBe(403);
    }

    // Account B's resource named by A's owner: the 404 page, none of B's names but those the caller sent.
    if (route.foreign && allowed(route.who, 'owner') && key !== 'POST /console/sign-out') {
      const res = await call(owner, B.ids);
      expect(res.status, what("owner on B's ids", res)).toBe(404);
      expect(res.text, what("owner on B's ids", res)).toMatch(/^<!doctype html>/i);
      const sent =
        route.path(B.ids) + JSON.stringify(route.form?.(B.ids) ?? {}) + JSON.stringify(route.multipart ? multipartFields(B.ids) : {});
      expect(
        B.secrets.filter((s) => !sent.includes(s) && res.text.includes(s)),
        what("owner on B's ids", res),
      ).toEqual([]);
    }

    // A page of A's own for those who may read it, asked with B's account: A's page, nothing of B's.
    if (!post && allowed(route.who, 'owner')) {
      const path = route.path(A.ids);
      const res = await send('GET', `${path}${path.includes('?') ? '&' : '?'}account=${q(B.accountId)}`, owner);
      expect(res.status, what('owner with account=B', res)).toBe(200);
      expect(
        B.secrets.filter((s) => s !== B.accountId && res.text.includes(s)),
        what('owner with account=B', res),
      ).toEqual([]);
    }
  });

  it("changed nothing of A's or B's data", { timeout: 60_000 }, async () => {
    // The reads were real reads, not the same refusal twice.
    for (const read of [before.a, before.b])
      for (const [name, text] of Object.entries(read)) if (!['users', 'tokens'].includes(name)) expect(text, name).toMatch(/^200 /);
    expect(await snapshot(A)).toEqual(before.a);
    expect(await snapshot(B)).toEqual(before.b);
  });
});

/** The upload form's fields before its file: the campaign and the directory binding it names. */
function multipartFields(ids: Ids): Record<string, string> {
  return { campaign: ids.campaign_id!, directory_id: ids.directory_id!, filename: ids.filename! };
}
