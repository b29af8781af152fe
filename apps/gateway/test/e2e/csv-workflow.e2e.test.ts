import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileClient } from './file-client.js';
import { randomPhone, smsClient, waitFor } from './sms-client.js';
import { ERROR_KEYS } from './stack-client.js';

const sms = smsClient();
const files = fileClient();
type Setup = Awaited<ReturnType<typeof sms.newCampaign>>;

const csv = (rows: string[][]) => new Blob([rows.map((r) => r.join(',')).join('\n') + '\n'], { type: 'text/csv' });
const bindings = (accountId: string, campaignId: string) => `/admin/v1/accounts/${accountId}/sms_campaigns/${campaignId}/directories`;
const admin = (method: string, path: string, body?: unknown) =>
  sms.request(method, path, {
    headers: { authorization: `Bearer ${sms.adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
const messagesTo = async (s: Setup, phone: string) => (await sms.outbox(s.account.id, phone)).data;
const isoMs = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The CSV workflow switched on and off with HTTP calls only, as an operator following docs/api.md does.
describe('CSV workflow: a directory bound to an SMS campaign', { timeout: 90_000 }, () => {
  let s: Setup;
  let directoryId: string;

  beforeAll(async () => {
    s = await sms.newCampaign('Merhaba {{name}}: {{link}}');
    directoryId = await files.directory(s.account);
  });

  it('binds, and an upload of customers.csv sends each valid row its survey link with its name', async () => {
    expect((await admin('GET', bindings(s.account.id, s.campaignId))).json).toEqual({ data: [] });
    const bound = await admin('POST', bindings(s.account.id, s.campaignId), { directory_id: directoryId });
    expect(bound.status, bound.text).toBe(201);
    expect(bound.json).toEqual({
      campaign_id: s.campaignId,
      directory_id: directoryId,
      file_name: 'customers.csv',
      created_at: expect.stringMatching(isoMs),
      updated_at: expect.stringMatching(isoMs),
    });
    const listed = await admin('GET', bindings(s.account.id, s.campaignId));
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual({ data: [bound.json] });

    const [ayse, can] = [randomPhone(), randomPhone()];
    const up = await files.uploadForm(s.account.apiToken, directoryId, [
      ['filename', 'customers.csv'],
      [
        'file',
        csv([
          ['phone_number', 'name', 'TCKN'],
          [ayse, 'Ayşe', '10000000146'],
          [can, 'Can', ''],
          ['not-a-phone', 'Nobody', ''],
        ]),
        'customers.csv',
      ],
    ]);
    expect(up.status).toBe(201);

    const links: string[] = [];
    for (const [phone, name] of [
      [ayse, 'Ayşe'],
      [can, 'Can'],
    ] as const) {
      const [message, ...more] = await waitFor(`the SMS to ${name}`, async () => {
        const got = await messagesTo(s, phone);
        return got.length ? got : undefined;
      });
      expect(more).toEqual([]);
      // What the outbox provider was handed: the template rendered with the row's name and a short link.
      const link = message!.text.match(new RegExp(`^Merhaba ${name}: (${escaped(sms.stack.shortener_url!)}/[A-Za-z0-9_-]+)$`))?.[1];
      expect(link, message!.text).toEqual(expect.any(String));
      expect(message!.phone).toBe(phone.slice(1));
      links.push(link!);
    }
    expect(new Set(links).size).toBe(2);
    // Each short link opens that customer's survey page on the API listener.
    for (const link of links) {
      const tap = await fetch(link, { redirect: 'manual' });
      expect(tap.status).toBe(302);
      expect(tap.headers.get('location')).toMatch(new RegExp(`^${escaped(sms.baseUrl)}/s/[\\w-]+$`));
    }
    const sharingIds = new Set([...(await messagesTo(s, ayse)), ...(await messagesTo(s, can))].map((m) => m.sharing_id));
    expect(sharingIds.size).toBe(1);
    // The sharing the upload made is the campaign's, and says which row it rejected.
    const status = await sms.sharing(s.account.apiToken, [...sharingIds][0]!);
    expect(status.json).toMatchObject({ campaign_id: s.campaignId, accepted: 2, rejected: 1 });
  });

  it('unbinds: a later upload sends nothing, while a still bound directory keeps working', async () => {
    const other = await files.directory(s.account);
    const second = await admin('POST', bindings(s.account.id, s.campaignId), { directory_id: other, file_name: 'list.csv' });
    expect(second.status, second.text).toBe(201);
    // Newest first.
    expect(
      ((await admin('GET', bindings(s.account.id, s.campaignId))).json.data as { directory_id: string }[]).map((b) => b.directory_id),
    ).toEqual([other, directoryId]);

    const gone = await admin('DELETE', `${bindings(s.account.id, s.campaignId)}/${directoryId}`);
    expect(gone.status, gone.text).toBe(204);
    expect(gone.text).toBe('');
    expect((await admin('GET', bindings(s.account.id, s.campaignId))).json).toEqual({ data: [second.json] });
    const again = await admin('DELETE', `${bindings(s.account.id, s.campaignId)}/${directoryId}`);
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ code: 13002, errors: { directory_id: directoryId } });
    // The other binding is of list.csv: without ?file_name= (customers.csv) it is not found.
    expect((await admin('DELETE', `${bindings(s.account.id, s.campaignId)}/${other}`)).status).toBe(404);

    const [unbound, bound] = [randomPhone(), randomPhone()];
    const upload = (dir: string, name: string, phone: string) =>
      files.uploadForm(s.account.apiToken, dir, [
        ['filename', name],
        [
          'file',
          csv([
            ['phone_number', 'name'],
            [phone, 'Deniz'],
          ]),
          name,
        ],
      ]);
    expect((await upload(directoryId, 'customers.csv', unbound)).status).toBe(201);
    expect((await upload(other, 'list.csv', bound)).status).toBe(201);
    const [sent] = await waitFor('the SMS of the still bound directory', async () => {
      const got = await messagesTo(s, bound);
      return got.length ? got : undefined;
    });
    expect(sent!.text).toMatch(/^Merhaba Deniz: /);
    // Both uploads were published together; a few seconds more for the unbound one, which must stay unsent.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await messagesTo(s, unbound)).toEqual([]);

    const removed = await admin('DELETE', `${bindings(s.account.id, s.campaignId)}/${other}?file_name=list.csv`);
    expect(removed.status, removed.text).toBe(204);
    expect((await admin('GET', bindings(s.account.id, s.campaignId))).json).toEqual({ data: [] });
  });

  it('answers 404 naming the campaign or the directory, and 400 naming a bad field, in the error shape', async () => {
    const stranger = await sms.newCampaign();
    const foreignDirectory = await files.directory(stranger.account);
    const ours = bindings(s.account.id, s.campaignId);
    const [unknownCampaign, unknownDirectory] = [randomUUID(), randomUUID()];
    const cases: [string, string, unknown, number, Record<string, unknown>][] = [
      ['POST', bindings(s.account.id, unknownCampaign), { directory_id: directoryId }, 404, { campaign_id: unknownCampaign }],
      ['POST', bindings(s.account.id, stranger.campaignId), { directory_id: directoryId }, 404, { campaign_id: stranger.campaignId }],
      ['POST', ours, { directory_id: unknownDirectory }, 404, { directory_id: unknownDirectory }],
      ['POST', ours, { directory_id: foreignDirectory }, 404, { directory_id: foreignDirectory }],
      ['GET', bindings(s.account.id, unknownCampaign), undefined, 404, { campaign_id: unknownCampaign }],
      ['GET', bindings(s.account.id, stranger.campaignId), undefined, 404, { campaign_id: stranger.campaignId }],
      [
        'DELETE',
        `${bindings(s.account.id, stranger.campaignId)}/${foreignDirectory}`,
        undefined,
        404,
        { campaign_id: stranger.campaignId },
      ],
      ['DELETE', `${ours}/${unknownDirectory}`, undefined, 404, { directory_id: unknownDirectory }],
      ['POST', ours, { directory_id: directoryId, file_name: '../x.csv' }, 400, { 'body.file_name': expect.any(String) }],
      ['POST', ours, {}, 400, { 'body.directory_id': expect.any(String) }],
      ['POST', ours, { directory_id: directoryId, extra: 1 }, 400, { 'body.extra': expect.any(String) }],
      ['POST', bindings(s.account.id, 'not-a-uuid'), { directory_id: directoryId }, 400, { 'params.campaign_id': expect.any(String) }],
    ];
    for (const [method, path, body, status, named] of cases) {
      const res = await admin(method, path, body);
      const what = `${method} ${path} ${JSON.stringify(body)}: ${res.text}`;
      expect(res.status, what).toBe(status);
      expect(Object.keys(res.json).sort(), what).toEqual(ERROR_KEYS);
      expect(res.json.code, what).toBe(status === 404 ? 13002 : 13000);
      expect(res.json.errors, what).toEqual(named);
    }
    // Nothing above bound anything: the stranger's campaign has no binding either.
    expect((await admin('GET', bindings(stranger.account.id, stranger.campaignId))).json).toEqual({ data: [] });
    expect((await admin('GET', ours)).json).toEqual({ data: [] });
  });
});
