import { describe, expect, it } from 'vitest';
import { randomPhone, smsClient, waitFor } from '../e2e/sms-client.js';
import { restart, signal, sleep } from './fault-kit.js';

// What waits survives messaging's death (docs/api.md "Send windows and scheduling"): a sharing
// with send_at and a cancelled one, messaging killed with SIGKILL before their time and started
// again by infra/apps.sh; a sharing released while its releaser is killed.
const sms = smsClient();
const auth = (token: string) => ({ authorization: `Token token=${token}` });
/** The sharing's messages in the outbox (up to 500: one page). */
const outboxOf = async (accountId: string, sharingId: string) =>
  (
    (await sms.admin('GET', `/accounts/${accountId}/sms_messages?page_size=500`)) as unknown as {
      data: { sharing_id: string; phone: string }[];
    }
  ).data.filter((m) => m.sharing_id === sharingId);

/**
 * outboxOf while messaging may still be coming back: its port answers before the gateway's channel
 * to it has left its reconnect backoff, so a 503 then means "not yet", never a lost message.
 */
const outboxOfWhileRestarting = (accountId: string, sharingId: string) =>
  outboxOf(accountId, sharingId).catch((err: Error) => {
    if (/→ 503 /.test(err.message)) return [];
    throw err;
  });

describe('scheduled SMS across a kill -9 of messaging', () => {
  it('a scheduled sharing goes out once at its time, a cancelled one never, though messaging died in between', async () => {
    const { account, campaignId } = await sms.newCampaign('Anket: {{link}}');
    const at = new Date(Date.now() + 20_000).toISOString();
    const kept = await sms.share(account.apiToken, campaignId, {
      phone_numbers: [randomPhone(), randomPhone(), randomPhone()],
      send_at: at,
    });
    const dropped = await sms.share(account.apiToken, campaignId, { phone_numbers: [randomPhone(), randomPhone()], send_at: at });
    expect(kept.status, kept.text).toBe(200);
    expect(dropped.status, dropped.text).toBe(200);
    const cancel = await sms.request('DELETE', `/v1/sms_sharings/${String(dropped.json.id)}`, { headers: auth(account.apiToken) });
    expect(cancel.json).toEqual({ cancelled: 2, already_sent: 0 });

    await signal('messaging', 'SIGKILL');
    await restart('messaging');

    const sent = await waitFor(
      'the scheduled sharing after the restart',
      async () => {
        const found = await outboxOfWhileRestarting(account.id, String(kept.json.id));
        return found.length >= 3 ? found : undefined;
      },
      120_000,
    );
    expect(new Set(sent.map((m) => m.phone)).size).toBe(3);
    await sleep(3_000);
    expect(await outboxOf(account.id, String(kept.json.id))).toHaveLength(3);
    expect(await outboxOf(account.id, String(dropped.json.id))).toEqual([]);
    const status = await sms.sharing(account.apiToken, String(dropped.json.id));
    expect((status.json.recipients as { status: string }[]).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
  }, 240_000);

  it('a release cut short by a kill -9 is finished by the restarted process, each phone texted once', async () => {
    const { account, campaignId } = await sms.newCampaign('Anket: {{link}}');
    const phones = Array.from({ length: 400 }, randomPhone);
    const at = new Date(Date.now() + 8_000).toISOString();
    const res = await sms.share(account.apiToken, campaignId, { phone_numbers: phones, send_at: at });
    expect(res.status, res.text).toBe(200);
    const id = String(res.json.id);
    const accepted = Number(res.json.accepted);
    // Killed as the release starts (the stack paces releases at SMS_RELEASE_PER_SECOND).
    await sleep(Math.max(0, new Date(at).getTime() - Date.now() + 1_500));
    await signal('messaging', 'SIGKILL');
    await restart('messaging');

    const sent = await waitFor(
      'every phone after the restart',
      async () => {
        const found = await outboxOfWhileRestarting(account.id, id);
        return found.length >= accepted ? found : undefined;
      },
      180_000,
    );
    expect(new Set(sent.map((m) => m.phone)).size).toBe(sent.length);
    expect(sent.length).toBe(accepted);
  }, 300_000);
});
