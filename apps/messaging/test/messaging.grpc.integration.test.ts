import { randomUUID } from 'node:crypto';
import type { GrpcClient, RunningGrpcServer } from '@feedback/kit-grpc';
import { createKafka, createProducer, ensureTopics, type ConsumerHandle, type Producer } from '@feedback/kit-kafka';
import type { MongoHandle } from '@feedback/kit-stores';
import { SmsStatusChanged, type MessagingServiceClient } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { Consumer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDispatchConsumer } from '../src/dispatch/adapters/kafka/dispatch.consumer.js';
import type { MessagingFeatures } from '../src/features.js';
import type { SurveyChannels } from '../src/shared/ports.js';
import type { LinkShortener } from '../src/shared/ports.js';
import type { SurveyLinks } from '../src/shared/ports.js';
import { messagingDeps } from '../src/wiring.js';
import { noClicks, noLinkStates } from './fakes/memory-deps.js';
import { dropTestDb, logger, openTestDb, serveMessaging, stack, testSensitive, uniq, waitFor } from './stack.js';

/** The survey and shortener peers are faked (they are other services, not infrastructure). */
const survey: SurveyChannels & SurveyLinks = {
  createSmsChannel: async () => 'channel-1',
  activateMany: async (items) => items.map((a) => `http://api.local/s/tok-${a.phone}`),
  statesOf: noLinkStates,
};
const shortener: LinkShortener = {
  shortenMany: async (urls) => urls.map((url) => `http://go.local/${url.slice(-4)}`),
  countClicked: noClicks,
};

