import { createLogger } from '@feedback/kit-core/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { startDeliverySender } from '../src/adapters/sender/delivery.sender.js';
import { createEndpoint } from '../src/domain/endpoint.use-cases.js';
import { recordEvents } from '../src/domain/event.use-cases.js';
import type { SendResult, WebhooksDeps } from '../src/domain/ports.js';
import type { WebhookEvent } from '../src/domain/webhook.js';
import { memoryDeps } from './fakes/memory-deps.js';

// New deliveries through this process's sender before they are stored: the events consumer's path.
const answer = (statusCode: number): SendResult => ({ statusCode, error: '', latencyMs: 1, responseBody: '' });
const event = (id: string): WebhookEvent => ({
  id,
  accountId: 'acc',
  type: 'survey.answered',
  timestamp: new Date('2026-11-27T10:00:00.000Z'),
  data: { response_id: id },
});

const senders: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of senders.splice(0)) await s.close();
});

async function setup(send: (url: string) => Promise<SendResult>) {
  const now = { value: new Date() };
  const { deps, deliveries } = memoryDeps(now, () => answer(204));
  const sent: { url: string; webhookId: string }[] = [];
  deps.transport = {
    send: async (url, headers) => {
      sent.push({ url, webhookId: headers['webhook-id']! });
      return send(url);
    },
  };
  let finishes = 0;
  const finish = deps.deliveries.finish.bind(deps.deliveries);
  deps.deliveries.finish = (...args) => (finishes++, finish(...args));
  const sender = startDeliverySender({
    deps,
    concurrency: 4,
    idleMs: 60_000,
    timeoutMs: 10_000,
    logger: createLogger('webhooks-test', 'silent'),
  });
  senders.push(sender);
  const { endpoint } = await createEndpoint(deps, 'acc', { url: 'https://a.example/h', events: ['survey.answered'], description: '' });
  return { deps: deps as WebhooksDeps, deliveries, sender, sent, endpoint, finishes: () => finishes };
}

describe('first attempts before the store', () => {
  it('a quick answer is stored with the delivery: one write, no update after it', async () => {
    const t = await setup(async () => answer(204));
    expect(await recordEvents(t.deps, [event('e1'), event('e2')], t.sender)).toBe(2);
    const stored = [...t.deliveries.values()];
    expect(stored).toHaveLength(2);
    for (const d of stored) expect(d).toMatchObject({ status: 'succeeded', claim: null, attempts: [{ statusCode: 204 }] });
    expect(t.sent).toHaveLength(2);
    expect(t.finishes()).toBe(0);
  });

  it('an event twice in one batch (published at least once) is attempted and stored once', async () => {
    const t = await setup(async () => answer(204));
    expect(await recordEvents(t.deps, [event('e1'), event('e2'), event('e1')], t.sender)).toBe(2);
    expect(t.sent.map((s) => s.webhookId).sort()).toEqual([...new Set(t.sent.map((s) => s.webhookId))].sort());
    expect(t.sent).toHaveLength(2);
    expect([...t.deliveries.values()]).toHaveLength(2);
  });

  it('an event published twice, its copy in a later batch, is attempted once', async () => {
    const t = await setup(async () => answer(204));
    expect(await recordEvents(t.deps, [event('e1')], t.sender)).toBe(1);
    expect(await recordEvents(t.deps, [event('e1'), event('e2')], t.sender)).toBe(1);
    expect(t.sent).toHaveLength(2);
    expect(new Set(t.sent.map((s) => s.webhookId)).size).toBe(2);
    expect([...t.deliveries.values()]).toHaveLength(2);
  });

  it('a failed first attempt is stored pending its retry', async () => {
    const t = await setup(async () => answer(503));
    await recordEvents(t.deps, [event('e1')], t.sender);
    const [d] = [...t.deliveries.values()];
    expect(d).toMatchObject({ status: 'pending', retryIndex: 1, claim: null, attempts: [{ statusCode: 503 }] });
    expect(d!.nextAttemptAt!.getTime()).toBeGreaterThan(d!.attempts[0]!.at.getTime());
  });

  it('an attempt that outlasts the wait is stored claimed, then writes its own outcome', async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const t = await setup(async () => (await slow, answer(204)));
    await recordEvents(t.deps, [event('slow')], t.sender);
    const [d] = [...t.deliveries.values()];
    expect(d).toMatchObject({ status: 'pending', attempts: [] });
    expect(d!.claim).not.toBeNull();
    release();
    await expect.poll(() => t.deliveries.get(d!.id)?.status).toBe('succeeded');
    expect(t.deliveries.get(d!.id)).toMatchObject({ claim: null, attempts: [{ statusCode: 204 }] });
    expect(t.finishes()).toBe(1);
  });

  it('a failed store drops the late outcome, and the event coming again is attempted under the same webhook-id', async () => {
    let release!: () => void;
    let slow = new Promise<void>((resolve) => (release = resolve));
    const t = await setup(async () => (await slow, answer(204)));
    const insertNew = t.deps.deliveries.insertNew.bind(t.deps.deliveries);
    t.deps.deliveries.insertNew = async () => {
      throw new Error('database unavailable');
    };
    await expect(recordEvents(t.deps, [event('e1')], t.sender)).rejects.toThrow('database unavailable');
    release();
    await expect.poll(() => t.sent.length).toBe(1);
    expect(t.finishes()).toBe(0);
    // Kafka gives the record again (its offset was not committed).
    t.deps.deliveries.insertNew = insertNew;
    slow = Promise.resolve();
    expect(await recordEvents(t.deps, [event('e1')], t.sender)).toBe(1);
    expect(t.sent.map((s) => s.webhookId)).toEqual([t.sent[0]!.webhookId, t.sent[0]!.webhookId]);
    expect([...t.deliveries.values()]).toMatchObject([{ status: 'succeeded', webhookId: t.sent[0]!.webhookId }]);
    expect(t.finishes()).toBe(0);
  });

  it('with no room, deliveries are stored due now for the claimer', async () => {
    const t = await setup(async () => answer(204));
    const handoff = { ...t.sender, room: () => 0 };
    expect(await recordEvents(t.deps, [event('e1')], handoff)).toBe(1);
    const [d] = [...t.deliveries.values()];
    expect(d).toMatchObject({ status: 'pending', attempts: [] });
    expect(t.sent).toHaveLength(0);
  });
});
