import { randomUUID } from 'node:crypto';
import { PersonalDataProtector } from '@feedback/kit-core';
import { createProducer, ensureTopics, type ConsumerHandle, type Producer } from '@feedback/kit-kafka';
import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaErasureEvents } from '../src/adapters/kafka/data-erasure.publisher.js';
import { runErasureProgressConsumer, runErasureRequestConsumer } from '../src/adapters/kafka/data-erasure.consumer.js';
import { MongoErasureRepository } from '../src/adapters/mongo/data-erasure.repository.js';
import { NO_COUNTS, type ErasureRequest } from '../src/domain/data-erasure.js';
import { recordErasureProgress } from '../src/domain/data-erasure.use-cases.js';
import { dropTestDb, kafka, logger, openTestDb, uniq, waitFor } from './stack.js';

// Real Kafka and the stack's MongoDB-wire server; random topics, groups and database. What makes
// an erasure complete although a service was down when it was requested: the request waits in
// the topic, a consumer group started afterwards reads it from the beginning, and the request
// stays pending until that service's report arrives.
describe('data erasure over Kafka', () => {
  let mongo: MongoHandle;
  let producer: Producer;
  const consumers: ConsumerHandle[] = [];
  const topics = { requested: uniq('data.erasure.requested'), progress: uniq('data.erasure.progress') };
  const protector = new PersonalDataProtector(Buffer.alloc(32, 4));
  const clock = { now: () => new Date() };

  beforeAll(async () => {
    mongo = await openTestDb();
    await ensureTopics(kafka, [
      { topic: topics.requested, numPartitions: 3 },
      { topic: topics.progress, numPartitions: 3 },
    ]);
    producer = createProducer(kafka, { logger });
    await producer.connect();
  });
  afterAll(async () => {
    await Promise.all(consumers.map((c) => c.stop()));
    await producer?.disconnect();
    await dropTestDb(mongo);
  });

  it('a service whose consumer starts after the request was published still erases, and the request completes only then', async () => {
    const erasures = new MongoErasureRepository(mongo.db, protector);
    const events = kafkaErasureEvents(producer, topics);
    const id = randomUUID();
    const request: ErasureRequest = {
      erasureId: id,
      accountId: 'acc-1',
      phones: ['905321112233'],
      emails: [],
      externalIds: [],
      customerIds: [randomUUID()],
      surveyLinkIds: [],
      surveyLinkUrls: [],
      requestedAt: new Date(),
    };
    await erasures.insert({
      id,
      accountId: 'acc-1',
      status: 'pending',
      requestedAt: request.requestedAt,
      completedAt: null,
      subjectHashes: [protector.hash('905321112233', 'phone')],
      expectedServices: ['survey', 'messaging'],
      progress: {},
      unpublished: request,
    });
    // Sealed at rest until published: the phone is not in the document in clear.
    expect(JSON.stringify(await mongo.db.collection('data_erasures').findOne({ _id: id as never }))).not.toContain('905321112233');
    await events.requested(request);
    await erasures.markPublished(id);

    consumers.push(
      await runErasureProgressConsumer({
        kafka,
        topic: topics.progress,
        groupId: uniq('progress'),
        logger,
        record: (p) => recordErasureProgress({ erasures, clock, logger }, p),
      }),
    );
    // "survey" was up: it reports at once.
    await events.progress({ erasureId: id, accountId: 'acc-1', service: 'survey', counts: { ...NO_COUNTS, customers: 1 } });
    await waitFor('the survey report', async () => Object.hasOwn((await erasures.findById('acc-1', id))!.progress, 'survey'));
    expect((await erasures.findById('acc-1', id))!.status).toBe('pending');

    // "messaging" was down when the request was published: its group starts only now.
    const seen: ErasureRequest[] = [];
    consumers.push(
      await runErasureRequestConsumer({
        kafka,
        topic: topics.requested,
        groupId: uniq('messaging-erasure'),
        logger,
        erase: async (r) => {
          seen.push(r);
          await events.progress({
            erasureId: r.erasureId,
            accountId: r.accountId,
            service: 'messaging',
            counts: { ...NO_COUNTS, messages: 2 },
          });
        },
      }),
    );
    await waitFor('the erasure to complete', async () => (await erasures.findById('acc-1', id))!.status === 'completed', 30_000);
    expect(seen.map((r) => ({ ...r, requestedAt: r.requestedAt.toISOString() }))).toEqual([
      { ...request, requestedAt: request.requestedAt.toISOString() },
    ]);

    // A repeated report (a redelivery that found nothing left) keeps the first counts.
    await erasures.recordProgress(id, 'messaging', NO_COUNTS);
    const done = (await erasures.findById('acc-1', id))!;
    expect(done.progress).toEqual({ survey: { ...NO_COUNTS, customers: 1 }, messaging: { ...NO_COUNTS, messages: 2 } });
    expect(done.unpublished).toBeUndefined();
    expect(await erasures.findById('acc-2', id)).toBeNull();
  }, 60_000);
});
