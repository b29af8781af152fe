import { createGrpcClient, type GrpcClient } from '@feedback/kit-grpc';
import { createKafka, createProducer, ensureTopics, type ConsumerHandle, type Producer } from '@feedback/kit-kafka';
import type { MongoHandle } from '@feedback/kit-stores';
import { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import { SurveyAnswered, type SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';
import type { Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAnswerFactsConsumer } from '../src/reports/adapters/kafka/answer-facts.consumer.js';
import { runClickFactsConsumer } from '../src/reports/adapters/kafka/click-facts.consumer.js';
import { factDeps } from '../src/reports/facts.wiring.js';
import { MongoMessageRepository } from '../src/shared/adapters/mongo/message.repository.js';
import type { NewMessage } from '../src/shared/ports.js';
import { caughtUp, topicEnds } from './file-service.js';
import { dropTestDb, logger, openTestDb, stack, uniq, waitFor } from './stack.js';

interface MessageRecord {
  _id: string;
  link_code?: string;
  clicked_at?: Date;
  answered_at?: Date;
  nps_score?: number;
  tally_owed?: { f: string; at: Date; nps?: number }[];
}

/*
 * The clicked and answered facts on the stack's Kafka and MongoDB (a database and topics of this
 * file's own) and its flow service: messaging's fact consumers in-process, the message records
 * written by the message repository as dispatch writes them.
 */
describe('clicks and answers become facts on the message records', () => {
  const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'messaging-facts-test', logger });
  const topics = { clicks: uniq('link.clicked'), answered: uniq('survey.answered') };
  const groups = { clicks: uniq('click-facts'), answered: uniq('answer-facts') };
  const account = uniq('acc');
  const sharing = uniq('sh');
  let mongo: MongoHandle;
  let producer: Producer;
  let admin: Admin;
  let flows: GrpcClient<FlowServiceClient>;
  let flowId: string;
  const consumers: ConsumerHandle[] = [];
  const records = () => mongo.db.collection<MessageRecord>('sms_messages');
  const record = async (id: string) => (await records().findOne({ _id: id }))!;
  const owed = (r: MessageRecord, f: string) => (r.tally_owed ?? []).filter((e) => e.f === f);

  /** A first message (and, with `reminder`, its reminder) as dispatch records it, its link ending in `code`. */
  const message = (phone: string, code: string, reminder = 0): NewMessage => ({
    id: reminder > 0 ? `${sharing}.${phone}.r${reminder}` : `${sharing}.${phone}`,
    accountId: account,
    sharingId: sharing,
    campaignId: 'camp-1',
    phone,
    text: `Merhaba http://127.0.0.1:8081/${code}`,
    provider: 'outbox',
    createdAt: new Date(),
    link: `http://127.0.0.1:8081/${code}`,
    ...(reminder > 0 && { reminder }),
  });

  /** Publishes and waits until the group has committed past what was published. */
  async function deliver(topic: string, groupId: string, values: Buffer[]) {
    await producer.publish(
      topic,
      values.map((value) => ({ key: 'k', value })),
    );
    const ends = await topicEnds(admin, topic);
    await waitFor(`${groupId} caught up`, () => caughtUp(admin, groupId, topic, ends));
  }
  const click = (code: string, ...times: number[]) =>
    Buffer.from(LinkClicked.encode(LinkClicked.fromPartial({ code, clickedAtMs: times })).finish());
  const answer = (r: Partial<SurveyResponse>) =>
    Buffer.from(
      SurveyAnswered.encode({
        response: {
          id: uniq('resp'),
          accountId: account,
          flowId,
          channelId: 'ch',
          nodeId: 'n',
          customerId: 'cu',
          linkId: 'l',
          answers: [],
          builtInResponses: {},
          answeredAt: '2026-11-28T10:20:30.000Z',
          ...r,
        },
      }).finish(),
    );
  const context = (messageId: string) => ({ campaignId: 'camp-1', sharingId: sharing, messageId, customAttributes: {} });

  beforeAll(async () => {
    mongo = await openTestDb();
    // One partition each: the events are read in the order published.
    await ensureTopics(kafka, [
      { topic: topics.clicks, numPartitions: 1 },
      { topic: topics.answered, numPartitions: 1 },
    ]);
    producer = createProducer(kafka, { logger });
    await producer.connect();
    admin = kafka.admin();
    await admin.connect();
    flows = createGrpcClient(FlowServiceClient, stack.grpc.flow, { deadlineMs: 10_000 });
    const { flow } = await flows.createFlow({
      accountId: account,
      name: 'NPS',
      questions: [
        { key: 'why', body: { en: 'Why?' }, style: 'short_text', options: [] },
        { key: 'recommend', body: { en: 'Would you recommend us?' }, style: 'nps', options: [] },
      ],
    });
    flowId = flow!.id;
    const deps = factDeps(mongo.db, flows);
    const common = { kafka, logger, fromBeginning: true, retryBackoffMs: 100 };
    consumers.push(await runClickFactsConsumer({ ...common, topic: topics.clicks, groupId: groups.clicks, deps }));
    consumers.push(await runAnswerFactsConsumer({ ...common, topic: topics.answered, groupId: groups.answered, deps }));
  }, 60_000);
  afterAll(async () => {
    for (const c of consumers) await c.stop();
    await admin?.disconnect();
    await producer?.disconnect();
    flows?.close();
    await dropTestDb(mongo);
  });

  it('a click sets clicked_at once, to the first click, and owes one entry, however often it is delivered or clicked', async () => {
    const messages = new MongoMessageRepository(mongo.db);
    await messages.claimMany([message('905550000001', 'Clk0001'), message('905550000001', 'Clk0001', 1)]);
    expect((await record(`${sharing}.905550000001`)).link_code).toBe('Clk0001');
    // The reminder repeats the first message's link and is not what a click counts.
    expect((await record(`${sharing}.905550000001.r1`)).link_code).toBeUndefined();

    const first = Date.parse('2026-11-28T10:00:00Z');
    // The same record twice (a redelivery), then a later click of the same link.
    await deliver(topics.clicks, groups.clicks, [click('Clk0001', first + 500, first), click('Clk0001', first + 500, first)]);
    await deliver(topics.clicks, groups.clicks, [click('Clk0001', first + 60_000)]);

    const r = await record(`${sharing}.905550000001`);
    expect(r.clicked_at).toEqual(new Date(first));
    expect(owed(r, 'clicked')).toEqual([{ f: 'clicked', at: new Date(first) }]);
    const reminder = await record(`${sharing}.905550000001.r1`);
    expect(reminder.clicked_at).toBeUndefined();
    expect(reminder.tally_owed ?? []).toEqual([]);
  });

  it('a message taken again after a refusal for now names the link its new text carries', async () => {
    const messages = new MongoMessageRepository(mongo.db);
    const id = `${sharing}.905550000006`;
    await messages.claimMany([message('905550000006', 'Try0001')]);
    await messages.finishMany([{ id, attempt: 1, status: 'retryable', at: new Date() }]);
    // The next attempt shortened the survey link again: its text carries another code.
    expect(await messages.claim(message('905550000006', 'Try0002'))).not.toBeNull();
    const at = Date.parse('2026-11-28T11:00:00Z');
    await deliver(topics.clicks, groups.clicks, [click('Try0001', at - 1_000), click('Try0002', at)]);
    const r = await record(id);
    expect(r.link_code).toBe('Try0002');
    expect(r.clicked_at).toEqual(new Date(at));
    expect(owed(r, 'clicked')).toHaveLength(1);
  });

  it('a record written before link_code was kept is not matched', async () => {
    await records().insertOne({ _id: `${sharing}.905550000002`, link: 'http://127.0.0.1:8081/Old0002' } as MessageRecord);
    await deliver(topics.clicks, groups.clicks, [click('Old0002', Date.now())]);
    const r = await record(`${sharing}.905550000002`);
    expect(r.clicked_at).toBeUndefined();
    expect(r.tally_owed).toBeUndefined();
  });

  it('an answer sets answered_at and the NPS score once, and owes one entry with the score', async () => {
    const messages = new MongoMessageRepository(mongo.db);
    const id = `${sharing}.905550000003`;
    await messages.claimMany([message('905550000003', 'Ans0003')]);
    const answers = [
      { questionKey: 'why', optionKeys: [], text: 'fast' },
      { questionKey: 'recommend', optionKeys: [], number: 9 },
    ];
    const event = answer({ context: context(id), answers });
    // Delivered twice (a redelivery), then another answer through the same message.
    await deliver(topics.answered, groups.answered, [event, event]);
    await deliver(topics.answered, groups.answered, [
      answer({
        context: context(id),
        answers: [{ questionKey: 'recommend', optionKeys: [], number: 2 }],
        answeredAt: new Date().toISOString(),
      }),
    ]);

    const r = await record(id);
    const at = new Date('2026-11-28T10:20:30.000Z');
    expect(r.answered_at).toEqual(at);
    expect(r.nps_score).toBe(9);
    expect(owed(r, 'answered')).toEqual([{ f: 'answered', at, nps: 9 }]);
  });

  it('a malformed event is dead-lettered, and the next one still counts', async () => {
    const messages = new MongoMessageRepository(mongo.db);
    const id = `${sharing}.905550000004`;
    await messages.claimMany([message('905550000004', 'Ans0004')]);
    const dlq = async () => (await topicEnds(admin, `${topics.answered}.dlq`)).reduce((n, p) => n + Number(p.offset), 0);
    const dlqBefore = await dlq();
    await deliver(topics.answered, groups.answered, [
      Buffer.from([0xff, 0xff, 0xff, 0xff]),
      answer({ context: context(id), answers: [{ questionKey: 'recommend', optionKeys: [], number: 6 }] }),
    ]);
    const r = await record(id);
    expect(r.nps_score).toBe(6);
    expect(owed(r, 'answered')).toHaveLength(1);
    expect((await dlq()) - dlqBefore).toBe(1);
  });

  it("an answer of another account changes nothing on this account's record", async () => {
    const messages = new MongoMessageRepository(mongo.db);
    const id = `${sharing}.905550000005`;
    await messages.claimMany([message('905550000005', 'Ans0005')]);
    await deliver(topics.answered, groups.answered, [
      answer({ accountId: uniq('other'), context: context(id), answers: [{ questionKey: 'recommend', optionKeys: [], number: 10 }] }),
    ]);
    const r = await record(id);
    expect(r.answered_at).toBeUndefined();
    expect(r.nps_score).toBeUndefined();
    expect(owed(r, 'answered')).toEqual([]);
  });
});
