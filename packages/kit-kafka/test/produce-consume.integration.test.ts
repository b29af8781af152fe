import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, currentContext, runWithContext } from '@feedback/kit-core/runtime';
import { createKafka, ensureTopics, type ConsumedMessage } from '../src/index.js';
import { closeAll, freshTopic, kafka, startConsumer, startProducer, uniq, waitFor, withAdmin } from './stack.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

afterEach(closeAll);

describe('produce and consume', () => {
  it('delivers key, value and the request id, event id and content type headers', async () => {
    const topic = await freshTopic();
    const received: Array<{ msg: ConsumedMessage; contextRequestId: string | undefined }> = [];
    await startConsumer({
      groupId: uniq('g'),
      topics: [topic],
      handler: async (msg) => {
        received.push({ msg, contextRequestId: currentContext()?.requestId });
      },
    });
    const producer = await startProducer();

    const inRequest = await runWithContext({ requestId: 'req-abc' }, () =>
      producer.publish(topic, [
        { key: 'k1', value: JSON.stringify({ n: 1 }), eventId: 'evt-1', contentType: 'application/json' },
        { key: 'k1', value: Buffer.from('two'), headers: { 'x-extra': 'yes' } },
      ]),
    );
    const outside = await producer.publish(topic, [{ value: 'three' }]);
    expect(inRequest[0]).toBe('evt-1');

    await waitFor('three messages', () => received.length === 3);
    const [first, second, third] = received.map((r) => r!);
    expect(first!.msg.key).toBe('k1');
    expect(JSON.parse(first!.msg.value.toString())).toEqual({ n: 1 });
    expect(first!.msg.eventId).toBe('evt-1');
    expect(first!.msg.headers).toMatchObject({
      'x-request-id': 'req-abc',
      'event-id': 'evt-1',
      'content-type': 'application/json',
    });
    expect(first!.contextRequestId).toBe('req-abc');

    expect(second!.msg.value.equals(Buffer.from('two'))).toBe(true);
    expect(second!.msg.eventId).toMatch(UUID);
    expect(second!.msg.eventId).toBe(inRequest[1]);
    expect(second!.msg.headers['x-extra']).toBe('yes');
    expect(second!.msg.headers['content-type']).toBeUndefined();
    expect(second!.contextRequestId).toBe('req-abc');

    // Published outside any request: a fresh request id, which the handler's context carries.
    expect(third!.msg.key).toBeUndefined();
    expect(third!.msg.eventId).toBe(outside[0]);
    expect(third!.msg.headers['x-request-id']).toMatch(UUID);
    expect(third!.contextRequestId).toBe(third!.msg.headers['x-request-id']);
  });

  it('sends more than a produce request may carry (the broker refuses a batch over 1 MiB) in order, every message once', async () => {
    const topic = await freshTopic();
    const received: string[] = [];
    await startConsumer({ groupId: uniq('g'), topics: [topic], handler: async (msg) => void received.push(msg.value.toString()) });
    const producer = await startProducer();
    // 3,000 messages of 1 KiB under one key: one partition, 3 MiB.
    const values = Array.from({ length: 3_000 }, (_, i) => `${String(i).padStart(6, '0')}${'x'.repeat(1_018)}`);
    const ids = await producer.publish(
      topic,
      values.map((value) => ({ key: 'one-sharing', value })),
    );
    expect(ids).toHaveLength(3_000);
    await waitFor('3,000 messages', () => received.length >= 3_000, 60_000);
    expect(received).toEqual(values);
  }, 90_000);

  it('ensureTopics creates missing topics once and leaves existing ones alone', async () => {
    const topic = uniq('t');
    await ensureTopics(kafka, [{ topic, numPartitions: 3 }]);
    await ensureTopics(kafka, [{ topic, numPartitions: 5 }]);
    const meta = await withAdmin((admin) => admin.fetchTopicMetadata({ topics: [topic] }));
    expect(meta.topics[0]?.partitions).toHaveLength(3);
  });

  it('routes kafkajs logs to the pino logger at the matching level', async () => {
    const lines: Array<{ level: number; args: unknown[] }> = [];
    const captured = createLogger('kafkajs-log-test', 'info', {
      hooks: {
        // Captures instead of printing.
        logMethod(args, _method, level) {
          lines.push({ level, args });
        },
      },
    });
    // Nothing listens on port 1: kafkajs logs a connection error and gives up at once.
    const broken = createKafka({
      brokers: ['127.0.0.1:1'],
      clientId: 'broken',
      logger: captured,
      retry: { retries: 0 },
      connectionTimeout: 500,
    });
    const admin = broken.admin();
    await expect(admin.connect()).rejects.toThrow();
    const errors = lines.filter((l) => l.level === 50);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.args[0]).toMatchObject({ namespace: expect.any(String) });
    expect(String(errors[0]!.args[1])).toMatch(/connect|connection/i);
  });
});
