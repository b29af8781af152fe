import { randomInt } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call } from './api.js';
import { waitFor } from './stack.js';

// sharing.completed over HTTP against the running stack (messaging raises it, webhooks delivers
// it), with a receiver on 127.0.0.1 that checks every delivery with the Standard Webhooks library.
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A valid Turkish mobile number nobody else's test uses. */
const randomPhone = () => `+90532${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

describe('sharing.completed end to end', () => {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  let origin: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a sharing of four phones, one opted out first: one verified sharing.completed with its counts', async () => {
    const account = await admin('POST', '/accounts', { name: 'sharing.completed e2e' });
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
    const ep = await call('POST', '/v1/webhook_endpoints', {
      token,
      body: { url: `${origin}/completed`, events: ['sharing.completed'], description: 'e2e' },
    });
    expect(ep.status, ep.text).toBe(201);
    const secret = ep.json.secret as string;

    const phones = [randomPhone(), randomPhone(), randomPhone(), randomPhone()];
    const optedOut = await call('POST', '/v1/sms_opt_outs', { token, body: { phone_numbers: [phones[3]] } });
    expect(optedOut.status, optedOut.text).toBe(200);
    const shared = await call('POST', `/v1/sms_campaigns/${campaign.id}/sms_sharings`, { token, body: { phone_numbers: phones } });
    expect(shared.status, shared.text).toBe(200);
    expect(shared.json).toMatchObject({ accepted: 3, rejected: 1, rejected_phones: [{ reason: 'opted_out' }] });
    const sharingId = shared.json.id as string;

    await waitFor('the sharing.completed delivery', () => received.length >= 1, 60_000);
    const wh = new Webhook(secret);
    const events = received
      .slice(0, 1)
      .map(
        (r) => wh.verify(r.body, r.headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> },
      );
    expect(events[0]).toMatchObject({
      type: 'sharing.completed',
      data: {
        sharing_id: sharingId,
        campaign_id: campaign.id,
        accepted: 3,
        counts: { sent: 3, delivered: 0, failed: 0, opted_out: 0, cancelled: 0, other: 0 },
      },
    });
    expect(Date.parse(events[0]!.data.completed_at as string)).not.toBeNaN();
    // GET agrees: every recipient's message went out.
    const status = await call('GET', `/v1/sms_sharings/${sharingId}`, { token });
    expect(status.json.counts).toMatchObject({ sent: 3, queued: 0, sending: 0 });

    // Cancelling the finished sharing raises nothing more (the sweep noted it completed); were it
    // raised again, its event id is the same. A second sharing's webhook afterwards shows the
    // sweep and the consumer have moved on.
    const cancel = await call('DELETE', `/v1/sms_sharings/${sharingId}`, { token });
    expect(cancel.json).toMatchObject({ cancelled: 0, already_sent: 3 });
    const second = await call('POST', `/v1/sms_campaigns/${campaign.id}/sms_sharings`, { token, body: { phone_numbers: [randomPhone()] } });
    expect(second.status, second.text).toBe(200);
    await waitFor('the second sharing.completed', () => received.some((r) => r.body.includes(second.json.id as string)), 60_000);
    const mine = received.filter((r) => r.body.includes(sharingId));

    // Exactly one webhook-id for the sharing: the delivery log holds one delivery for it, and every
    // request the receiver got for it (a retried attempt repeats its id) carries that one.
    // The sender writes an attempt to the log once the receiver has answered: the second one may
    // not be there at the moment the receiver has it.
    const deliveries = () => call('GET', `/v1/webhook_endpoints/${ep.json.endpoint.id}/deliveries`, { token });
    await waitFor('both deliveries in the log', async () => (await deliveries()).json.data.length >= 2, 30_000);
    const log = await deliveries();
    const first = log.json.data.filter((d: { event_id: string }) => d.event_id === `sharing.completed:${sharingId}`);
    expect(log.json.data).toHaveLength(2);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ event_type: 'sharing.completed' });
    expect(new Set(mine.map((r) => r.headers['webhook-id']))).toEqual(new Set([first[0].webhook_id]));
    for (const r of received) expect(() => wh.verify(r.body, r.headers as Record<string, string>)).not.toThrow();
  });
});
