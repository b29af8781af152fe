import { randomInt } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call } from './api.js';
import { receiver, verifyAll } from './receiver.js';
import { waitFor } from './stack.js';

// Delivery reports as webhooks, over HTTP against the running stack: an account's own SMS provider
// (a small HTTP SMS API on 127.0.0.1) takes each message and calls messaging's signed
// delivery-report URL back; the webhooks service sends sms.delivered / sms.failed to a receiver
// that checks every delivery with the Standard Webhooks library.

/** A valid Turkish mobile number nobody else's test uses (normalized: digits without "+"). */
const randomPhone = () => `90532${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

/**
 * The operator: answers every send, then reports on it by GETting its callback URL (`dlr` in the
 * query) with `stat` and, for a phone it fails, `err` and `reason`. A failing report is sent
 * twice, one after the other, as an operator retrying would; `answers` keeps what messaging said.
 */
async function smsOperator(failing: Set<string>) {
  const answers: { phone: string; status: number; text: string }[] = [];
  const report = async (phone: string, url: string) => {
    const res = await fetch(url);
    answers.push({ phone, status: res.status, text: await res.text() });
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://operator');
    const phone = url.searchParams.get('to') ?? '';
    const dlr = url.searchParams.get('dlr') ?? '';
    res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
    void (async () => {
      if (!failing.has(phone)) return report(phone, `${dlr}&stat=DELIVRD`);
      const failed = `${dlr}&stat=UNDELIV&err=EC_ABSENT_SUBSCRIBER&reason=${encodeURIComponent('Absent subscriber')}`;
      await report(phone, failed);
      await report(phone, failed);
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('delivery reports end to end', () => {
  const hooks = receiver();
  const received = hooks.received;
  let origin: string;
  const [delivered, failed, later] = [randomPhone(), randomPhone(), randomPhone()];
  let operator: Awaited<ReturnType<typeof smsOperator>>;

  beforeAll(async () => {
    origin = await hooks.start();
    operator = await smsOperator(new Set([failed]));
  });
  afterAll(async () => {
    await operator?.close();
    await hooks.close();
  });

  it(
    "one verified sms.delivered and one sms.failed with the report's error; a report sent twice is one event",
    { timeout: 120_000 },
    async () => {
      const account = await admin('POST', '/accounts', { name: 'delivery reports e2e' });
      const token = (await admin('POST', `/accounts/${account.id}/tokens`, { kind: 'api', name: 'api' })).token as string;
      const node = await admin('POST', `/accounts/${account.id}/nodes`, { name: 'store' });
      const flow = await admin('POST', `/accounts/${account.id}/flows`, {
        name: 'Visit',
        questions: [{ key: 'nps', body: { en: 'Recommend us?' }, style: 'nps' }],
      });
      const campaign = await admin('POST', `/accounts/${account.id}/sms_campaigns`, {
        name: 'After visit',
        node_id: node.id,
        flow_id: flow.id,
        message_template: 'Hello {{link}}',
      });
      await admin('PUT', `/accounts/${account.id}/sms_provider`, {
        url: `${operator.url}/send`,
        method: 'GET',
        sender: 'ACME',
        query: { from: '{sender}', to: '{to}', text: '{text}', dlr: '{dlr_url}' },
        dlr: { status_param: 'stat', delivered: ['DELIVRD'], failed: ['UNDELIV'], error_param: 'err', description_param: 'reason' },
      });
      const ep = await call('POST', '/v1/webhook_endpoints', {
        token,
        body: { url: `${origin}/sms`, events: ['sms.delivered', 'sms.failed'], description: 'e2e' },
      });
      expect(ep.status, ep.text).toBe(201);

      const shared = await call('POST', `/v1/sms_campaigns/${campaign.id}/sms_sharings`, {
        token,
        body: { phone_numbers: [delivered, failed] },
      });
      expect(shared.status, shared.text).toBe(200);
      const sharingId = shared.json.id as string;
      await waitFor('both reports and the repeat', () => operator.answers.length === 3, 60_000);
      // The repeat changed nothing: messaging answered it, and published nothing for it.
      expect(operator.answers.filter((a) => a.phone === failed).map((a) => [a.status, a.text])).toEqual([
        [200, 'applied'],
        [200, 'ignored'],
      ]);
      await waitFor('sms.delivered and sms.failed', () => received.length >= 2, 60_000);

      // A later message's event: once it came, whatever the first two could have raised has come too.
      const second = await call('POST', `/v1/sms_campaigns/${campaign.id}/sms_sharings`, { token, body: { phone_numbers: [later] } });
      expect(second.status, second.text).toBe(200);
      await waitFor('the later sms.delivered', () => received.some((r) => r.body.includes(later)), 60_000);

      const events = verifyAll(received, ep.json.secret as string).filter((e) => e.data.sharing_id === sharingId);
      const ids = (phone: string) =>
        new Set(received.filter((r) => r.body.includes(`"phone":"${phone}"`)).map((r) => r.headers['webhook-id']));
      expect(ids(delivered).size).toBe(1);
      expect(ids(failed).size).toBe(1);
      expect(events.find((e) => e.data.phone === delivered)).toMatchObject({
        type: 'sms.delivered',
        data: { sharing_id: sharingId, status: 'delivered', error: null },
      });
      const undelivered = { status: 'UNDELIV', code: 'EC_ABSENT_SUBSCRIBER', description: 'Absent subscriber' };
      expect(events.find((e) => e.data.phone === failed)).toMatchObject({
        type: 'sms.failed',
        data: { sharing_id: sharingId, status: 'failed', error: undelivered },
      });
      // The delivery log: one delivery per message and status.
      const log = await call('GET', `/v1/webhook_endpoints/${ep.json.endpoint.id}/deliveries`, { token });
      expect(log.json.data.map((d: { event_type: string }) => d.event_type).sort()).toEqual([
        'sms.delivered',
        'sms.delivered',
        'sms.failed',
      ]);

      // The sharing's status shows the same error.
      const status = await call('GET', `/v1/sms_sharings/${sharingId}`, { token });
      expect(status.json.counts).toMatchObject({ delivered: 1, failed: 1 });
      const byPhone = Object.fromEntries(status.json.recipients.map((r: { phone: string; error: unknown }) => [r.phone, r.error]));
      expect(byPhone).toEqual({ [delivered]: null, [failed]: undelivered });
    },
  );
});
