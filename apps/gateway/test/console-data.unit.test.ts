import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { campaignOf, FakeSessions, FakeSms, viewerOf } from './console-fakes.js';
import { dayStart } from '../src/console/responses.routes.js';
import { consoleDataApi, FakeFiles, FakeResponses, FakeSmsData, FakeWebhooks, responseOf } from './console-data-fakes.js';

// The console's upload, opt-out, response and webhook pages on fakes: who may see and do what,
// another account's things (404), CSRF, both languages where the texts differ.

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const ORIGIN = { origin: 'http://localhost:8080' };
const BOUNDARY = 'console-test-boundary';

/** A browser's multipart form: fields in order, then the file. */
function multipart(fields: Record<string, string>, file?: { name: string; body: string }): string {
  const parts = Object.entries(fields).map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  if (file)
    parts.push(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.body}\r\n`,
    );
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

describe('console data pages', () => {
  let sessions: FakeSessions;
  let sms: FakeSms;
  let files: FakeFiles;
  let smsData: FakeSmsData;
  let responses: FakeResponses;
  let webhooks: FakeWebhooks;
  let app: FastifyInstance;
  const cookies: Record<string, string> = {};
  const csrf = (role: string) => `csrf-${role}-0123456789abcdef`;

  beforeAll(async () => {
    sessions = new FakeSessions();
    sms = new FakeSms();
    files = new FakeFiles();
    smsData = new FakeSmsData(sms);
    responses = new FakeResponses();
    webhooks = new FakeWebhooks();
    app = await consoleDataApi(sessions, sms, { files, smsData, responses, webhooks });
    for (const role of ['owner', 'member', 'viewer'] as const) cookies[role] = sessions.open(viewerOf(role));
    cookies.operator = sessions.open(viewerOf('operator', null));
  });
  afterAll(() => app.close());
  beforeEach(() => {
    sms.campaigns = [campaignOf('c-1', 'acc-1', 'Spring'), campaignOf('c-2', 'acc-2', 'Other shop')];
    sms.campaigns[0]!.channelId = 'ch-1';
    smsData.bindings = [
      { accountId: 'acc-1', campaignId: 'c-1', directoryId: 'dir-1', fileName: 'customers.csv', createdAt: '', updatedAt: '' },
      { accountId: 'acc-2', campaignId: 'c-2', directoryId: 'dir-9', fileName: 'customers.csv', createdAt: '', updatedAt: '' },
    ];
    smsData.optOuts = [
      { accountId: 'acc-1', phone: '905321112233', source: 'keyword', createdAt: '2026-11-01T08:00:00.000Z' },
      { accountId: 'acc-2', phone: '905329999999', source: 'api', createdAt: '2026-11-01T08:00:00.000Z' },
    ];
    files.files = [];
    files.uploads = [];
    responses.responses = [
      responseOf('r-1', 'acc-1', {
        channelId: 'ch-1',
        context: { campaignId: 'c-1', sharingId: 'sh-1', messageId: 'm-1', customAttributes: { store: '<b>Kadıköy</b>' } },
      }),
      responseOf('r-2', 'acc-1', { channelId: 'other', answeredAt: '2026-10-01T09:00:00.000Z' }),
      responseOf('r-9', 'acc-2'),
    ];
    responses.requests = [];
    webhooks.endpoints = [];
    webhooks.deliveries = [];
    webhooks.replays = [];
    webhooks.updates = [];
  });

  const get = (url: string, role?: string) => app.inject({ url, headers: role ? { cookie: `fs_session=${cookies[role]}` } : {} });
  const post = (url: string, role: string, fields: Record<string, string | string[]>, headers: Record<string, string> = ORIGIN) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
    return app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, cookie: `fs_session=${cookies[role]}`, ...headers },
      payload: body.toString(),
    });
  };
  const upload = (
    role: string,
    fields: Record<string, string>,
    file = { name: 'mine.csv', body: 'phone,name\n905321234567,Ada\nnot-a-phone,Bob\n' },
  ) =>
    app.inject({
      method: 'POST',
      url: '/console/uploads',
      headers: { ...ORIGIN, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, cookie: `fs_session=${cookies[role]}` },
      payload: multipart(fields, file),
    });

  it('sends a request without a session to the sign-in page', async () => {
    for (const url of ['/console/uploads', '/console/opt-outs', '/console/responses', '/console/webhooks']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location).toBe('/console/sign-in');
    }
  });

  describe('uploads', () => {
    const bound = { campaign: 'c-1', directory_id: 'dir-1', filename: 'customers.csv' };

    it('offers the campaign’s bound directories, with a form for members and none for a viewer', async () => {
      const page = await get('/console/uploads', 'member');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('enctype="multipart/form-data"');
      expect(page.body).toContain('imports');
      expect(page.body).toContain('<code>customers.csv</code>');
      const viewer = await get('/console/uploads', 'viewer');
      expect(viewer.body).not.toContain('enctype="multipart/form-data"');
      expect(viewer.body).toContain('may read these pages but not upload');
    });

    it('uploads a CSV into the bound directory under the binding’s name and shows the refused row with its reason', async () => {
      const res = await upload('member', { _csrf: csrf('member'), ...bound });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/console/uploads/dir-1/files/file-1');
      expect(files.uploads[0]).toMatchObject({ accountId: 'acc-1', directoryId: 'dir-1', filename: 'customers.csv', userId: 'u-member' });
      const outcome = await get(res.headers.location as string, 'member');
      expect(outcome.statusCode).toBe(200);
      expect(outcome.body).toContain('Refused rows');
      expect(outcome.body).toMatch(/<td class="num">3<\/td><td>phone: is not a phone number<\/td>/);
      expect(outcome.body).toContain('href="/console/sharings/sh-1"');
      expect(outcome.body).not.toContain('secret-blob-token');
      const tr = await get(`${res.headers.location}?lang=tr`, 'member');
      expect(tr.body).toContain('Reddedilen satırlar');
    });

    it('refuses a viewer (403), a missing CSRF token (403) and another site, storing nothing', async () => {
      expect((await upload('viewer', { _csrf: csrf('viewer'), ...bound })).statusCode).toBe(403);
      expect((await upload('member', { _csrf: 'wrong', ...bound })).statusCode).toBe(403);
      const foreign = await app.inject({
        method: 'POST',
        url: '/console/uploads',
        headers: {
          origin: 'https://evil.example',
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          cookie: `fs_session=${cookies.member}`,
        },
        payload: multipart({ _csrf: csrf('member'), ...bound }, { name: 'a.csv', body: 'phone\n905321234567\n' }),
      });
      expect(foreign.statusCode).toBe(403);
      expect(files.uploads).toEqual([]);
    });

    it('refuses a directory not bound to the campaign and another account’s binding (404), a file above the limit (413)', async () => {
      expect((await upload('member', { _csrf: csrf('member'), ...bound, directory_id: 'dir-9' })).statusCode).toBe(404);
      expect((await upload('member', { _csrf: csrf('member'), ...bound, campaign: 'c-2', directory_id: 'dir-9' })).statusCode).toBe(404);
      expect((await upload('member', { _csrf: csrf('member'), ...bound, filename: 'other.csv' })).statusCode).toBe(404);
      const big = await upload(
        'member',
        { _csrf: csrf('member'), ...bound },
        { name: 'big.csv', body: `phone\n${'905321234567\n'.repeat(1000)}` },
      );
      expect(big.statusCode).toBe(413);
      expect((await get('/console/uploads?campaign=c-2', 'member')).statusCode).toBe(404);
    });

    it('shows another account’s file as not found, and lets an operator upload into the chosen account', async () => {
      const res = await upload('operator', {
        _csrf: csrf('operator'),
        account: 'acc-2',
        campaign: 'c-2',
        directory_id: 'dir-9',
        filename: 'customers.csv',
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/console/uploads/dir-9/files/file-1?account=acc-2');
      expect((await get('/console/uploads/dir-9/files/file-1', 'owner')).statusCode).toBe(404);
      expect((await get(res.headers.location as string, 'operator')).statusCode).toBe(200);
    });
  });

  describe('opt-outs', () => {
    it('lists the account’s phones only and finds one by its number', async () => {
      const page = await get('/console/opt-outs', 'viewer');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('+905321112233');
      expect(page.body).toContain('STOP reply');
      expect(page.body).not.toContain('905329999999');
      expect(page.body).not.toContain('/console/opt-outs/remove');
      const miss = await get('/console/opt-outs?phone=%2B90%20532%20000%2000%2000', 'member');
      expect(miss.body).toContain('This phone is not on the list.');
      const tr = await get('/console/opt-outs?lang=tr', 'member');
      expect(tr.body).toContain('RET yanıtı');
    });

    it('adds phones and removes one for a member; a viewer and a missing token get 403', async () => {
      const added = await post('/console/opt-outs', 'member', { _csrf: csrf('member'), phones: '+90 532 123 45 67\n905321112233' });
      expect(added.statusCode).toBe(303);
      expect(added.headers.location).toBe('/console/opt-outs?added=1&already=1');
      expect((await get(added.headers.location as string, 'member')).body).toContain('Added: 1; already on the list: 1.');
      const removed = await post('/console/opt-outs/remove', 'owner', { _csrf: csrf('owner'), phone: '905321234567' });
      expect(removed.statusCode).toBe(303);
      expect(smsData.optOuts.map((o) => o.phone)).toEqual(['905321112233', '905329999999']);
      expect((await post('/console/opt-outs', 'viewer', { _csrf: csrf('viewer'), phones: '905321234567' })).statusCode).toBe(403);
      expect((await post('/console/opt-outs', 'member', { phones: '905321234567' })).statusCode).toBe(403);
      expect((await post('/console/opt-outs/remove', 'member', { _csrf: csrf('member'), phone: '905329999999' })).statusCode).toBe(404);
      expect(smsData.optOuts).toHaveLength(2);
    });

    it('names a bad phone and an empty list (400)', async () => {
      const bad = await post('/console/opt-outs', 'member', { _csrf: csrf('member'), phones: '12' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('phone_numbers');
      expect((await post('/console/opt-outs', 'member', { _csrf: csrf('member'), phones: ' \n ' })).statusCode).toBe(400);
    });
  });

  describe('responses', () => {
    it('reads the days in the display time zone, its offset on each day', () => {
      expect(dayStart('2026-11-01', 'Europe/Istanbul')).toBe('2026-11-01T00:00:00+03:00');
      expect(dayStart('2026-07-01', 'Europe/Berlin')).toBe('2026-07-01T00:00:00+02:00');
      expect(dayStart('2026-12-01', 'Europe/Berlin')).toBe('2026-12-01T00:00:00+01:00');
      expect(dayStart('2026-12-01', 'UTC')).toBe('2026-12-01T00:00:00+00:00');
    });

    it('filters by campaign (its channel) and days, the last day included', async () => {
      const page = await get('/console/responses?campaign=c-1&from=2026-11-01&to=2026-11-02', 'viewer');
      expect(page.statusCode).toBe(200);
      expect(responses.requests.at(-1)).toMatchObject({
        channelId: 'ch-1',
        since: '2026-11-01T00:00:00+00:00',
        until: '2026-11-03T00:00:00+00:00',
      });
      expect(page.body).toContain('href="/console/responses/r-1"');
      expect(page.body).not.toContain('r-2');
      expect(page.body).toContain('href="/console/responses/export.csv?campaign=c-1&amp;from=2026-11-01&amp;to=2026-11-02"');
      expect((await get('/console/responses?campaign=c-2', 'viewer')).statusCode).toBe(404);
      expect((await get('/console/responses?from=2026-11-05&to=2026-11-01', 'viewer')).statusCode).toBe(400);
    });

    it('opens one with its answers, context and custom attributes (escaped); another account’s is not found', async () => {
      const one = await get('/console/responses/r-1', 'member');
      expect(one.statusCode).toBe(200);
      expect(one.body).toContain('<th scope="row">nps</th><td>9</td>');
      expect(one.body).toContain('href="/console/sharings/sh-1"');
      expect(one.body).toContain('&lt;b&gt;Kadıköy&lt;/b&gt;');
      expect((await get('/console/responses/r-9', 'member')).statusCode).toBe(404);
      expect((await get('/console/responses/r-1?lang=tr', 'member')).body).toContain('Özel alanlar');
    });

    it('streams the API’s CSV of a campaign’s responses', async () => {
      const csv = await get('/console/responses/export.csv?campaign=c-1', 'viewer');
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      const [header, first] = csv.body.split('\r\n');
      expect(header).toMatch(/^id,created_at,flow_id,.*custom_attributes\.store,nps,why$/);
      expect(first).toMatch(/^r-1,.*,9,Fast$/);
      expect((await get('/console/responses/export.csv', 'viewer')).statusCode).toBe(400);
      expect((await get('/console/responses/export.csv?campaign=c-2', 'viewer')).statusCode).toBe(404);
    });
  });

  describe('webhooks', () => {
    const create = (role: string) =>
      post('/console/webhooks', role, {
        _csrf: csrf(role),
        url: 'https://crm.example.com/hook',
        events: ['survey.answered', 'sms.failed'],
        description: 'CRM',
      });

    it('is for owners and operators: members and viewers get 403, reads included', async () => {
      for (const role of ['member', 'viewer']) {
        expect((await get('/console/webhooks', role)).statusCode, role).toBe(403);
        expect((await create(role)).statusCode, role).toBe(403);
      }
      expect(webhooks.endpoints).toEqual([]);
      expect((await get('/console/webhooks', 'member')).body).not.toContain('href="/console/webhooks"');
      expect((await get('/console/webhooks', 'owner')).body).toContain('href="/console/webhooks"');
    });

    it('creates an endpoint and shows its secret once, enables and disables it, rotates the secret', async () => {
      const created = await create('owner');
      expect(created.statusCode).toBe(201);
      expect(created.body).toContain('whsec_new1');
      expect(created.body).toContain('shown only this once');
      const later = await get('/console/webhooks/ep-1', 'owner');
      expect(later.body).not.toContain('whsec_new1');
      const off = await post('/console/webhooks/ep-1/enabled', 'owner', { _csrf: csrf('owner'), enabled: 'false' });
      expect(off.statusCode).toBe(303);
      expect(webhooks.updates).toEqual([{ enabled: false, byOperator: false }]);
      expect((await get('/console/webhooks', 'owner')).body).toContain('Disabled');
      const rotated = await post('/console/webhooks/ep-1/rotate', 'owner', { _csrf: csrf('owner') });
      expect(rotated.statusCode).toBe(200);
      expect(rotated.body).toContain('whsec_rotated2');
      expect((await post('/console/webhooks/ep-1/rotate', 'owner', {})).statusCode).toBe(403);
    });

    it('names a bad URL (400), and shows another account’s endpoint as not found', async () => {
      const bad = await post('/console/webhooks', 'owner', { _csrf: csrf('owner'), url: 'ftp://x', events: 'sms.failed' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('url: must be an https URL');
      await create('operator').then(() => undefined); // the operator has no account chosen: the picker, nothing made
      expect(webhooks.endpoints).toEqual([]);
      await post('/console/webhooks', 'operator', {
        _csrf: csrf('operator'),
        account: 'acc-2',
        url: 'https://x.example',
        events: 'sms.failed',
      });
      expect((await get('/console/webhooks/ep-1', 'owner')).statusCode).toBe(404);
      expect((await post('/console/webhooks/ep-1/rotate', 'owner', { _csrf: csrf('owner') })).statusCode).toBe(404);
      expect((await get('/console/webhooks/ep-1?account=acc-2', 'operator')).statusCode).toBe(200);
    });

    it('shows the delivery log with each attempt and sends a delivery again', async () => {
      await create('owner');
      webhooks.deliveries = [
        {
          id: 'd-1',
          endpointId: 'ep-1',
          webhookId: 'w',
          eventType: 'survey.answered',
          eventId: 'e',
          status: 'failed',
          attempts: [
            { at: '2026-11-02T08:00:00.000Z', statusCode: 500, error: '', latencyMs: 120, responseBody: '' },
            { at: '2026-11-02T08:01:00.000Z', statusCode: 0, error: 'timeout <x>', latencyMs: 5000, responseBody: '' },
          ],
          nextAttemptAt: '',
          createdAt: '2026-11-02T08:00:00.000Z',
          note: '',
        },
      ];
      const page = await get('/console/webhooks/ep-1', 'owner');
      expect(page.body).toContain('HTTP 500');
      expect(page.body).toContain('timeout &lt;x&gt;');
      const replay = await post('/console/webhooks/ep-1/deliveries/d-1/replay', 'owner', { _csrf: csrf('owner') });
      expect(replay.statusCode).toBe(303);
      expect(replay.headers.location).toBe('/console/webhooks/ep-1?replayed=1');
      expect(webhooks.replays).toEqual(['d-1']);
      expect((await get('/console/webhooks/ep-1?replayed=1&lang=tr', 'owner')).body).toContain('Teslimat yeniden gönderilecek.');
    });
  });
});
