import { describe, expect, it } from 'vitest';
import { randomPhone, smsClient, waitFor } from './sms-client.js';
import { surveyClient } from './survey-client.js';

// Send windows, send_at, cancelling and reminders over HTTP against the running stack: the
// scheduler in messaging releases what waits (docs/api.md "Send windows and scheduling").
const sms = smsClient();
const { submitPage } = surveyClient();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hhmm = (d: Date) => d.toISOString().slice(11, 16);

/** A campaign with delivery rules, made through the admin API like any other. */
async function campaignWith(rules: Record<string, unknown>, template = 'Anket: {{link}}') {
  const base = await sms.newCampaign(template);
  const res = await sms.request('PATCH', `/admin/v1/accounts/${base.account.id}/sms_campaigns/${base.campaignId}`, {
    headers: { authorization: `Bearer ${sms.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(rules),
  });
  expect(res.status, res.text).toBe(200);
  return { ...base, campaign: res.json };
}

const outboxOf = async (accountId: string, sharingId: string) =>
  (await sms.outbox(accountId)).data.filter((m) => m.sharing_id === sharingId);

describe.concurrent('a send window', () => {
  it('holds a sharing made outside it (status scheduled) and sends it once, from its opening', async () => {
    // A window opening at the next whole minute at least 20 s away, in UTC.
    const now = Date.now();
    let opening = Math.ceil(now / 60_000) * 60_000;
    if (opening - now < 20_000) opening += 60_000;
    const start = new Date(opening);
    const { account, campaignId, campaign } = await campaignWith({
      send_window: { start: hhmm(start), end: hhmm(new Date(opening + 30 * 60_000)), time_zone: 'UTC' },
    });
    expect(campaign.send_window).toEqual({ start: hhmm(start), end: expect.any(String), time_zone: 'UTC', days: [] });

    const phones = [randomPhone(), randomPhone()];
    const res = await sms.share(account.apiToken, campaignId, { phone_numbers: phones });
    expect(res.status, res.text).toBe(200);
    expect(new Date(String(res.json.scheduled_for)).getTime()).toBe(opening);
    const id = res.json.id as string;
    const status = await sms.sharing(account.apiToken, id);
    expect((status.json.recipients as { status: string }[]).map((r) => r.status)).toEqual(['scheduled', 'scheduled']);

    // Nothing before the opening...
    await sleep(Math.max(0, opening - Date.now() - 3_000));
    expect(await outboxOf(account.id, id)).toEqual([]);
    // ...everything after it, once.
    const sent = await waitFor(
      'both SMS after the opening',
      async () => {
        const found = await outboxOf(account.id, id);
        return found.length >= 2 ? found : undefined;
      },
      60_000,
    );
    expect(new Date(sent[0]!.created_at).getTime()).toBeGreaterThanOrEqual(opening);
    await sleep(2_000);
    expect((await outboxOf(account.id, id)).map((m) => m.phone).sort()).toEqual(phones.map((p) => p.slice(1)).sort());
  }, 180_000);

  it('refuses a bad window, naming the field', async () => {
    const { account, campaignId } = await sms.newCampaign();
    const patch = (body: unknown) =>
      sms.request('PATCH', `/admin/v1/accounts/${account.id}/sms_campaigns/${campaignId}`, {
        headers: { authorization: `Bearer ${sms.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const zone = await patch({ send_window: { start: '09:00', end: '21:00', time_zone: 'Mars/Olympus' } });
    expect(zone.status).toBe(400);
    expect(zone.json.errors).toHaveProperty(['send_window.time_zone']);
    const same = await patch({ send_window: { start: '09:00', end: '09:00', time_zone: 'Europe/Istanbul' } });
    expect(same.status).toBe(400);
    expect(same.json.errors).toHaveProperty(['send_window.end']);
    const late = await patch({ reminders: [{ after: 'P31D' }] });
    expect(late.status).toBe(400);
    expect(late.json.errors).toHaveProperty(['reminders[0].after']);
    const foreign = await sms.newCampaign();
    const other = await sms.request('PATCH', `/admin/v1/accounts/${account.id}/sms_campaigns/${foreign.campaignId}`, {
      headers: { authorization: `Bearer ${sms.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ transliterate: true }),
    });
    expect(other.status).toBe(404);
  });
});

describe.concurrent('send_at and cancelling', () => {
  it('sends a scheduled sharing at its time; a cancelled one never, and its status says cancelled', async () => {
    const { account, campaignId } = await sms.newCampaign();
    const at = new Date(Date.now() + 15_000).toISOString().replace('Z', '+00:00');
    const kept = await sms.share(account.apiToken, campaignId, { phone_numbers: [randomPhone()], send_at: at });
    const dropped = await sms.share(account.apiToken, campaignId, { phone_numbers: [randomPhone(), randomPhone()], send_at: at });
    expect(kept.status, kept.text).toBe(200);
    expect(new Date(String(kept.json.scheduled_for)).getTime()).toBe(new Date(at).getTime());

    const cancel = await sms.request('DELETE', `/v1/sms_sharings/${String(dropped.json.id)}`, {
      headers: { authorization: `Token token=${account.apiToken}` },
    });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.json).toEqual({ cancelled: 2, already_sent: 0 });
    const again = await sms.request('DELETE', `/v1/sms_sharings/${String(dropped.json.id)}`, {
      headers: { authorization: `Token token=${account.apiToken}` },
    });
    expect(again.json).toEqual({ cancelled: 2, already_sent: 0 });
    // Another account cannot see or cancel it.
    const stranger = await sms.newCampaign();
    const foreign = await sms.request('DELETE', `/v1/sms_sharings/${String(kept.json.id)}`, {
      headers: { authorization: `Token token=${stranger.account.apiToken}` },
    });
    expect(foreign.status).toBe(404);

    await waitFor(
      'the scheduled SMS',
      async () => ((await outboxOf(account.id, String(kept.json.id))).length === 1 ? true : undefined),
      60_000,
    );
    await sleep(3_000);
    expect(await outboxOf(account.id, String(dropped.json.id))).toEqual([]);
    const status = await sms.sharing(account.apiToken, String(dropped.json.id));
    expect(status.json.cancelled_at).toEqual(expect.any(String));
    expect((status.json.recipients as { status: string }[]).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
  }, 120_000);

  it('cancels a large scheduled sharing in one call, every recipient counted', async () => {
    const { account, campaignId } = await sms.newCampaign();
    // 3,000 recipients: a "cancelled" record and a status event each (more than one produce
    // request to Kafka may carry for one partition); the cost of 10,000, the most a sharing may
    // have, is measured by hand rather than in this suite, where it would load the shared stack.
    const phones = Array.from({ length: 3_000 }, (_, i) => `+90534${String(i).padStart(7, '0')}`);
    const at = new Date(Date.now() + 3_600_000).toISOString().replace('Z', '+00:00');
    const shared = await sms.share(account.apiToken, campaignId, { phone_numbers: phones, send_at: at });
    expect(shared.status, shared.text).toBe(200);
    const cancel = await sms.request('DELETE', `/v1/sms_sharings/${String(shared.json.id)}`, {
      headers: { authorization: `Token token=${account.apiToken}` },
    });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.json).toEqual({ cancelled: 3_000, already_sent: 0 });
  }, 60_000);

  it('refuses a send_at in the past or without an offset, naming it', async () => {
    const { account, campaignId } = await sms.newCampaign();
    for (const send_at of ['2020-01-01T10:00:00Z', '2030-01-01T10:00:00']) {
      const res = await sms.share(account.apiToken, campaignId, { phone_numbers: [randomPhone()], send_at });
      expect(res.status, send_at).toBe(400);
      expect(res.json.errors).toHaveProperty('send_at');
    }
  });
});

describe.concurrent('a reminder', () => {
  it('reaches only the recipient who did not answer, with the same short link, once', async () => {
    const { account, campaignId } = await campaignWith({ reminders: [{ after: 'PT25S', message_template: 'Hatırlatma: {{link}}' }] });
    const [answers, silent] = [randomPhone(), randomPhone()];
    const res = await sms.share(account.apiToken, campaignId, { phone_numbers: [answers, silent] });
    expect(res.status, res.text).toBe(200);
    const id = res.json.id as string;
    const first = await waitFor('both first SMS', async () => {
      const found = await outboxOf(account.id, id);
      return found.length >= 2 ? found : undefined;
    });
    const linkOf = (phone: string) => first.find((m) => m.phone === phone.slice(1))!.text.match(/(https?:\/\/\S+)$/)![1]!;

    // One recipient answers: the short link leads to the survey page, whose form is submitted.
    const redirect = await fetch(linkOf(answers), { redirect: 'manual' });
    const page = redirect.headers.get('location')!;
    expect(page, `redirect ${redirect.status}`).toBeTruthy();
    const answered = await submitPage(page, 'n.nps=9');
    expect(answered.status).toBe(200);

    const reminders = await waitFor(
      'the reminder',
      async () => {
        const found = (await outboxOf(account.id, id)).filter((m) => m.text.startsWith('Hatırlatma'));
        return found.length > 0 ? found : undefined;
      },
      90_000,
    );
    await sleep(3_000);
    const all = (await outboxOf(account.id, id)).filter((m) => m.text.startsWith('Hatırlatma'));
    expect(all).toHaveLength(1);
    expect(reminders[0]!.phone).toBe(silent.slice(1));
    expect(reminders[0]!.text).toBe(`Hatırlatma: ${linkOf(silent)}`);
  }, 180_000);
});
