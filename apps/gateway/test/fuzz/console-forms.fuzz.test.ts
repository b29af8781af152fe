import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { stackClient } from '../e2e/stack-client.js';
import { populatedAccount, type TenantFixture } from '../e2e/tenant-fixture.js';

/**
 * The console's forms and query strings under malformed input, signed in with a valid session
 * and CSRF token (the console is hidden from the OpenAPI document, so schemathesis never sees it):
 * wrong types, huge fields, invalid UTF-8 raw and %-encoded, repeated fields, unknown ids and ids
 * of the wrong shape, wrong content types, broken multipart on the upload form. Every answer is
 * below 500 and every refusal is a console page (HTML with the console's style sheet); a refused
 * POST changes none of the account's data. Cases are drawn from a seeded generator (FUZZ_SEED
 * replays a run; the seed is printed on failure), a bounded number per route (FUZZ_CONSOLE_CASES).
 *
 * Not fuzzed: sign-out (it ends the session under test), the deployment's SMS limits (a valid
 * draw would change every account's limits while other suites run) and revoking a real token
 * (the data checks read through it); their refusals are in console-tenancy.e2e.test.ts.
 */

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const CASES = Number(process.env.FUZZ_CONSOLE_CASES ?? 6);
const api = stackClient();
const origin = new URL(api.baseUrl).origin;
const PASSWORD = 'a long enough secret for console fuzzing';

/** mulberry32: small, seeded, good enough to pick cases. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]! };
}

/** Values no form expects, as they go on the wire (already %-encoded where that is the point). */
const BAD_ENCODED = ['%', '%zz', '%C3%28', '%ED%A0%80', '%FF%FE', '%00', '%E2%82', 'a%2', '%25%zz'];
const BAD_TEXT = [
  '',
  ' ',
  'x'.repeat(100_000),
  '9'.repeat(400),
  '-1',
  '0',
  '1e309',
  'NaN',
  'true',
  'null',
  '[]',
  '{"$gt":""}',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '\u0000',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '😀'.repeat(50),
  '000000000000000000000000',
  'ffffffffffffffffffffffff',
  randomUUID(),
  'not-an-id',
  'a'.repeat(101),
  '2026-02-30',
  '9999-99-99',
  'survey.answered',
  'owner',
  'operator',
  'https://127.0.0.1:1/',
  'javascript:alert(1)',
  '+90532',
  '+905321234567'.repeat(30),
];

type Target = {
  method: 'GET' | 'POST';
  path: (ids: Record<string, string>) => string;
  /** The query's or the form's fields. */
  fields: string[];
  who: 'owner' | 'operator';
  multipart?: boolean;
};

