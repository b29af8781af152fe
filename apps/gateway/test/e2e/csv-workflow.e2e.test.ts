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

// The CSV workflow switched on and off with HTTP calls only, as an operator following docs/api.md does.
describe('CSV workflow: a directory bound to an SMS campaign', { timeout: 60_000 }, () => {
  let s: Setup;
  let directoryId: string;

  beforeAll(async () => {
    s = await sms.newCampaign('Merhaba {{name}}: {{link}}');
    directoryId = await files.directory(s.account);
  });

  it('binds, and an upload of customers.csv sends each valid row its survey link', async () => {
    const bound = await admin('POST', bindings(s.account.id, s.campaignId), { directory_id: directoryId });
    expect(bound.status, bound.text).toBe(201);
    expect(bound.json).toEqual({
      campaign_id: s.campaignId,
      directory_id: directoryId,
      file_name: 'customers.csv',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
    });
    const listed = await admin('GET', bindings(s.account.id, s.campaignId));
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

    for (const [phone, name] of [
      [ayse, 'Ayşe'],
      [can, 'Can'],
    ] as const) {
      const [message] = await waitFor(`the SMS to ${name}`, async () =>
        (await messagesTo(s, phone)).length ? messagesTo(s, phone) : undefined,
      );
      expect(message!.text).toMatch(new RegExp(`^Merhaba ${name}: ${sms.stack.shortener_url}/[A-Za-z0-9]+$`));
      expect(message!.phone).toBe(phone.slice(1));
    }
    const sharingIds = new Set([...(await messagesTo(s, ayse)), ...(await messagesTo(s, can))].map((m) => m.sharing_id));
    expect(sharingIds.size).toBe(1);
    // The sharing the upload made is the campaign's, and says which row it rejected.
    const status = await sms.sharing(s.account.apiToken, [...sharingIds][0]!);
    expect(status.json).toMatchObject({ campaign_id: s.campaignId, accepted: 2, rejected: 1 });
  });

  it('unbinds: a later upload sends nothing, while a still bound directory keeps working', async () => {
    const other = await files.directory(s.account);
    expect((await admin('POST', bindings(s.account.id, s.campaignId), { directory_id: other, file_name: 'list.csv' })).status).toBe(201);
    const gone = await admin('DELETE', `${bindings(s.account.id, s.campaignId)}/${directoryId}`);
    expect(gone.status).toBe(204);
    expect((await admin('GET', bindings(s.account.id, s.campaignId))).json).toMatchObject({
      data: [{ directory_id: other, file_name: 'list.csv' }],
    });
    expect((await admin('DELETE', `${bindings(s.account.id, s.campaignId)}/${directoryId}`)).json).toMatchObject({
      code: 13002,
      errors: { directory_id: directoryId },
    });

    const [unbound, bound] = [randomPhone(), randomPhone()];
    const upload = (dir: string, name: string, phone: string) =>
      files.uploadForm(s.account.apiToken, dir, [
        ['filename', name],
        ['file', csv([['phone'], [phone]]), name],
      ]);
    expect((await upload(directoryId, 'customers.csv', unbound)).status).toBe(201);
    expect((await upload(other, 'list.csv', bound)).status).toBe(201);
    await waitFor('the SMS of the bound directory', async () => ((await messagesTo(s, bound)).length === 1 ? true : undefined));
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await messagesTo(s, unbound)).toEqual([]);
  });

  it('answers 404 naming the campaign or the directory, and 400 naming a bad field, in the error shape', async () => {
    const stranger = await sms.newCampaign();
    const foreignDirectory = await files.directory(stranger.account);
    const cases: [string, string, unknown, number, Record<string, string> | null][] = [
      ['POST', bindings(s.account.id, stranger.campaignId), { directory_id: directoryId }, 404, { campaign_id: stranger.campaignId }],
      ['POST', bindings(s.account.id, s.campaignId), { directory_id: foreignDirectory }, 404, { directory_id: foreignDirectory }],
      ['GET', bindings(s.account.id, stranger.campaignId), undefined, 404, { campaign_id: stranger.campaignId }],
      ['POST', bindings(s.account.id, s.campaignId), { directory_id: directoryId, file_name: '../x.csv' }, 400, null],
      ['POST', bindings(s.account.id, s.campaignId), { directory_id: directoryId, extra: 1 }, 400, null],
    ];
    for (const [method, path, body, status, named] of cases) {
      const res = await admin(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`).toBe(status);
      expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
      if (named) expect(res.json.errors).toEqual(named);
      else expect(Object.keys(res.json.errors ?? {}).length).toBeGreaterThan(0);
    }
    expect((await admin('GET', bindings(stranger.account.id, stranger.campaignId))).json).toEqual({ data: [] });
  });
});