describe('messaging gRPC service and sms.dispatch consumer on the stack MongoDB and Kafka', () => {
  const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'messaging-test', logger });
  const topics = { dispatch: uniq('sms.dispatch'), status: uniq('sms.status'), completed: uniq('sharing.completed') };
  let mongo: MongoHandle;
  let producer: Producer;
  let server: RunningGrpcServer;
  let client: GrpcClient<MessagingServiceClient>;
  let consumer: ConsumerHandle;
  let deps: MessagingFeatures;
  const statuses: SmsStatusChanged[] = [];
  const deadLetters: string[] = [];
  let watcher: Consumer;

  beforeAll(async () => {
    mongo = await openTestDb();
    await ensureTopics(kafka, [
      { topic: topics.dispatch, numPartitions: 3 },
      { topic: topics.status },
      { topic: `${topics.dispatch}.dlq` },
    ]);
    producer = createProducer(kafka, { logger });
    await producer.connect();
    deps = messagingDeps({
      db: mongo.db,
      sensitive: testSensitive,
      producer,
      topics,
      survey,
      shortener,
      settings: { defaultRegion: 'TR', maxPhones: 100, defaultSendWindow: null },
      logger,
    });
    ({ server, client } = await serveMessaging(deps));
    consumer = await runDispatchConsumer({
      kafka,
      topic: topics.dispatch,
      groupId: uniq('dispatch'),
      deps: deps.dispatch,
      logger,
      retryBackoffMs: 100,
    });
    watcher = kafka.consumer({ groupId: uniq('watch') });
    await watcher.connect();
    await watcher.subscribe({ topics: [topics.status, `${topics.dispatch}.dlq`], fromBeginning: true });
    await watcher.run({
      eachMessage: async ({ topic, message }) => {
        if (topic === topics.status) statuses.push(SmsStatusChanged.decode(message.value!));
        else deadLetters.push(message.value!.toString());
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

  /** A campaign of the account whose template is just the link. */
  const newCampaign = async (accountId: string) =>
    (
      await client.createSmsCampaign({
        accountId,
        name: 'c',
        nodeId: 'node-1',
        nodeName: '',
        flowId: 'flow-1',
        messageTemplate: '{{link}}',
        linkTtlDays: 0,
        reminders: [],
        transliterate: false,
      })
    ).campaign;

  it('creates a campaign and a sharing, dispatches every accepted phone once through the recording provider, and reports statuses', async () => {
    const { campaign } = await client.createSmsCampaign({
      accountId: 'acc-1',
      name: 'Kasım anketi',
      nodeId: 'node-1',
      nodeName: 'İstanbul',
      flowId: 'flow-1',
      messageTemplate: 'Merhaba {{name}}, görüşünüz: {{link}}',
      linkTtlDays: 0,
      reminders: [],
      transliterate: false,
    });
    expect(campaign).toMatchObject({ accountId: 'acc-1', channelId: 'channel-1', name: 'Kasım anketi' });

    const res = await client.createSmsSharing({
      accountId: 'acc-1',
      campaignId: campaign!.id,
      phoneNumbers: ['+90 532 123 45 67', '0532 123 45 67', '05551112233', 'not a phone'],
      customAttributes: { '+90 532 123 45 67': { values: { name: 'Çağrı' } } },
      builtInResponses: {},
      requestKey: '',
      sendAt: '',
    });
    expect(res).toMatchObject({
      accepted: 2,
      rejected: 1,
      duplicate: 1,
      rejectedPhones: [{ phone: 'not a phone', reason: 'not_a_number' }],
    });

    // The recording provider holds a message once the provider has it; the recipient's status turns "sent" a write later.
    await waitFor('both SMS recorded and their recipients sent', async () => {
      const { messages } = await client.listSmsMessages({ accountId: 'acc-1', phone: '', pageSize: 10, pageToken: '' });
      const { recipients } = await client.getSmsSharing({ accountId: 'acc-1', sharingId: res.sharingId });
      return messages.length === 2 && recipients.length === 2 && recipients.every((r) => r.status === 'sent');
    });
    const first = await client.listSmsMessages({ accountId: 'acc-1', phone: '0532 123 45 67', pageSize: 10, pageToken: '' });
    expect(first.messages).toHaveLength(1);
    expect(first.messages[0]).toMatchObject({
      phone: '905321234567',
      sharingId: res.sharingId,
      text: 'Merhaba Çağrı, görüşünüz: http://go.local/4567',
      status: 'sent',
    });
    const other = await client.listSmsMessages({ accountId: 'acc-1', phone: '05551112233', pageSize: 10, pageToken: '' });
    expect(other.messages[0]!.text).toBe('Merhaba , görüşünüz: http://go.local/2233');

    const sharing = await client.getSmsSharing({ accountId: 'acc-1', sharingId: res.sharingId });
    expect(sharing.recipients.map((r) => [r.phone, r.status])).toEqual([
      ['905321234567', 'sent'],
      ['905551112233', 'sent'],
    ]);
    // The same recipients a page at a time, with the sharing as the lists show it.
    const page = { accountId: 'acc-1', sharingId: res.sharingId, status: '', phone: '', pageSize: 1, pageToken: '' };
    const firstPage = await client.listSharingRecipients(page);
    expect(firstPage.sharing).toMatchObject({ sharingId: res.sharingId, accepted: 2 });
    const second = await client.listSharingRecipients({ ...page, pageToken: firstPage.nextPageToken });
    expect([...firstPage.recipients, ...second.recipients].map((r) => [r.phone, r.status]).sort()).toEqual([
      ['905321234567', 'sent'],
      ['905551112233', 'sent'],
    ]);
    expect(second.nextPageToken).toBe('');
    await expect(client.listSharingRecipients({ ...page, accountId: 'acc-2' })).rejects.toMatchObject({ kind: 'not_found' });
    await waitFor('sms.status events', () => statuses.filter((s) => s.sharingId === res.sharingId).length === 2);

    // Kafka redelivers the events (here: published again): nothing is sent twice.
    const chunks = await mongo.db.collection('sharing_recipients').find({ sharing_id: res.sharingId }).toArray();
    const recipients = chunks.flatMap(
      (c) =>
        c.recipients as { phone: string; input: string; attributes: Record<string, string>; built_in_responses: Record<string, string> }[],
    );
    expect(recipients).toHaveLength(2);
    const again = deps.intake.dispatch.batch();
    again.add(
      recipients.map((r) => ({
        sharingId: res.sharingId,
        accountId: 'acc-1',
        campaignId: campaign!.id,
        recipient: { phone: r.phone, input: r.input, attributes: r.attributes, builtInResponses: r.built_in_responses },
        reminder: 0,
      })),
    );
    await again.send();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await mongo.db.collection('sms_outbox').countDocuments({ sharing_id: res.sharingId })).toBe(2);
  });

  it('a create repeated with the same request key (its answer lost) is the same sharing, and sends nothing twice', async () => {
    const campaign = await newCampaign('acc-3');
    const create = (requestKey: string) =>
      client.createSmsSharing({
        accountId: 'acc-3',
        campaignId: campaign!.id,
        phoneNumbers: ['05321110001', '05321110002'],
        customAttributes: {},
        builtInResponses: {},
        requestKey,
        sendAt: '',
      });
    const first = await create('sms_sharings:key-1:digest');
    const again = await create('sms_sharings:key-1:digest');
    expect(again).toEqual(first);
    const sent = () => mongo.db.collection('sms_outbox').countDocuments({ sharing_id: first.sharingId });
    await waitFor('both SMS recorded', async () => (await sent()) === 2);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await sent()).toBe(2);
    const other = await create('sms_sharings:key-2:digest');
    expect(other.sharingId).not.toBe(first.sharingId);
  });

  it('answers NOT_FOUND for another account’s campaign and sharing, INVALID_ARGUMENT naming the field', async () => {
    const campaign = await newCampaign('acc-2');
    await expect(
      client.createSmsSharing({
        accountId: 'acc-1',
        campaignId: campaign!.id,
        phoneNumbers: ['05321234567'],
        customAttributes: {},
        builtInResponses: {},
        requestKey: '',
        sendAt: '',
      }),
    ).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(
      client.createSmsSharing({
        accountId: 'acc-2',
        campaignId: 'x',
        phoneNumbers: ['05321234567'],
        customAttributes: {},
        builtInResponses: {},
        requestKey: '',
        sendAt: '',
      }),
    ).rejects.toMatchObject({
      kind: 'invalid',
      fields: { campaign_id: 'must be a UUID' },
    });
    const tooMany = Array.from({ length: 101 }, (_, i) => `0532123${String(i).padStart(4, '0')}`);
    await expect(
      client.createSmsSharing({
        accountId: 'acc-2',
        campaignId: campaign!.id,
        phoneNumbers: tooMany,
        customAttributes: {},
        builtInResponses: {},
        requestKey: '',
        sendAt: '',
      }),
    ).rejects.toMatchObject({
      kind: 'invalid',
    });
    await expect(client.getSmsSharing({ accountId: 'acc-2', sharingId: randomUUID() })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('dead-letters an undecodable event at once', async () => {
    await producer.publish(topics.dispatch, [{ key: 'x', value: 'not protobuf at all', eventId: randomUUID() }]);
    await waitFor('the dead letter', () => deadLetters.includes('not protobuf at all'));
  });
});
