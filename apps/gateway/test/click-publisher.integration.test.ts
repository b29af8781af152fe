import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import { createKafka, createProducer, ensureTopics, KAFKA_HEADERS, type OutgoingMessage, type Producer } from '@feedback/kit-kafka';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import { describe, expect, it } from 'vitest';
import { ClickPublisher } from '../src/links/click.publisher.js';

const logger = createLogger('gateway-test', 'silent');
const opts = { topic: 'clicks', batchSize: 3, flushIntervalMs: 60_000, maxBuffered: 10, logger };
/** Each record as "code×clicks". */
const summary = (batch: OutgoingMessage[]) =>
  batch.map((m) => {
    const e = LinkClicked.decode(m.value as Buffer);
    expect(m.key).toBe(e.code);
    return `${e.code}×${e.clickedAtMs.length}`;
  });

/** A producer that records batches, failing the next `failures` sends. */
function recordingProducer(failures = 0) {
  const batches: OutgoingMessage[][] = [];
  const producer: Producer = {
    connect: async () => {},
    disconnect: async () => {},
    publish: async (_topic, messages) => {
      if (failures-- > 0) throw new Error('broker away');
      batches.push(messages);
      return messages.map((_, i) => String(i));
    },
  };
  return { producer, batches };
}

describe('ClickPublisher', () => {
  it('sends one record per link with its click times, as soon as a batch is full', async () => {
    const { producer, batches } = recordingProducer();
    const clicks = new ClickPublisher(producer, opts);
    clicks.start();
    await clicks.flush(); // connects
    const before = Date.now();
    for (const c of ['a', 'b', 'a']) clicks.record(c);
    await clicks.flush();
    clicks.record('c');
    await clicks.flush();
    expect(batches.map(summary)).toEqual([['a×2', 'b×1'], ['c×1']]);
    const times = LinkClicked.decode(batches[0]![0]!.value as Buffer).clickedAtMs;
    expect(times.every((t) => t >= before && t <= Date.now())).toBe(true);
    await clicks.close();
  });

  it('splits a long burst on one link into records of at most 1000 clicks', async () => {
    const { producer, batches } = recordingProducer();
    const clicks = new ClickPublisher(producer, { ...opts, batchSize: 10_000, maxBuffered: 10_000 });
    for (let i = 0; i < 2500; i++) clicks.record('hot');
    clicks.start();
    await clicks.close();
    expect(batches.map(summary)).toEqual([['hot×1000', 'hot×1000', 'hot×500']]);
  });

  it('keeps the clicks of a failed send for the next one', async () => {
    const { producer, batches } = recordingProducer(1);
    const clicks = new ClickPublisher(producer, { ...opts, batchSize: 100 });
    clicks.start();
    await clicks.flush();
    clicks.record('a');
    await clicks.flush();
    expect(clicks.waiting).toBe(1);
    clicks.record('a');
    clicks.record('b');
    await clicks.flush();
    expect(batches.map(summary)).toEqual([['a×2', 'b×1']]);
    await clicks.close();
  });

  it('drops clicks beyond its bound rather than growing without end', async () => {
    const { producer, batches } = recordingProducer();
    const clicks = new ClickPublisher(producer, { ...opts, batchSize: 100, maxBuffered: 3 });
    for (const c of ['a', 'b', 'c', 'd', 'e']) clicks.record(c); // not connected yet
    clicks.start();
    await clicks.close();
    expect(batches.map(summary)).toEqual([['a×1', 'b×1', 'c×1']]);
  });

  it('publishes protobuf LinkClicked records keyed by code to real Kafka', async () => {
    const stack = readStackFile();
    const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'gateway-test', logger });
    const topic = `link.clicked-test-${Date.now()}`;
    await ensureTopics(kafka, [{ topic }]);
    const clicks = new ClickPublisher(createProducer(kafka, { logger }), { ...opts, topic });
    clicks.start();
    clicks.record('Abc1234');
    clicks.record('Abc1234');
    await clicks.close();

    const consumer = kafka.consumer({ groupId: `${topic}-reader` });
    const got: Array<{ key?: string; eventId?: string; event: LinkClicked }> = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        got.push({
          key: message.key?.toString(),
          eventId: message.headers?.[KAFKA_HEADERS.eventId]?.toString(),
          event: LinkClicked.decode(message.value!),
        });
      },
    });
    const deadline = Date.now() + 20_000;
    while (got.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await consumer.disconnect();

    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ key: 'Abc1234', event: { code: 'Abc1234' } });
    expect(got[0]!.event.clickedAtMs).toHaveLength(2);
    expect(got[0]!.eventId).toMatch(/^[0-9a-f-]{36}$/);
  }, 60_000);
});