const TARGETS: Target[] = [
  { method: 'GET', path: () => '/console/campaigns', fields: ['account', 'page', 'lang'], who: 'owner' },
  {
    method: 'GET',
    path: (i) => `/console/campaigns/${i.campaign_id}`,
    fields: ['from', 'to', 'interval', 'sharings_page', 'lang'],
    who: 'owner',
  },
  { method: 'GET', path: (i) => `/console/sharings/${i.sharing_id}`, fields: ['status', 'phone', 'page', 'cancelled'], who: 'owner' },
  { method: 'POST', path: (i) => `/console/sharings/${i.sharing_id}/cancel`, fields: ['account'], who: 'owner' },
  { method: 'GET', path: () => '/console/uploads', fields: ['account', 'campaign'], who: 'owner' },
  { method: 'GET', path: (i) => `/console/uploads/${i.directory_id}/files/${i.file_entry_id}`, fields: ['account', 'lang'], who: 'owner' },
  { method: 'GET', path: () => '/console/opt-outs', fields: ['phone', 'page', 'added', 'already', 'removed'], who: 'owner' },
  { method: 'POST', path: () => '/console/opt-outs', fields: ['phones'], who: 'owner' },
  { method: 'POST', path: () => '/console/opt-outs/remove', fields: ['phone'], who: 'owner' },
  { method: 'GET', path: () => '/console/responses', fields: ['campaign', 'from', 'to', 'page'], who: 'owner' },
  { method: 'GET', path: () => '/console/responses/export.csv', fields: ['campaign', 'from', 'to'], who: 'owner' },
  { method: 'GET', path: (i) => `/console/responses/${i.response_id}`, fields: ['account'], who: 'owner' },
  { method: 'GET', path: () => '/console/webhooks', fields: ['page'], who: 'owner' },
  { method: 'POST', path: () => '/console/webhooks', fields: ['url', 'events', 'description'], who: 'owner' },
  { method: 'GET', path: (i) => `/console/webhooks/${i.endpoint_id}`, fields: ['page', 'replayed'], who: 'owner' },
  { method: 'POST', path: (i) => `/console/webhooks/${i.endpoint_id}/enabled`, fields: ['enabled'], who: 'owner' },
  {
    method: 'POST',
    path: (i) => `/console/webhooks/${i.endpoint_id}/deliveries/${i.delivery_id}/replay`,
    fields: ['account'],
    who: 'owner',
  },
  { method: 'GET', path: () => '/console/users', fields: ['page', 'done'], who: 'owner' },
  { method: 'POST', path: () => '/console/users', fields: ['email', 'name', 'role', 'password'], who: 'owner' },
  { method: 'GET', path: (i) => `/console/users/${i.user_id}`, fields: ['account'], who: 'owner' },
  { method: 'POST', path: (i) => `/console/users/${i.user_id}`, fields: ['name', 'role'], who: 'owner' },
  { method: 'GET', path: () => '/console/tokens', fields: ['revoked'], who: 'owner' },
  { method: 'POST', path: () => '/console/tokens', fields: ['name', 'kind'], who: 'owner' },
  { method: 'POST', path: () => '/console/tokens/00000000-0000-4000-8000-000000000000/revoke', fields: ['account'], who: 'owner' },
  { method: 'GET', path: () => '/console/accounts', fields: ['page'], who: 'operator' },
  { method: 'POST', path: () => '/console/accounts', fields: ['name'], who: 'operator' },
  { method: 'GET', path: (i) => `/console/accounts/${i.account_id}`, fields: ['lang'], who: 'operator' },
  { method: 'GET', path: () => '/console/sms-provider', fields: ['account'], who: 'operator' },
  { method: 'GET', path: () => '/console/sms-limits', fields: ['account'], who: 'operator' },
  {
    method: 'POST',
    path: () => '/console/sms-limits/account',
    fields: ['enabled', 'tier0_limit', 'tier0_window', 'tier1_limit'],
    who: 'operator',
  },
  { method: 'POST', path: () => '/console/uploads', fields: ['campaign', 'directory_id', 'filename'], who: 'owner', multipart: true },
];

/** Paths whose ids are wrong: unknown, of the wrong shape, badly escaped. */
const BAD_PATHS = [
  '/console/campaigns/%zz',
  '/console/campaigns/%C3%28',
  `/console/campaigns/${'a'.repeat(300)}`,
  '/console/sharings/000000000000000000000000',
  '/console/sharings/..%2F..%2Fadmin',
  '/console/responses/%00',
  '/console/uploads/x/files/%ED%A0%80',
  `/console/webhooks/${randomUUID()}/deliveries/${'9'.repeat(101)}/replay`,
  '/console/users/%FF',
  '/console/accounts/%E2%82',
  '/console/campaigns?lang=en&lang=tr',
  '/console/sharings/x?lang[]=en',
];

type Person = { cookie: string; csrf: string };
type Answer = { status: number; type: string; text: string; what: string };

