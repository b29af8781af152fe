import { randomUUID } from 'node:crypto';
import { createKafka, createProducer, ensureTopics, KAFKA_HEADERS, type Producer } from '@feedback/kit-kafka';
import type { MongoHandle } from '@feedback/kit-stores';
import { SharingCompleted } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { Consumer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaCompletionEvents } from '../src/status/adapters/kafka/completion.publisher.js';
import { MongoMessageRepository } from '../src/shared/adapters/mongo/message.repository.js';
import { MongoSharingRepository } from '../src/shared/adapters/mongo/sharing.repository.js';
import { raiseIfComplete } from '../src/status/domain/sharing-completion.use-cases.js';
import { unsentRecord, type MessageStatus, type SmsMessage } from '../src/shared/domain/sms-message.js';
import { dropTestDb, logger, openTestDb, stack, testSensitive, uniq, waitFor } from './stack.js';

/** The completion count on the stack's MongoDB (messaging's indexes) and its event on the stack's Kafka. */
describe('sharing.completed against MongoDB and Kafka', () => {
  const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'messaging-completion-test', logger });
  const topic = uniq('sharing.completed');
  let mongo: MongoHandle;
  let producer: Producer;
  let messages: MongoMessageRepository;
  let sharings: MongoSharingRepository;
  let watcher: Consumer;
  const received: { key: string; eventId: string; event: SharingCompleted }[] = [];

  beforeAll(async () => {
    mongo = await openTestDb();
    messages = new MongoMessageRepository(mongo.db);
    sharings = new MongoSharingRepository(mongo.db, testSensitive);
    await ensureTopics(kafka, [{ topic }]);
    producer = createProducer(kafka, { logger });
    await producer.connect();
    watcher = kafka.consumer({ groupId: uniq('watch') });
    await watcher.connect();
    await watcher.subscribe({ topics: [topic], fromBeginning: true });
    await watcher.run({
      eachMessage: async ({ message }) => {
        received.push({
          key: message.key!.toString(),
          eventId: message.headers![KAFKA_HEADERS.eventId]!.toString(),
          event: SharingCompleted.decode(message.value!),
        });
      },
    });
  });
  afterAll(async () => {
    await watcher?.disconnect();
    await producer?.disconnect();
    await dropTestDb(mongo);
  });

  /** A record of the sharing to the phone in the given status (a reminder's when `reminder` > 0). */
  const record = (sharingId: string, phone: string, status: MessageStatus, reminder = 0): SmsMessage => ({
    ...unsentRecord({ accountId: 'acc', sharingId, campaignId: 'camp', phone, reminder, status: 'cancelled', at: new Date() }),
    status,
  });

  async function sharingOf(accepted: number): Promise<string> {
    const id = randomUUID();
    const writer = sharings.writeRecipients(id);
    await writer.complete({
      id,
      accountId: 'acc',
      campaignId: 'camp',
      createdAt: new Date(),
      accepted,
      duplicates: 0,
      rejected: [],
      scheduledFor: null,
      cancelledAt: null,
    });
    return id;
  }

  it('counts settled first messages by status, leaving out reminders, unsettled ones and other sharings', async () => {
    const id = randomUUID();
    const other = randomUUID();
    await messages.recordMany([
      record(id, '1', 'sent'),
      record(id, '2', 'delivered'),
      record(id, '3', 'failed'),
      record(id, '4', 'unknown'),
      record(id, '5', 'opted_out'),
      record(id, '6', 'cancelled'),
      record(id, '7', 'sending'),
      record(id, '8', 'retryable'),
      record(id, '1', 'sent', 1),
      record(id, '2', 'delivered', 2),
      record(other, '1', 'sent'),
    ]);
    expect(await messages.firstsByStatus(id)).toEqual({
      sent: 1,
      delivered: 1,
      failed: 1,
      unknown: 1,
      opted_out: 1,
      cancelled: 1,
      sending: 1,
      retryable: 1,
    });
    expect(await messages.firstsByStatus(randomUUID())).toEqual({});
  });

  it('publishes once the count reaches accepted, keyed by the sharing, under one event id for every repeat', async () => {
    const id = await sharingOf(2);
    const deps = {
      sharings,
      messages,
      completions: kafkaCompletionEvents(producer, topic),
      clock: { now: () => new Date('2026-11-27T10:00:00Z') },
    };
    const sharing = (await sharings.findById('acc', id))!;
    await messages.recordMany([record(id, '905321234567', 'sent'), record(id, '905321234567', 'sent', 1)]);
    // Two messages for two recipients, but one of them a reminder: one first message short.
    expect(await messages.firstsByStatus(id)).toEqual({ sent: 1 });
    expect(await raiseIfComplete(deps, sharing)).toBe(false);
    await messages.recordMany([record(id, '905551112233', 'opted_out')]);
    expect(await raiseIfComplete(deps, sharing)).toBe(true);
    expect(await raiseIfComplete(deps, sharing)).toBe(true);

    await waitFor('both publishes', () => received.filter((r) => r.key === id).length === 2);
    const mine = received.filter((r) => r.key === id);
    expect(mine.map((r) => r.eventId)).toEqual([`sharing.completed:${id}`, `sharing.completed:${id}`]);
    expect(mine[0]!.event).toEqual({
      sharingId: id,
      accountId: 'acc',
      campaignId: 'camp',
      accepted: 2,
      counts: { scheduled: 0, queued: 0, sending: 0, sent: 1, delivered: 0, failed: 0, optedOut: 1, cancelled: 0, other: 0 },
      completedAt: '2026-11-27T10:00:00.000Z',
    });
  });
});
