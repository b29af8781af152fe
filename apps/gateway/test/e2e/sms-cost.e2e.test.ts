import { beforeAll, describe, expect, it } from 'vitest';
import { person } from './link-client.js';
import { surveyClient } from './survey-client.js';
import { randomPhone, smsClient, waitFor } from './sms-client.js';

type Recipient = { phone: string; status: string; encoding: string | null; segments: number; reminders: unknown[] };

/** UCS-2 segments of a text of BMP characters only: 70 in one message, 67 per part beyond. */
const ucs2Segments = (text: string) => ([...text].length <= 70 ? 1 : Math.ceil([...text].length / 67));

// What a message costs and where a sharing stands, over HTTP against the running stack (whose
// deployment provider, the recording one, declares no Turkish shift table).
describe('SMS cost and a sharing funnel end to end', () => {
  const sms = smsClient();
  const { submitPage } = surveyClient();
  let setup: Awaited<ReturnType<typeof sms.newCampaign>>;
  beforeAll(async () => {
    setup = await sms.newCampaign('Merhaba {{name}}, ziyaretinizi değerlendirin: {{link}}');
  });

  const messagesOf = async (sharingId: string, phone: string) =>
    (await sms.outbox(setup.account.id, phone)).data.filter((m) => m.sharing_id === sharingId);
  const preview = (token: string, campaignId: string, body: unknown) =>
    sms.request('POST', `/v1/sms_campaigns/${campaignId}/preview`, {
      headers: { authorization: `Token token=${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('warns at creation that a Turkish template is ucs2, naming the letter', () => {
    expect(setup.campaign.warnings).toEqual([
      'message_template: "ğ" (U+011F) is not in the GSM 7-bit alphabet, so every SMS is sent as ucs2 (70 characters a segment instead of 160)',
    ]);
  });

  it('records each message as ucs2 with its segments, in the admin list and the sharing, and counts a click and an answer', async () => {
    const [tapper, other] = [randomPhone(), randomPhone()];
    const res = await sms.share(setup.account.apiToken, setup.campaignId, {
      phone_numbers: [tapper, other],
      custom_attributes: { [tapper]: { name: 'Ayşe Yılmaz' }, [other]: { name: 'Çağrı' } },
    });
    expect(res.status, res.text).toBe(200);
    const sharingId = res.json.id as string;

    const [message] = await waitFor('the SMS in the outbox', async () => {
      const found = await messagesOf(sharingId, tapper);
      return found.length > 0 ? found : undefined;
    });
    expect(message!.text).toMatch(/^Merhaba Ayşe Yılmaz, ziyaretinizi değerlendirin: \S+$/);
    expect(message).toMatchObject({ encoding: 'ucs2', segments: ucs2Segments(message!.text) });

    // The preview of the same recipient is as long as the real message, placeholder link and all.
    const p = await preview(setup.account.apiToken, setup.campaignId, { custom_attributes: { name: 'Ayşe Yılmaz' } });
    expect(p.status, p.text).toBe(200);
    expect(p.json).toEqual({
      text: expect.stringMatching(/^Merhaba Ayşe Yılmaz, ziyaretinizi değerlendirin: \S+\/x+$/),
      encoding: 'ucs2',
      segments: message!.segments,
      characters: [...message!.text].length,
    });

    // The customer taps the short link and answers the survey page it leads to.
    const link = message!.text.split(' ').at(-1)!;
    const tap = await fetch(link, { redirect: 'manual', headers: person() });
    expect(tap.status).toBe(302);
    const answer = await submitPage(tap.headers.get('location')!, 'n.nps=9');
    expect(answer.status).toBe(200);

    const status = await waitFor('the funnel to count the click and the answer', async () => {
      const s = await sms.sharing(setup.account.apiToken, sharingId);
      const f = s.json.funnel as { clicked: number; answered: number } | undefined;
      return f?.clicked === 1 && f.answered === 1 ? s : undefined;
    });
    const recipients = status.json.recipients as Recipient[];
    const costs = (await Promise.all([tapper, other].map(async (phone) => (await messagesOf(sharingId, phone))[0]!))).sort((a, b) =>
      a.phone.localeCompare(b.phone),
    );
    expect(recipients).toEqual(
      costs.map((m) => expect.objectContaining({ phone: m.phone, encoding: 'ucs2', segments: m.segments, reminders: [] })),
    );
    expect(status.json.segments).toBe(costs.reduce((sum, m) => sum + m.segments!, 0));
    const counts = status.json.counts as Record<string, number>;
    expect(counts.sent! + counts.delivered!).toBe(2);
    expect(counts).toMatchObject({ scheduled: 0, queued: 0, failed: 0, opted_out: 0, cancelled: 0, other: 0 });
    expect(status.json.funnel).toEqual({ clicked: 1, answered: 1 });
  }, 90_000);

  it('a transliterating campaign sends gsm7; the link is left as it is', async () => {
    const transliterated = await sms.admin('POST', `/accounts/${setup.account.id}/sms_campaigns`, {
      name: 'Transliterated',
      node_id: setup.nodeId,
      flow_id: setup.flowId,
      message_template: 'Merhaba {{name}}, ziyaretinizi değerlendirin: {{link}}',
      transliterate: true,
    });
    expect(transliterated.warnings).toEqual([]);
    const phone = randomPhone();
    const res = await sms.share(setup.account.apiToken, transliterated.id!, {
      phone_numbers: [phone],
      custom_attributes: { [phone]: { name: 'Ayşe Yılmaz' } },
    });
    const sharingId = res.json.id as string;
    const [message] = await waitFor('the SMS in the outbox', async () => {
      const found = await messagesOf(sharingId, phone);
      return found.length > 0 ? found : undefined;
    });
    expect(message!.text).toMatch(new RegExp(`^Merhaba Ayse Yilmaz, ziyaretinizi degerlendirin: ${sms.stack.shortener_url}/[A-Za-z0-9]+$`));
    expect(message).toMatchObject({ encoding: 'gsm7', segments: 1 });
    const p = await preview(setup.account.apiToken, transliterated.id!, { custom_attributes: { name: 'Ayşe Yılmaz' } });
    expect(p.json).toMatchObject({ encoding: 'gsm7', segments: 1, characters: message!.text.length });
  }, 60_000);

  it("previews answer 404 for another account's campaign and 400 for a reminder the campaign lacks", async () => {
    const stranger = await sms.newAccount('sms-cost-stranger');
    const foreign = await preview(stranger.apiToken, setup.campaignId, {});
    expect(foreign.status).toBe(404);
    expect(foreign.json).toMatchObject({ code: 13002, errors: { campaign_id: setup.campaignId } });
    const reminder = await preview(setup.account.apiToken, setup.campaignId, { reminder: 2 });
    expect(reminder.status).toBe(400);
    expect(reminder.json.errors).toEqual({ reminder: 'the campaign has 0 reminders' });
    const bad = await preview(setup.account.apiToken, setup.campaignId, { reminder: 4 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.errors!)).toEqual(['body.reminder']);
  });
});