async function signIn(email: string): Promise<Person> {
  const res = await fetch(`${api.baseUrl}/console/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({ email, password: PASSWORD }).toString(),
  });
  const cookie = /fs_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (res.status !== 303 || !cookie) throw new Error(`sign-in: ${res.status}`);
  const page = await (await fetch(`${api.baseUrl}/console/campaigns`, { headers: { cookie }, redirect: 'manual' })).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error('no CSRF token on the campaigns page');
  return { cookie, csrf };
}

async function send(
  method: string,
  path: string,
  who: Person,
  headers: Record<string, string>,
  body?: string | Buffer | FormData,
): Promise<Answer> {
  const res = await fetch(api.baseUrl + path, {
    method,
    redirect: 'manual',
    headers: { cookie: who.cookie, ...(method === 'POST' ? { origin } : {}), ...headers },
    body,
  });
  const text = await res.text();
  const what = `seed ${SEED}: ${method} ${path.slice(0, 200)} ${typeof body === 'string' ? body.slice(0, 200) : ''} → ${res.status} ${text.slice(0, 300)}`;
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, what };
}

/** Never a 5xx; a refusal is a console page. */
function expectPage(a: Answer) {
  expect(a.status, a.what).toBeLessThan(500);
  if (a.status >= 400) {
    expect(a.type, a.what).toMatch(/^text\/html/);
    expect(a.text, a.what).toMatch(/^<!doctype html>/i);
    expect(a.text, a.what).toContain('<link rel="stylesheet" href="/console/assets/console-');
  }
}

/** What a console write could change, read through the API. */
async function snapshot(t: TenantFixture) {
  const bearer = { authorization: `Bearer ${t.apiToken}` };
  const get = async (path: string) => {
    const res = await api.request('GET', path, { headers: bearer });
    return `${res.status} ${res.text}`;
  };
  const strip = (text: string) => text.replace(/"(last_[a-z_]*|updated_at|[a-z_]*_seen_at)":("[^"]*"|null)/g, '');
  const [sharing, optOuts, endpoints, files, users, tokens, limits] = await Promise.all([
    get(`/v1/sms_sharings/${t.ids.sharing_id}`),
    get('/v1/sms_opt_outs'),
    get('/v1/webhook_endpoints'),
    get(`/v2/file_service/directory/${t.ids.directory_id}/files`),
    api.admin('GET', `/accounts/${t.accountId}/users`),
    api.admin('GET', `/accounts/${t.accountId}/tokens`),
    api.admin('GET', `/accounts/${t.accountId}/sms_limits`) as Promise<{
      enabled?: boolean;
      source?: string;
      tiers?: { limit?: number; window_seconds?: number }[];
    }>,
  ]);
  return {
    // What a write changes, not what sending does meanwhile (recipients' statuses, usage counters).
    sharing: cancelledOf(sharing),
    optOuts,
    endpoints: strip(endpoints),
    files,
    users: strip(JSON.stringify(users)),
    tokens: strip(JSON.stringify(tokens)),
    limits: JSON.stringify([limits.source, limits.enabled, limits.tiers?.map((x) => [x.limit, x.window_seconds])]),
  };
}

/** A sharing read's status and whether it was cancelled. */
const cancelledOf = (read: string) => `${read.slice(0, 4)}${/"cancelled_at":("[^"]*"|null)/.exec(read)?.[1] ?? ''}`;

let A: TenantFixture;
let owner: Person;
let operator: Person;

beforeAll(async () => {
  A = await populatedAccount('console-fuzz');
  const ownerEmail = `console-fuzz-owner-${randomUUID().slice(0, 8)}@example.com`;
  const operatorEmail = `console-fuzz-operator-${randomUUID().slice(0, 8)}@example.com`;
  await api.admin('POST', `/accounts/${A.accountId}/users`, { email: ownerEmail, name: 'Fuzz owner', role: 'owner', password: PASSWORD });
  await api.admin('POST', '/operators', { email: operatorEmail, name: 'Fuzz operator', password: PASSWORD });
  [owner, operator] = await Promise.all([signIn(ownerEmail), signIn(operatorEmail)]);
}, 120_000);

describe('console forms and query strings under malformed input', () => {
  it('bad paths: unknown ids, ids of the wrong shape, broken escapes → a console page, never a 5xx', { timeout: 30_000 }, async () => {
    for (const path of BAD_PATHS) expectPage(await send(path.endsWith('/replay') ? 'POST' : 'GET', path, owner, {}));
  });

  it.each(TARGETS.map((t) => [`${t.method} ${t.path({}).replace(/undefined/g, ':id')}`, t] as const))(
    '%s: malformed fields → below 500, refusals are console pages, a refused write changes nothing',
    { timeout: 40_000 },
    async (_, target) => {
      const rnd = generator(SEED + target.fields.join().length * 7919 + target.path({}).length);
      const who = target.who === 'owner' ? owner : operator;
      const base = target.path(A.ids);
      // An operator's forms name the account they act on; an owner's are always their own.
      const account = target.who === 'operator' ? { account: A.accountId } : {};
      let before = target.method === 'POST' ? await snapshot(A) : undefined;

      for (let n = 0; n < CASES; n++) {
        // Each field: a bad value raw, a bad escape, a real id, or left out; sometimes repeated.
        const pairs: string[] = [];
        for (const field of target.fields) {
          const roll = rnd.next();
          if (roll < 0.15) continue;
          const value =
            roll < 0.35
              ? rnd.pick(BAD_ENCODED)
              : roll < 0.5
                ? encodeURIComponent(rnd.pick(Object.values(A.ids)))
                : encodeURIComponent(rnd.pick(BAD_TEXT));
          pairs.push(`${field}=${value}`);
          if (rnd.next() < 0.15) pairs.push(`${field}=${encodeURIComponent(rnd.pick(BAD_TEXT))}`);
        }
        if (rnd.next() < 0.2) pairs.push(`${encodeURIComponent(rnd.pick(BAD_TEXT).slice(0, 50))}=${rnd.pick(BAD_ENCODED)}`);
        const accountPair = Object.entries(account).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
        let answer: Answer;
        if (target.method === 'GET') {
          // Huge values go in forms: a URL over the header limit is refused by Node's parser before any route (431, the API's body).
          answer = await send('GET', `${base}?${pairs.map((p) => p.slice(0, 2000)).join('&')}`, who, {});
        } else if (target.multipart) {
          answer = await brokenUpload(rnd, who, pairs);
        } else {
          const body = [`_csrf=${encodeURIComponent(who.csrf)}`, ...accountPair, ...pairs].join('&');
          const kind = rnd.next();
          answer =
            kind < 0.7
              ? await send('POST', base, who, { 'content-type': 'application/x-www-form-urlencoded' }, body)
              : kind < 0.8
                ? await send(
                    'POST',
                    base,
                    who,
                    { 'content-type': 'application/x-www-form-urlencoded' },
                    Buffer.concat([Buffer.from(body + '&x='), Buffer.from([0xff, 0xfe, 0xc3, 0x28])]),
                  )
                : kind < 0.9
                  ? await send('POST', base, who, { 'content-type': 'application/json' }, JSON.stringify({ _csrf: who.csrf, ...account }))
                  : await send(
                      'POST',
                      base,
                      who,
                      { 'content-type': 'application/x-www-form-urlencoded' },
                      `${body}&pad=${'x'.repeat(1_100_000)}`,
                    );
        }
        expectPage(answer);
        if (!before) continue;
        // A refusal wrote nothing; an accepted write is the new baseline.
        const after = await snapshot(A);
        if (answer.status >= 400) expect(after, answer.what).toEqual(before);
        before = after;
      }
    },
  );
});

/** The upload form, broken in one of several ways (the CSRF token sent, so the refusal is the body's). */
async function brokenUpload(rnd: ReturnType<typeof generator>, who: Person, pairs: string[]): Promise<Answer> {
  const boundary = `----fuzz${Math.floor(rnd.next() * 1e9)}`;
  const fields = [['_csrf', who.csrf], ...pairs.map((p) => p.split('=') as [string, string])].map(([k, v]) => {
    let value = v ?? '';
    try {
      value = decodeURIComponent(value);
    } catch {
      // A bad escape goes as sent.
    }
    return `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${value}\r\n`;
  });
  const file = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="x.csv"\r\ncontent-type: text/csv\r\n\r\nphone\n+905321234567\n\r\n`;
  const whole = `${fields.join('')}${file}--${boundary}--\r\n`;
  const way = rnd.pick(['truncated', 'no boundary', 'other boundary', 'file first', 'no filename', 'invalid utf-8', 'wellformed'] as const);
  const type = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  switch (way) {
    case 'truncated':
      return send('POST', '/console/uploads', who, type, whole.slice(0, Math.floor(whole.length * rnd.next())));
    case 'no boundary':
      return send('POST', '/console/uploads', who, { 'content-type': 'multipart/form-data' }, whole);
    case 'other boundary':
      return send('POST', '/console/uploads', who, { 'content-type': 'multipart/form-data; boundary=nothere' }, whole);
    case 'file first':
      return send('POST', '/console/uploads', who, type, `${file}${fields.join('')}--${boundary}--\r\n`);
    case 'no filename':
      return send('POST', '/console/uploads', who, type, whole.replace('; filename="x.csv"', ''));
    case 'invalid utf-8':
      return send(
        'POST',
        '/console/uploads',
        who,
        type,
        Buffer.concat([Buffer.from(fields.join('')), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from(`\r\n${file}--${boundary}--\r\n`)]),
      );
    default:
      return send('POST', '/console/uploads', who, type, whole);
  }
}
