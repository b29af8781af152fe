import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_KEYS } from './stack-client.js';
import { randomPhone, smsClient, waitFor } from './sms-client.js';
import { publicError } from '../public-error.js';

// The SMS path (docs/architecture.md "Request paths") over HTTP against the running stack: gateway → messaging →
// Kafka → dispatch consumer → survey link → short link → outbox provider; then the customer's tap.
describe('SMS sharing end to end', () => {
  const sms = smsClient();
  let setup: Awaited<ReturnType<typeof sms.newCampaign>>;
  beforeAll(async () => {
    setup = await sms.newCampaign();
  });

  it('sends each accepted phone one SMS with a short link to its personal survey, which the active survey query finds', async () => {
    const phone = randomPhone();
    const local = `0${phone.slice(3)}`; // the same number written nationally
    const res = await sms.share(setup.account.apiToken, setup.campaignId, {
      phone_numbers: [phone, local, '12', 'not a phone'],
      custom_attributes: { [phone]: { name: 'Ayşe', external_id: `crm-${randomUUID()}`, email: 'ayse@example.com' } },
      built_in_responses: { [phone]: { customerDetailInfo1: 'Gold', customerDetailInfo2: 'Istanbul' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      id: expect.any(String),
      campaign_id: setup.campaignId,
      accepted: 1,
      rejected: 2,
      duplicate: 1,
      rejected_phones: [
        { phone: '12', reason: 'too_short' },
        { phone: 'not a phone', reason: expect.stringMatching(/^not_a_number|invalid_number$/) },
      ],
      scheduled_for: null,
    });
    expect(res.headers.get('ratelimit')).toMatch(/^"t\d";r=\d+;t=\d+$/);
    const sharingId = res.json.id as string;

    // The outbox provider got exactly one SMS for the phone, rendered, with a short link.
    const message = await waitFor('the SMS in the outbox', async () =>
      (await sms.outbox(setup.account.id, phone)).data.find((m) => m.sharing_id === sharingId),
    );
    expect(message.phone).toBe(phone.slice(1));
    expect(['sent', 'delivered']).toContain(message.status);
    const link = message.text.match(/^Merhaba Ayşe, ziyaretinizi değerlendirin: (\S+)$/)?.[1] ?? '';
    expect(link, message.text).toMatch(new RegExp(`^${sms.stack.shortener_url}/[A-Za-z0-9_-]+$`));
    expect(message.text).not.toContain('{{');

    // The sharing's status names the recipient.
    const status = await waitFor('the recipient to be sent', async () => {
      const s = await sms.sharing(setup.account.apiToken, sharingId);
      return s.json.recipients && (s.json.recipients as { status: string }[])[0]?.status !== 'queued' ? s : undefined;
    });
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ id: sharingId, campaign_id: setup.campaignId, accepted: 1, duplicate: 1, rejected: 2 });
    expect(status.json.recipients).toEqual([
      {
        phone: phone.slice(1),
        status: expect.stringMatching(/^(sent|delivered)$/),
        error: null,
        updated_at: expect.stringMatching(/\+00:00$/),
        encoding: 'ucs2',
        segments: 2, // 72 characters: more than 70
        reminders: [],
      },
    ]);

    // The customer taps the link: 302 to the survey page on the API listener.
    const tap = await fetch(link!, { redirect: 'manual' });
    expect(tap.status).toBe(302);
    const surveyUrl = tap.headers.get('location')!;
    expect(surveyUrl).toMatch(new RegExp(`^${sms.baseUrl.replace(/[.]/g, '\\.')}/s/[\\w-]+$`));

    // The integrator's CRM finds that customer's open survey by phone (docs/api.md "Active surveys").
    const active = await sms.request('POST', `/external/v1/nodes/${setup.nodeId}/active_surveys`, {
      headers: { authorization: `Bearer ${setup.account.integrationToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ customer: { phone_number: local } }),
    });
    expect(active.status, active.text).toBe(200);
    expect(active.json.count).toBe(1);
    expect(active.json.surveys).toEqual([
      {
        Link: surveyUrl,
        SurveyName: 'After visit',
        LastActivationDate: expect.stringMatching(/^\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d$/),
        UnitName: 'Kadıköy store',
      },
    ]);
  }, 60_000);

  it('hands one SMS per distinct phone and lists the outbox newest first, page by page', async () => {
    const phones = [randomPhone(), randomPhone(), randomPhone()];
    const res = await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: [...phones, phones[0]!] });
    expect(res.json).toMatchObject({ accepted: 3, duplicate: 1, rejected: 0, rejected_phones: [] });
    const sharingId = res.json.id as string;
    await waitFor('three SMS', async () =>
      (await sms.outbox(setup.account.id)).data.filter((m) => m.sharing_id === sharingId).length === 3 ? true : undefined,
    );
    const page1 = await sms.admin('GET', `/accounts/${setup.account.id}/sms_messages?page_size=2`);
    const all = (await sms.outbox(setup.account.id)).data;
    expect((page1 as unknown as { data: unknown[] }).data).toEqual(all.slice(0, 2));
    const page2 = await sms.admin(
      'GET',
      `/accounts/${setup.account.id}/sms_messages?page_size=2&page_token=${encodeURIComponent(page1.next_page_token!)}`,
    );
    expect((page2 as unknown as { data: { id: string }[] }).data[0]!.id).toBe(all[2]!.id);
    const times = all.map((m) => m.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  }, 60_000);

  it('refuses more phones than the hard cap (400 / 13000 naming phone_numbers), and sends nothing', async () => {
    const phones = Array.from({ length: 10_001 }, (_, i) => `+90532${String(i).padStart(7, '0')}`);
    const res = await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: phones });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 13000, error_message: 'An error occured', data: 'An error occured' });
    expect(Object.keys(res.json.errors!)).toEqual(['body.phone_numbers']);
    expect(res.json.errors!['body.phone_numbers']).toMatch(/10000/);
  });

  it('answers 400 / 13000 naming campaign_id when it is not a UUID', async () => {
    const res = await sms.share(setup.account.apiToken, 'campaign-1', { phone_numbers: [randomPhone()] });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
    expect(res.json).toEqual(publicError('An error occured', 13000, { 'params.campaign_id': expect.stringMatching(/uuid/) }));
  });

  it('answers 400 / 13000 naming the field for a body that is not a sharing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body.phone_numbers'],
      [{ phone_numbers: [] }, 'body.phone_numbers'],
      [{ phone_numbers: 'x' }, 'body.phone_numbers'],
      [{ phone_numbers: [randomPhone()], extra: 1 }, 'body.extra'],
      [{ phone_numbers: [randomPhone()], custom_attributes: { '+905321234567': 'x' } }, 'body.custom_attributes.+905321234567'],
      ['{"phone_numbers": [', 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await sms.share(setup.account.apiToken, setup.campaignId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.code).toBe(13000);
      expect(res.json.data).toBe('An error occured');
      expect(Object.keys(res.json.errors!), JSON.stringify(body)).toContain(field);
    }
  });

  it("answers 404 for an unknown campaign and for another account's, alike", async () => {
    const other = await sms.newCampaign();
    for (const id of [randomUUID(), other.campaignId]) {
      const res = await sms.share(setup.account.apiToken, id, { phone_numbers: [randomPhone()] });
      expect(res.status).toBe(404);
      expect(res.json).toEqual(publicError('Requested resource not found!', 13002, { campaign_id: id }));
    }
    expect((await sms.outbox(other.account.id)).data).toEqual([]);
  });

  it('answers 401 / 13001 without a token or with a wrong one, 403 / 13013 with an integration token', async () => {
    const body = JSON.stringify({ phone_numbers: [randomPhone()] });
    const post = (auth: Record<string, string>) =>
      sms.request('POST', `/v1/sms_campaigns/${setup.campaignId}/sms_sharings`, {
        headers: { 'content-type': 'application/json', ...auth },
        body,
      });
    for (const auth of [{}, { authorization: 'Token token=fbk_api_nope' }, { authorization: 'Token token= fbk_api_nope' }] as Record<
      string,
      string
    >[]) {
      const res = await post(auth);
      expect(res.status).toBe(401);
      expect(res.json).toEqual(publicError('Wrong authentication token', 13001, null));
    }
    for (const authorization of [`Bearer ${setup.account.integrationToken}`, `Token token="${setup.account.integrationToken}"`]) {
      const res = await post({ authorization });
      expect(res.status, authorization).toBe(403);
      expect(res.json).toEqual(publicError('Permission denied', 13013, null));
    }
  });

  it('accepts `Token token= <TOKEN>`, with a space after the equals sign, as the original examples write it', async () => {
    const res = await sms.share(
      '',
      setup.campaignId,
      { phone_numbers: [randomPhone()] },
      { authorization: `Token token= ${setup.account.apiToken}` },
    );
    expect(res.status).toBe(200);
    expect(res.json.accepted).toBe(1);
  });

  it('accepts the token quoted, as the file service writes it', async () => {
    const res = await sms.share(
      '',
      setup.campaignId,
      { phone_numbers: [randomPhone()] },
      { authorization: `Token token="${setup.account.apiToken}"` },
    );
    expect(res.status).toBe(200);
  });

  it("GET /v1/sms_sharings/{id}: 404 for an unknown or another account's sharing, 403 for an integration token", async () => {
    const other = await sms.newCampaign();
    const theirs = await sms.share(other.account.apiToken, other.campaignId, { phone_numbers: [randomPhone()] });
    for (const id of [randomUUID(), theirs.json.id as string]) {
      const res = await sms.sharing(setup.account.apiToken, id);
      expect(res.status).toBe(404);
      expect(res.json).toEqual(publicError('Requested resource not found!', 13002, { sharing_id: id }));
    }
    const wrongKind = await sms.request('GET', `/v1/sms_sharings/${theirs.json.id}`, {
      headers: { authorization: `Bearer ${other.account.integrationToken}` },
    });
    expect(wrongKind.status).toBe(403);
    expect(wrongKind.json).toEqual(publicError('Permission denied', 13013, null));
  });

  it("admin: a campaign needs the account's own node, a flow of the account, and {{link}}", async () => {
    const other = await sms.newCampaign();
    const post = (accountId: string, body: unknown) =>
      sms.request('POST', `/admin/v1/accounts/${accountId}/sms_campaigns`, {
        headers: { authorization: `Bearer ${sms.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const base = { name: 'x', node_id: setup.nodeId, flow_id: setup.flowId, message_template: 'Hi {{link}}' };
    expect(setup.campaign).toEqual({
      id: setup.campaignId,
      name: 'After-visit SMS',
      node_id: setup.nodeId,
      flow_id: setup.flowId,
      message_template: expect.stringContaining('{{link}}'),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
      send_window: null,
      reminders: [],
      transliterate: false,
      // The template's ğ makes every SMS ucs2 (docs/api.md "Cost of a message").
      warnings: [expect.stringMatching(/^message_template: "ğ" \(U\+011F\) is not in the GSM 7-bit alphabet/)],
    });
    const foreignNode = await post(setup.account.id, { ...base, node_id: other.nodeId });
    expect(foreignNode.status).toBe(404);
    expect(foreignNode.json.errors).toEqual({ node_id: other.nodeId });
    const foreignFlow = await post(setup.account.id, { ...base, flow_id: other.flowId });
    expect(foreignFlow.status).toBe(404);
    expect(Object.keys(foreignFlow.json.errors!)).toEqual(['flow_id']);
    const noLink = await post(setup.account.id, { ...base, message_template: 'Hi {{name}}' });
    expect(noLink.status).toBe(400);
    expect(Object.keys(noLink.json.errors!)).toEqual(['message_template']);
    const unknownAccount = await post(randomUUID(), base);
    expect(unknownAccount.status).toBe(404);
  });
});
