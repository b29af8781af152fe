import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGrpcClient } from '@feedback/kit-grpc';
import { createKafka, createProducer, runConsumer, type ConsumedMessage, type ConsumerHandle, type Producer } from '@feedback/kit-kafka';
import { connectMongo, type MongoHandle } from '@feedback/kit-stores';
import { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import { SmsDispatch } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionOf, phoneBlock } from './dispatchers.js';
import { freePort, processEnv, startMessagingProcess, type MessagingProcess } from './messaging-process.js';
import { logger, stack, uniq, waitFor } from './stack.js';

/*
 * Fair dispatch between accounts (docs/decisions.md "Fair dispatch between accounts"), on a
 * private messaging process (own database, topics and groups; the recording provider): account A
 * has a 5,000-phone sharing under way and a poison event (attributes the survey service refuses)
 * queued on the very partition of account B's phone; B's one-phone sharing must not wait for
 * either. Ordering facts, not times, are asserted; the delays are printed (docs/performance.md).
 */
describe("one account's large sharing and poison event do not hold back another account's SMS", () => {
  const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'messaging-fair-dispatch-test', logger });
  const dbName = uniq('messaging_fair_test');
  const env: Record<string, string> = {
    ...processEnv(dbName),
    SMS_DISPATCH_MAX_ATTEMPTS: '6',
    // Accounts may have their own provider (the slow one below).
    SMS_PROVIDER_SECRETS_KEY: randomBytes(32).toString('base64'),
  };
  const priorityTopic = `${env.SMS_DISPATCH_TOPIC}.priority`;
  let mongo: MongoHandle;
  let admin: Admin;
  let producer: Producer;
  let dlq: ConsumerHandle | undefined;
  let proc: MessagingProcess | undefined;
  const deadLetters: ConsumedMessage[] = [];
  let slow: Server | undefined;

  beforeAll(async () => {
    mongo = await connectMongo({ url: stack.mongo_url, dbName, logger });
    admin = kafka.admin();
    await admin.connect();
    producer = createProducer(kafka, { logger });
    await producer.connect();
    proc = await startMessagingProcess({ ...env, GRPC_PORT: String(await freePort()), DLR_PORT: String(await freePort()) }, 60_000);
  }, 90_000);
  afterAll(async () => {
    slow?.close();
    slow?.closeAllConnections();
    await proc?.kill('SIGKILL');
    await dlq?.stop();
    await producer?.disconnect();
    const topics = [env.SMS_DISPATCH_TOPIC!, priorityTopic, env.SMS_STATUS_TOPIC!, env.SHARING_COMPLETED_TOPIC!, env.FILE_UPLOADED_TOPIC!];
    await admin?.deleteTopics({ topics: [...topics, ...topics.map((t) => `${t}.dlq`)] }).catch(() => undefined);
    await admin?.disconnect();
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  /** A flow and an SMS campaign of the account on it; answers the campaign id. */
  async function campaignOf(account: string): Promise<string> {
    const flows = createGrpcClient(FlowServiceClient, stack.grpc.flow, { deadlineMs: 30_000 });
    const { flow } = await flows.createFlow({
      accountId: account,
      name: 'Fair dispatch',
      questions: [{ key: 'nps', body: { tr: 'Tavsiye eder misiniz?' }, style: 'nps', options: [] }],
    });
    flows.close();
    const { campaign } = await proc!.client.createSmsCampaign({
      accountId: account,
      name: 'Fair dispatch',
      nodeId: randomUUID(),
      nodeName: 'Şube',
      flowId: flow!.id,
      messageTemplate: 'Görüşünüz: {{link}}',
      linkTtlDays: 0,
      reminders: [],
      transliterate: false,
    });
    return campaign!.id;
  }

  const share = async (account: string, campaignId: string, phones: string[], sendAt = '') => {
    const res = await proc!.client.createSmsSharing(
      { accountId: account, requestKey: '', sendAt, campaignId, phoneNumbers: phones, customAttributes: {}, builtInResponses: {} },
      { deadlineMs: 120_000 },
    );
    expect(res.accepted).toBe(phones.length);
    return { id: res.sharingId, acceptedAt: Date.now() };
  };
  const outbox = () => mongo.db.collection<{ sharing_id: string; phone: string; created_at: Date }>('sms_outbox');
  /** When the sharing's one message was handed to the (recording) provider. */
  const handedOver = async (sharingId: string) => {
    let at: Date | undefined;
    await waitFor(
      `the message of sharing ${sharingId} handed over`,
      async () => (at = (await outbox().findOne({ sharing_id: sharingId }))?.created_at) !== undefined,
      60_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${proc!.output()}`);
    });
    return at!.getTime();
  };

  it(
    'B is handed over while A still has most of its partition queued; the poison event is dead-lettered at once and its recipient failed',
    { timeout: 150_000 },
    async () => {
      const [a, b] = [uniq('acc-a'), uniq('acc-b')];
      const [campaignA, campaignB] = await Promise.all([campaignOf(a), campaignOf(b)]);
      const bPhone = phoneBlock('533', 1)[0]!;
      const bStored = `9${bPhone}`;

      // B alone first: the time its one phone takes with nothing ahead of it.
      const solo = await share(b, campaignB, [bPhone]);
      const soloMs = (await handedOver(solo.id)) - solo.acceptedAt;

      dlq = await runConsumer({
        kafka,
        logger,
        groupId: uniq('fair-dlq'),
        topics: [`${priorityTopic}.dlq`],
        fromBeginning: true,
        handler: async (msg) => void deadLetters.push(msg),
      });

      // A's poison: an event of a real recipient (a sharing due tomorrow, so nothing else of it is
      // queued) whose attribute name the survey service refuses, keyed like B's phone: the same partition.
      const later = new Date(Date.now() + 86_400_000).toISOString();
      const poisoned = await share(a, campaignA, [bPhone], later);
      const poison = SmsDispatch.encode({
        sharingId: poisoned.id,
        accountId: a,
        campaignId: campaignA,
        phone: bStored,
        inputPhone: bPhone,
        customAttributes: { $x: '1' },
        builtInResponses: {},
        reminder: 0,
      }).finish();
      await producer.publish(priorityTopic, [{ key: bStored, value: Buffer.from(poison), eventId: `poison-${randomUUID()}` }]);

      // A's 5,000 phones, then B's one right after.
      const aPhones = phoneBlock('532', 5_000);
      const big = await share(a, campaignA, aPhones);
      const after = await share(b, campaignB, [bPhone]);
      const bAt = await handedOver(after.id);
      const aDone = await outbox().countDocuments({ sharing_id: big.id, created_at: { $lte: new Date(bAt) } });
      // A's events ahead of B's on the partition B's phone is keyed to (where B's event would have queued).
      const samePartition = new Set(aPhones.map((p) => `9${p}`).filter((p) => partitionOf(p) === partitionOf(bStored)));
      const aDoneThere = (
        await outbox()
          .find({ sharing_id: big.id, created_at: { $lte: new Date(bAt) } })
          .toArray()
      ).filter((m) => samePartition.has(m.phone)).length;
      logger.info({ soloMs, afterMs: bAt - after.acceptedAt, aDone, aDoneThere, samePartition: samePartition.size }, 'fair dispatch');
      console.log(
        `fair dispatch: B alone ${soloMs} ms; B behind A's 5,000 and a poison event ${bAt - after.acceptedAt} ms ` +
          `(A had ${aDone} of 5,000 handed over, ${aDoneThere} of the ${samePartition.size} on B's partition)`,
      );
      expect(aDoneThere, "B waited for A's events of its partition").toBeLessThan(samePartition.size / 2);
      expect(aDone).toBeLessThan(aPhones.length);

      // The poison: dead-lettered after one attempt, its recipient failed with the reason (so A's sharing completes).
      await waitFor('the poison event dead-lettered', () => deadLetters.length === 1, 30_000);
      expect(deadLetters[0]!.headers['x-attempts']).toBe('1');
      expect(deadLetters[0]!.headers['x-error-message']).toMatch(/custom_attributes\.\$x/);
      const { recipients } = await proc!.client.getSmsSharing({ accountId: a, sharingId: poisoned.id });
      expect(recipients.map((r) => r.status)).toEqual(['failed']);
    },
  );

  it(
    "B is handed over while A's own provider, which has not answered, still holds A's message on B's partition",
    { timeout: 150_000 },
    async () => {
      // A's provider holds every request until the test releases it (or 60 s pass): an ordering
      // fact, not a race against a delay. On a loaded machine the survey and shortener calls of
      // A's and B's events alone may take seconds, which a provider answering after a fixed 10 s
      // could not tell apart from B waiting for it.
      const HOLD_MS = 60_000;
      let requestedAt: number | undefined;
      let answeredAt: number | undefined;
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      slow = createServer((_req, res) => {
        requestedAt ??= Date.now();
        void Promise.race([released, new Promise((r) => setTimeout(r, HOLD_MS))]).then(() => {
          answeredAt = Date.now();
          res.end('OK');
        });
      });
      slow.listen(0, '127.0.0.1');
      await once(slow, 'listening');
      const [a, b] = [uniq('acc-slow'), uniq('acc-b')];
      const [campaignA, campaignB] = await Promise.all([campaignOf(a), campaignOf(b)]);
      await proc!.client.putSmsProvider({
        accountId: a,
        configJson: JSON.stringify({
          url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/send`,
          method: 'GET',
          sender: 'SLOW',
          query: { to: '{to}', text: '{text}' },
          timeout_ms: 90_000,
        }),
      });
      // The same phone for both: their events are keyed alike, so they share a partition of the lane.
      const phone = phoneBlock('534', 1)[0]!;
      const held = await share(a, campaignA, [phone]);
      const after = await share(b, campaignB, [phone]);
      const bAt = await handedOver(after.id);
      console.log(`fair dispatch: B behind A's message at a provider that has not answered: ${bAt - after.acceptedAt} ms`);
      // A's event is ahead of B's on the partition, so A's request reached its provider first; B went
      // out while that request was still unanswered.
      expect(requestedAt, "A's message handed to its provider before B's").toBeDefined();
      expect(answeredAt, "B waited for A's provider").toBeUndefined();
      release();
      // A's message is not lost: recorded sent once its provider answers.
      await waitFor(
        "A's message sent",
        async () => (await proc!.client.getSmsSharing({ accountId: a, sharingId: held.id })).recipients[0]?.status === 'sent',
        30_000,
      );
    },
  );
});
