import { createKafka } from '@feedback/kit-kafka';
import { connectMongo, type MongoHandle } from '@feedback/kit-stores';
import type { Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCampaignTallies, recountCampaign } from '../src/reports/adapters/mongo/tally-recount.js';
import { caughtUp, topicEnds } from './file-service.js';
import { logger, sleep, stack, uniq, waitFor } from './stack.js';
import { freePort, processEnv, shareTo, startMessagingProcess, type MessagingProcess } from './messaging-process.js';

const PHONES = 300;
const phones = Array.from({ length: PHONES }, (_, i) => `0532${String(1_000_000 + i)}`);

/*
 * Exactly once at the provider, across a crash: a private messaging process (own database,
 * topics and groups; the recording provider (SMS_PROVIDER=outbox); the stack's survey and shortener services) is killed
 * with SIGKILL while it dispatches a sharing, then started again. Then the whole topic is
 * redelivered (the group's offsets reset to the beginning) and it is started once more.
 */
describe('a sharing survives kill -9 and redelivery: every phone reaches the provider exactly once', () => {
  const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'messaging-exactly-once-test', logger });
  const dbName = uniq('messaging_eo_test');
  // The recording provider (SMS_PROVIDER=outbox), an idempotent one.
  // The campaign report's relay every 200 ms: its lease (5 s) passes to the restarted process soon after the kill.
  const env: Record<string, string> = { ...processEnv(dbName), REPORT_TALLY_INTERVAL_MS: '200' };
  const account = uniq('acc');
  let mongo: MongoHandle;
  let admin: Admin;
  let proc: MessagingProcess | undefined;
  let sharingId: string;
  const startups: number[] = [];

  const start = async () => {
    const t0 = Date.now();
    proc = await startMessagingProcess({ ...env, GRPC_PORT: String(await freePort()), DLR_PORT: String(await freePort()) }, 60_000);
    startups.push(Date.now() - t0);
    return proc;
  };
  const recorded = () => mongo.db.collection('sms_outbox');
  const perPhone = async () =>
    recorded()
      .aggregate<{ _id: string; n: number }>([{ $match: { sharing_id: sharingId } }, { $group: { _id: '$phone', n: { $sum: 1 } } }])
      .toArray();

  beforeAll(async () => {
    mongo = await connectMongo({ url: stack.mongo_url, dbName, logger });
    admin = kafka.admin();
    await admin.connect();
  });
  afterAll(async () => {
    logger.info({ startups }, 'messaging start-up times (ms)');
    await proc?.kill('SIGKILL');
    await admin?.disconnect();
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  async function expectEachPhoneOnce() {
    const counts = await perPhone();
    expect(counts).toHaveLength(PHONES);
    expect(counts.filter((c) => c.n !== 1)).toEqual([]);
    expect(await recorded().countDocuments({ sharing_id: sharingId })).toBe(PHONES);
    expect(await mongo.db.collection('sms_messages').countDocuments({ sharing_id: sharingId, status: { $ne: 'sent' } })).toBe(0);
  }

  /** The campaign report's counters, once no record owes them an entry, equal a recount of the records. */
  async function expectCountersEqualRecount() {
    const owing = { 'tally_owed.at': { $gte: new Date(0) } };
    const left = async () =>
      (await mongo.db.collection('sms_messages').countDocuments(owing)) +
      (await mongo.db.collection('sharings').countDocuments(owing)) +
      (await mongo.db.collection('tally_journal').countDocuments());
    const t0 = Date.now();
    await waitFor('every fact relayed into the counters', async () => (await left()) === 0, 30_000);
    logger.info({ waitedMs: Date.now() - t0 }, 'the counters caught up with the records');
    const sharing = await mongo.db.collection<{ _id: string; campaign_id: string }>('sharings').findOne({ _id: sharingId });
    const counted = await readCampaignTallies(mongo.db, sharing!.campaign_id);
    expect(counted).toEqual(await recountCampaign(mongo.db, account, sharing!.campaign_id));
    expect(counted.sharings.get(sharingId)).toMatchObject({ recipients: PHONES, sent: PHONES });
  }

  it('kill -9 mid-dispatch, restart: all 300 dispatched, each phone recorded once', { timeout: 240_000 }, async () => {
    const first = await start();
    // All PHONES accepted, none rejected or duplicate (else it throws).
    sharingId = await shareTo(first, account, phones, { name: 'Exactly once', messageTemplate: 'Merhaba, görüşünüz: {{link}}' });

    await waitFor('some messages recorded', async () => (await recorded().countDocuments()) >= 15, 45_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${first.output()}`);
    });
    await first.kill('SIGKILL');
    const atKill = await recorded().countDocuments();
    const claimedAtKill = await mongo.db.collection('sms_messages').countDocuments({ status: 'sending' });
    expect(atKill, 'the kill came after the last message: nothing was left to test').toBeLessThan(PHONES);

    const second = await start();
    await waitFor(
      `all ${PHONES} recorded (${atKill} at the kill)`,
      async () => (await recorded().countDocuments()) >= PHONES,
      120_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${second.output()}`);
    });
    await sleep(500); // a duplicate would arrive right after the last first one
    await expectEachPhoneOnce();
    await expectCountersEqualRecount();
    const resumed = await mongo.db.collection('sms_messages').countDocuments({ attempts: { $gt: 1 } });
    logger.info({ atKill, claimedAtKill, resumed }, 'recorded count and claims left "sending" at the kill; claims resumed after it');
  });

  it(
    'all dispatch events redelivered (group offsets reset to the beginning while stopped): still exactly once',
    { timeout: 90_000 },
    async () => {
      expect(sharingId).toMatch(/^[0-9a-f-]{36}$/);
      await proc!.kill('SIGTERM');
      await waitFor(
        'the dispatch group to be empty',
        async () => {
          const [group] = (await admin.describeGroups([env.SMS_DISPATCH_GROUP!])).groups;
          return group?.state === 'Empty' || group?.state === 'Dead';
        },
        40_000,
      );
      await admin.resetOffsets({ groupId: env.SMS_DISPATCH_GROUP!, topic: env.SMS_DISPATCH_TOPIC!, earliest: true });
      const ends = await topicEnds(admin, env.SMS_DISPATCH_TOPIC!);
      expect(ends.reduce((n, e) => n + Number(e.offset), 0)).toBe(PHONES);

      await start();
      await waitFor(
        'the group to consume every event again',
        () => caughtUp(admin, env.SMS_DISPATCH_GROUP!, env.SMS_DISPATCH_TOPIC!, ends),
        60_000,
      );
      await expectEachPhoneOnce();
      await expectCountersEqualRecount();
    },
  );
});
