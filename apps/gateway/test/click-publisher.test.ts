import { createLogger, readStackFile } from '@feedback/kit-core';
import { createKafka, createProducer, ensureTopics, KAFKA_HEADERS, type OutgoingMessage, type Producer } from '@feedback/kit-kafka';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import { describe, expect, it } from 'vitest';
import { ClickPublisher } from '../src/adapters/click-publisher.js';

const logger = createLogger('gateway-test', 'silent');
const opts = { topic: 'clicks', batchSize: 3, flushIntervalMs: 60_000, maxBuffered: 10, logger };
const codesOf = (batch: OutgoingMessage[]) => batch.map((m) => LinkClicked.decode(m.value as Buffer).code);

/** A producer that records batches, failing the next `failures` sends. */
function recordingProducer(failures = 0) {
  const batches: OutgoingMessage[][] = [];
  const producer: Producer = {
    connect: async () => {},
    disconnect: async () => {},
    publish: async (_topic, messages) => {
      if (failures-- > 0) throw new Error('broker away');
      batches.push(messages);
      return messages.map((m) => m.eventId!);
    },
  };
  return { producer, batches };
}

describe('ClickPublisher', () => {
  it('sends full batches at once, and the rest on flush, in order', async () => {
    const { producer, batches } = recordingProducer();
    const clicks = new ClickPublisher(producer, opts);
    clicks.start();
    await clicks.flush(); // connects
    for (const c of ['a', 'b', 'c', 'd']) clicks.record(c);
    await clicks.flush();
    expect(batches.map(codesOf)).toEqual([['a', 'b', 'c'], ['d']]);
    await clicks.close();
  });

  it('keeps a failed batch and sends it first next time', async () => {
    const { producer, batches } = recordingProducer(1);
    const clicks = new ClickPublisher(producer, opts);
    clicks.start();
    await clicks.flush();
    clicks.record('a');
    await clicks.flush();
    expect(clicks.pending).toBe(1);
    clicks.record('b');
    await clicks.flush();
    expect(batches.map(codesOf)).toEqual([['a', 'b']]);
    await clicks.close();
  });

  it('drops the oldest clicks beyond its bound rather than growing without end', async () => {
    const { producer, batches } = recordingProducer();
    const clicks = new ClickPublisher(producer, { ...opts, batchSize: 100, maxBuffered: 3 });
    for (const c of ['a', 'b', 'c', 'd', 'e']) clicks.record(c); // not connected yet
    clicks.start();
    await clicks.flush();
    await clicks.close();
    expect(batches.map(codesOf)).toEqual([['c', 'd', 'e']]);
  });

  it('publishes protobuf LinkClicked events keyed by code, with the click id as event id (real Kafka)', async () => {
    const stack = readStackFile();
    const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'gateway-test', logger });
    const topic = `link.clicked-test-${Date.now()}`;
    await ensureTopics(kafka, [{ topic }]);
    const clicks = new ClickPublisher(createProducer(kafka, { logger }), { ...opts, topic });
    clicks.start();
    clicks.record('Abc1234');
    await clicks.close();

    const consumer = kafka.consumer({ groupId: `${topic}-reader` });
    const got: Array<{ key?: string; headers: Record<string, string>; event: LinkClicked }> = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
        got.push({ key: message.key?.toString(), headers, event: LinkClicked.decode(message.value!) });
      },
    });
    const deadline = Date.now() + 20_000;
    while (got.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await consumer.disconnect();

    expect(got).toHaveLength(1);
    const [m] = got;
    expect(m!.key).toBe('Abc1234');
    expect(m!.event.code).toBe('Abc1234');
    expect(m!.event.clickedAt).toMatch(/Z$/);
    expect(m!.headers[KAFKA_HEADERS.eventId]).toBe(m!.event.clickId);
  }, 60_000);
});
