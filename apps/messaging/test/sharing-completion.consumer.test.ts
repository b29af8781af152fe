import type { GrpcClient, RunningGrpcServer } from '@feedback/kit-grpc';
import { createKafka, createProducer, ensureTopics, KAFKA_HEADERS, type ConsumerHandle, type Producer } from '@feedback/kit-kafka';
import type { MongoHandle } from '@feedback/kit-stores';
import { SharingCompleted, type MessagingServiceClient } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { Consumer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDispatchConsumer } from '../src/adapters/kafka/dispatch.consumer.js';
import type { MessagingDeps } from '../src/domain/ports.js';
import { messagingDeps } from '../src/wiring.js';
import { noClicks, noLinkStates } from './fakes/memory-deps.js';
import { dropTestDb, logger, openTestDb, serveMessaging, stack, uniq, waitFor } from './stack.js';

/**
 * The dispatch consumer on the stack's Kafka and MongoDB, its sharing.completed publish failing
 * at first: the batch leaves one event of the sharing to be handled alone, whose retry publishes.
 */
describe('sharing.completed from the dispatch consumer when its publish fails', () => {
  const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'messaging-completion-consumer-test', logger });
  const topics = { dispatch: uniq('sms.dispatch'), status: uniq('sms.status'), completed: uniq('sharing.completed') };
  let mongo: MongoHandle;
  let producer: Producer;
  let server: RunningGrpcServer;
  let client: GrpcClient<MessagingServiceClient>;
  let consumer: ConsumerHandle;
  let watcher: Consumer;
  let failures = 0;
  const published: { eventId: string; event: SharingCompleted }[] = [];
  const deadLetters: string[] = [];

  beforeAll(async () => {
    mongo = await openTestDb();
    await ensureTopics(kafka, [
      { topic: topics.dispatch },
      { topic: topics.status },
      { topic: topics.completed },
      { topic: `${topics.dispatch}.dlq` },
    ]);
    producer = createProducer(kafka, { logger });
    await producer.connect();
    const real = messagingDeps({
      db: mongo.db,
      producer,
      topics,
      survey: {
        createSmsChannel: async () => 'channel-1',
        activateMany: async (items) => items.map((a) => `http://api.local/s/tok-${a.phone}`),
        statesOf: noLinkStates,
      },
      shortener: { shortenMany: async (urls) => urls.map((u) => `http://go.local/${u.slice(-4)}`), countClicked: noClicks },
      settings: { defaultRegion: 'TR', maxPhones: 100, defaultSendWindow: null },
      logger,
    });
    // The first two publishes fail (a broker away): the batch's, then the first retry alone.
    const deps: MessagingDeps = {
      ...real,
      completions: {
        completed: async (c) => {
          if (failures < 2) {
            failures++;
            throw new Error('broker unavailable');
          }
          await real.completions.completed(c);
        },
      },
    };
    ({ server, client } = await serveMessaging(deps));
    consumer = await runDispatchConsumer({ kafka, topic: topics.dispatch, groupId: uniq('dispatch'), deps, logger, retryBackoffMs: 100 });
    watcher = kafka.consumer({ groupId: uniq('watch') });
    await watcher.connect();
    await watcher.subscribe({ topics: [topics.completed, `${topics.dispatch}.dlq`], fromBeginning: true });
    await watcher.run({
      eachMessage: async ({ topic, message }) => {
        if (topic !== topics.completed) return void deadLetters.push(message.value?.toString() ?? '');
        published.push({ eventId: message.headers![KAFKA_HEADERS.eventId]!.toString(), event: SharingCompleted.decode(message.value!) });
      },
    });
  });
  afterAll(async () => {
    await watcher?.disconnect();
    await consumer?.stop();
    client?.close();
    await server?.shutdown();
    await producer?.disconnect();
    await dropTestDb(mongo);
  });

  it('is published by the retry, with the counts of all three recipients', async () => {
    const { campaign } = await client.createSmsCampaign({
      accountId: 'acc-1',
      name: 'c',
      nodeId: 'node-1',
      nodeName: '',
      flowId: 'flow-1',
      messageTemplate: '{{link}}',
      linkTtlDays: 0,
      reminders: [],
      transliterate: false,
    });
    const res = await client.createSmsSharing({
      accountId: 'acc-1',
      campaignId: campaign!.id,
      phoneNumbers: ['+905321234567', '+905551112233', '+905441234567'],
      customAttributes: {},
      builtInResponses: {},
      requestKey: '',
      sendAt: '',
    });
    expect(res.accepted).toBe(3);
    await waitFor('sharing.completed', () => published.some((p) => p.event.sharingId === res.sharingId));
    expect(failures).toBe(2);
    const [first] = published.filter((p) => p.event.sharingId === res.sharingId);
    expect(first).toMatchObject({
      eventId: `sharing.completed:${res.sharingId}`,
      event: { accountId: 'acc-1', campaignId: campaign!.id, accepted: 3, counts: { sent: 3 } },
    });
    expect(deadLetters).toEqual([]);
  });
});
