import { nameBasedUuid } from '@feedback/kit-core';
import type { OutgoingMessage, Producer } from '@feedback/kit-kafka';
import { describe, expect, it } from 'vitest';
import { decodeDispatch, kafkaDispatchPublisher } from '../src/dispatch/adapters/kafka/dispatch.publisher.js';
import type { DispatchEvent } from '../src/shared/domain/sharing.js';

/** Records each produce request instead of sending it. */
function recordingProducer() {
  const requests: OutgoingMessage[][] = [];
  const topics: string[] = [];
  const producer = {
    publish: async (topic: string, messages: OutgoingMessage[]) => void (requests.push(messages), topics.push(topic)),
  } as unknown as Producer;
  return { producer, requests, topics };
}

const event = (i: number, attributes: Record<string, string> = {}): DispatchEvent => ({
  sharingId: 'sh-1',
  accountId: 'acc',
  campaignId: 'camp',
  recipient: { phone: `90532${String(i).padStart(7, '0')}`, input: String(i), attributes, builtInResponses: {} },
  reminder: 0,
});

/** One batch of events, added in `slices` parts (the use case adds them per slice of phones). */
async function publish(producer: Producer, events: DispatchEvent[], slices = 1) {
  const batch = kafkaDispatchPublisher(producer, 'sms.dispatch').batch();
  const size = Math.ceil(events.length / slices);
  for (let i = 0; i < events.length; i += size) batch.add(events.slice(i, i + size));
  await batch.send();
}

describe('publishing a sharing’s sms.dispatch events', () => {
  it('sends a 5,000-phone sharing without attributes, added in slices, as one produce request, every event once and decodable', async () => {
    const { producer, requests } = recordingProducer();
    await publish(
      producer,
      Array.from({ length: 5_000 }, (_, i) => event(i)),
      5,
    );
    expect(requests.map((r) => r.length)).toEqual([5_000]);
    expect(decodeDispatch(requests[0]![42]!.value as Buffer).recipient.phone).toBe(event(42).recipient.phone);
    expect(requests[0]![42]).toMatchObject({
      key: event(42).recipient.phone,
      eventId: `sms.dispatch:${nameBasedUuid(`sh-1.${event(42).recipient.phone}`)}`,
    });
    // The event id reaches logs: no phone in it.
    expect(requests[0]!.some((m) => m.eventId!.includes('90532'))).toBe(false);
  });

  it('splits large events into requests below the broker’s 1 MB batch limit, in order', async () => {
    const { producer, requests } = recordingProducer();
    const attrs = Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`a${k}`, 'x'.repeat(1_000)]));
    await publish(
      producer,
      Array.from({ length: 200 }, (_, i) => event(i, attrs)),
      3,
    );
    expect(requests.length).toBeGreaterThan(3);
    for (const r of requests) expect(r.reduce((n, m) => n + (m.value as Buffer).length, 0)).toBeLessThan(1024 * 1024);
    expect(requests.flat().map((m) => m.key)).toEqual(Array.from({ length: 200 }, (_, i) => event(i).recipient.phone));
  });
});

describe('a batch of events', () => {
  it('publishes nothing until sent, and nothing at all when empty', async () => {
    const { producer, requests } = recordingProducer();
    const batch = kafkaDispatchPublisher(producer, 'sms.dispatch').batch();
    batch.add([event(1)]);
    expect(requests).toEqual([]);
    await batch.send();
    expect(requests.map((r) => r.length)).toEqual([1]);
    await kafkaDispatchPublisher(producer, 'sms.dispatch').batch().send();
    expect(requests).toHaveLength(1);
  });
});

describe('the small sharings’ lane', () => {
  it('sends a publish of at most maxRecipients events to the priority topic, a larger one to the main topic', async () => {
    const { producer, topics, requests } = recordingProducer();
    const lane = { topic: 'sms.dispatch.priority', maxRecipients: 100 };
    const send = async (n: number) => {
      const batch = kafkaDispatchPublisher(producer, 'sms.dispatch', lane).batch();
      batch.add(Array.from({ length: n }, (_, i) => event(i)));
      await batch.send();
    };
    await send(1);
    await send(100);
    await send(101);
    expect(topics).toEqual(['sms.dispatch.priority', 'sms.dispatch.priority', 'sms.dispatch']);
    expect(requests.map((r) => r.length)).toEqual([1, 100, 101]);
  });
});
