import { randomUUID } from 'node:crypto';
import { systemClock } from '@feedback/kit-core';
import { createProducer, ensureTopics, type ConsumerHandle, type Producer } from '@feedback/kit-kafka';
import type { MongoHandle } from '@feedback/kit-stores';
import { SmsStatusChanged } from '@feedback/proto/feedback/messaging/v1/messaging';
import { SurveyAnswered } from '@feedback/proto/feedback/survey/v1/survey';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEventsConsumer } from '../src/adapters/kafka/events.consumer.js';
import { MongoDeliveryRepository } from '../src/adapters/mongo/delivery.repository.js';
import { MongoEndpointRepository } from '../src/adapters/mongo/endpoint.repository.js';
import { MongoTestSendCounter } from '../src/adapters/mongo/test-send.counter.js';
import { createEndpoint } from '../src/domain/endpoint.use-cases.js';
import { dropTestDb, kafka, logger, openTestDb, testCipher, uniq, waitFor } from './stack.js';

// The events consumer on real Kafka (random topics and group) and the real MongoDB-compatible server.
describe('events consumer', () => {
  let mongo: MongoHandle;
  let producer: Producer;
  let consumer: ConsumerHandle;
  const topics = { surveyAnswered: uniq('survey.answered'), smsStatus: uniq('sms.status'), fileExpired: uniq('file.expired') };
  let deps: Parameters<typeof createEndpoint>[0];

  beforeAll(async () => {
    mongo = await openTestDb();
    deps = {
      endpoints: new MongoEndpointRepository(mongo.db),
      deliveries: new MongoDeliveryRepository(mongo.db),
      testSends: new MongoTestSendCounter(mongo.db),
      cipher: testCipher(),
      urlPolicy: async () => null,
      settings: {
        retrySchedule: [1000],
        disableAfterMs: 86_400_000,
        rotationOverlapMs: 86_400_000,
        leaseMs: 60_000,
        maxEndpointsPerAccount: 20,
        testSendsPerMinute: 10,
      },
      clock: systemClock,
      newId: randomUUID,
    };
    await ensureTopics(
      kafka,
      Object.values(topics).flatMap((topic) => [{ topic, numPartitions: 2 }, { topic: `${topic}.dlq` }]),
    );
    producer = createProducer(kafka, { logger });
    await producer.connect();
    consumer = await runEventsConsumer({ kafka, topics, groupId: uniq('g'), deps, logger, fromBeginning: true, retryBackoffMs: 100 });
  });
  afterAll(async () => {
    await consumer?.stop();
    await producer?.disconnect();
    await dropTestDb(mongo);
  });

  const deliveriesOf = async (endpointId: string) =>
    (await mongo.db.collection('deliveries').find({ endpoint_id: endpointId }).toArray()).map((d) => ({
      type: d.event_type as string,
      event: d.event_id as string,
    }));

  it('one delivery per subscribed endpoint and event, however often the record comes', async () => {
    const account = uniq('acc');
    const answers = await createEndpoint(deps, account, { url: 'https://a.example/h', events: ['survey.answered'], description: '' });
    const sms = await createEndpoint(deps, account, {
      url: 'https://b.example/h',
      events: ['sms.failed', 'sms.delivered'],
      description: '',
    });
    const foreign = await createEndpoint(deps, uniq('other'), { url: 'https://c.example/h', events: ['survey.answered'], description: '' });

    const response = SurveyAnswered.encode({
      response: {
        id: 'r1',
        accountId: account,
        flowId: 'f',
        channelId: 'c',
        nodeId: 'n',
        customerId: 'cu',
        linkId: 'l',
        answers: [],
        builtInResponses: {},
        answeredAt: new Date().toISOString(),
      },
    }).finish();
    const answered = { key: 'cu', value: Buffer.from(response), eventId: 'survey.answered:r1' };
    // Kafka redelivers: the same record (same event id) twice.
    await producer.publish(topics.surveyAnswered, [answered, answered]);
    const status = (s: string) => ({
      key: '905321234567',
      value: Buffer.from(
        SmsStatusChanged.encode({
          messageId: 'm1',
          sharingId: 's1',
          accountId: account,
          phone: '905321234567',
          status: s,
          error: '',
          at: new Date().toISOString(),
        }).finish(),
      ),
      eventId: `sms.status:m1:${s}`,
    });
    await producer.publish(topics.smsStatus, [status('sent'), status('failed'), status('failed')]);

    await waitFor(
      'the deliveries',
      async () => (await deliveriesOf(answers.endpoint.id)).length === 1 && (await deliveriesOf(sms.endpoint.id)).length === 1,
    );
    // Later records of every topic handled: the earlier ones (and their duplicates) are done.
    await producer.publish(topics.smsStatus, [status('delivered')]);
    await waitFor('the delivered status', async () => (await deliveriesOf(sms.endpoint.id)).length === 2);
    expect(await deliveriesOf(answers.endpoint.id)).toEqual([{ type: 'survey.answered', event: 'survey.answered:r1' }]);
    expect((await deliveriesOf(sms.endpoint.id)).sort((a, b) => a.type.localeCompare(b.type))).toEqual([
      { type: 'sms.delivered', event: 'sms.status:m1:delivered' },
      { type: 'sms.failed', event: 'sms.status:m1:failed' },
    ]);
    expect(await deliveriesOf(foreign.endpoint.id)).toEqual([]);
  });
});
