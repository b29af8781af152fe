import { connectMongo, type MongoHandle } from '@feedback/kit-stores';
import { createKafka } from '@feedback/kit-kafka';
import type { Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignmentOf,
  checkAtMostOnce,
  claimedOn,
  createDispatchTopic,
  DISPATCH_PARTITIONS,
  groupAssignment,
  handled,
  kannelProviderJson,
  outboxPerPhone,
  partitionsAt,
  phoneBlock,
  SESSION_TIMEOUT_MS,
  settled,
  sharedEnv,
  shareTo,
  stored,
} from './dispatchers.js';
import { ensureKannel, logger, sleep, stack, uniq, waitFor } from './helpers.js';
import { freePort, startMessagingProcess, type MessagingProcess } from './messaging-process.js';

/*
 * Two dispatchers share one sms.dispatch topic (6 partitions) and consumer group; one of them is
 * killed with SIGKILL while both dispatch a sharing. The group gives the dead one's partitions to
 * the survivor once its session (SMS_DISPATCH_SESSION_TIMEOUT_MS, 10 s here) runs out, and the
 * survivor finishes the sharing. With the outbox every phone is recorded exactly once; with the
 * http provider in front of Kannel no phone reaches fakesmsc twice, and what the dead one had
 * claimed but not sent stays "sending".
 */
describe('two dispatchers, one killed with SIGKILL mid-dispatch', () => {
  const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'messaging-two-dispatchers-test', logger });
  let admin: Admin;
  const procs: MessagingProcess[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await admin?.disconnect();
  });

  /** Two dispatchers, a sharing of `phones`, one killed; answers what the summary line needs. */
  async function killOneMidDispatch(
    phones: string[],
    providerEnv: (dlrUrl: string) => Record<string, string>,
    /** Also waited for before the kill (10 s at most), polled every 50 ms. */
    killWhen?: (mongo: MongoHandle, sharingId: string, victimPartitions: Set<number>) => Promise<boolean>,
  ) {
    const dbName = uniq('messaging_2d_test');
    const mongo: MongoHandle = await connectMongo({ url: stack.mongo_url, dbName, logger });
    cleanups.push(async () => (await mongo.db.dropDatabase().catch(() => undefined), await mongo.close()));
    const env = sharedEnv(dbName);
    const topic = env.SMS_DISPATCH_TOPIC!;
    const group = env.SMS_DISPATCH_GROUP!;
    await createDispatchTopic(admin, topic);
    cleanups.push(() =>
      admin.deleteTopics({
        topics: [topic, `${topic}.dlq`, env.SMS_STATUS_TOPIC!, env.FILE_UPLOADED_TOPIC!, `${env.FILE_UPLOADED_TOPIC!}.dlq`],
      }),
    );
    // Delivery reports go to the survivor's listener (the same DLR_SECRET signs them all).
    const dlrPorts = [await freePort(), await freePort()];
    const start = async (i: number) => {
      const proc = await startMessagingProcess(
        {
          ...env,
          ...providerEnv(`http://127.0.0.1:${dlrPorts[0]}`),
          GRPC_PORT: String(await freePort()),
          DLR_PORT: String(dlrPorts[i]),
          METRICS_PORT: String(await freePort()),
        },
        60_000,
      );
      procs.push(proc);
      return proc;
    };
    const [survivor, victim] = await Promise.all([start(0), start(1)]);
    // Both members in the group before the events exist, so neither takes everything first.
    await waitFor(
      'both dispatchers in the group, 3 partitions each',
      async () => {
        const g = await groupAssignment(admin, group, topic);
        return g.state === 'Stable' && g.members.length === 2 && g.members.every((m) => m.length === DISPATCH_PARTITIONS / 2);
      },
      60_000,
    );

    const t0 = Date.now();
    const sharingId = await shareTo(survivor!, uniq('acc'), phones);
    const accepted = Date.now() - t0;

    // Under way on both: each has got a batch of its partitions, and some messages are out.
    let owned: [Set<number>, Set<number>] = [new Set(), new Set()];
    await waitFor(
      'both dispatchers working on their partitions',
      async () => {
        owned = [await partitionsAt(survivor!.metricsUrl, topic), await partitionsAt(victim!.metricsUrl, topic)];
        return owned[0].size > 0 && owned[1].size > 0 && (await handled(mongo, sharingId)) >= Math.min(200, phones.length / 10);
      },
      90_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message} (${[...owned[0]]} / ${[...owned[1]]})\n${survivor!.output()}\n${victim!.output()}`);
    });
    const victimPartitions = await assignmentOf(admin, group, topic, owned[1]);
    expect([...owned[0]].filter((p) => victimPartitions.has(p))).toEqual([]);

    if (killWhen) await waitFor('the moment to kill', () => killWhen(mongo, sharingId, victimPartitions), 10_000).catch(() => undefined);
    const tKill = Date.now();
    await victim!.kill('SIGKILL');
    const atKill = await handled(mongo, sharingId);
    // Claims of the dead one's partitions: its hand-overs in flight.
    const claimedAtKill = await claimedOn(mongo, sharingId, victimPartitions);
    expect(atKill, 'the kill came after the last message: nothing was left to test').toBeLessThan(phones.length * 0.8);

    // Takeover, seen two ways: the coordinator gives all partitions to the one member left, and
    // the survivor gets its first batch of a partition the dead one held.
    let groupMs = 0;
    let firstBatchMs = 0;
    await waitFor(
      "the survivor working on the dead one's partitions",
      async () => {
        if (!groupMs) {
          const g = await groupAssignment(admin, group, topic);
          if (g.state === 'Stable' && g.members.length === 1 && g.members[0]!.length === DISPATCH_PARTITIONS) groupMs = Date.now() - tKill;
        }
        if (!firstBatchMs && [...(await partitionsAt(survivor!.metricsUrl, topic))].some((p) => victimPartitions.has(p))) {
          firstBatchMs = Date.now() - tKill;
        }
        return groupMs > 0 && firstBatchMs > 0;
      },
      SESSION_TIMEOUT_MS + 50_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${survivor!.output()}`);
    });
    // The session runs from the member's last heartbeat (kafkajs sends them between slices of a
    // batch, so it may be seconds before the kill); then the survivor's next heartbeat learns of
    // the rebalance and it rejoins once its batch in hand is done.
    expect(groupMs).toBeLessThan(SESSION_TIMEOUT_MS + 15_000);

    await settled(mongo, sharingId, phones.length, 150_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${survivor!.output()}`);
    });
    const total = Date.now() - t0 - 3_000; // settled() waits 3 s of quiet
    const took =
      `accepted in ${(accepted / 1000).toFixed(1)} s; killed at ${atKill} handled, holding partitions ${[...victimPartitions].sort()}; ` +
      `group reassigned ${(groupMs / 1000).toFixed(1)} s after the kill, survivor's first batch of them ${(firstBatchMs / 1000).toFixed(1)} s; ` +
      `all ${phones.length} handled ${(total / 1000).toFixed(1)} s after the request`;
    return { mongo, sharingId, took, claimedAtKill };
  }

  it(
    "outbox: the survivor takes the dead one's partitions over, all 5,000 in the outbox, each phone once",
    { timeout: 240_000 },
    async () => {
      const phones = phoneBlock('532', 5_000);
      const { mongo, sharingId, took } = await killOneMidDispatch(phones, () => ({ SMS_PROVIDER: 'outbox' }));
      await sleep(1_000); // a second copy would come right after the first
      const perPhone = await outboxPerPhone(mongo, sharingId);
      expect(perPhone.size).toBe(phones.length);
      expect([...perPhone].filter(([, n]) => n !== 1)).toEqual([]);
      expect(phones.filter((p) => !perPhone.has(stored(p)))).toEqual([]);
      const records = mongo.db.collection('sms_messages');
      expect(await records.countDocuments({ sharing_id: sharingId, status: { $ne: 'sent' } })).toBe(0);
      // Claims the dead one left "sending", taken over by the survivor (the outbox absorbs a repeat).
      const resumed = await records.countDocuments({ sharing_id: sharingId, attempts: { $gt: 1 } });
      console.log(
        `two dispatchers (outbox): ${phones.length} phones, ${DISPATCH_PARTITIONS} partitions, session ${SESSION_TIMEOUT_MS / 1000} s; ${took}; ` +
          `each phone once in the outbox; ${resumed} claims resumed`,
      );
    },
  );

  it(
    "http provider in front of Kannel: no phone at fakesmsc twice, the dead one's claims never handed over again",
    { timeout: 240_000 },
    async () => {
      const kannel = ensureKannel();
      cleanups.push(async () => kannel.stop());
      const k = kannel.settings;
      const phones = phoneBlock('535', 1_500);
      const { mongo, sharingId, took, claimedAtKill } = await killOneMidDispatch(
        phones,
        (dlrUrl) => ({ SMS_PROVIDER: 'http', SMS_HTTP_PROVIDER: kannelProviderJson(k), DLR_PUBLIC_URL: dlrUrl }),
        // Mid-hand-over: the dead one's claims are what is at stake.
        async (db, id, partitions) => (await claimedOn(db, id, partitions)).length > 0,
      );
      const r = await checkAtMostOnce(mongo, sharingId, phones, k.KANNEL_FAKESMSC_LOG);
      expect(r.twice).toEqual([]);
      expect(r.sent + r.sending + r.unknown).toBe(phones.length);
      expect(r.received).toBeGreaterThanOrEqual(r.sent);
      expect(r.received).toBeLessThanOrEqual(phones.length);
      // Kannel is not idempotent: no claim is ever taken again.
      expect(await mongo.db.collection('sms_messages').countDocuments({ sharing_id: sharingId, attempts: { $gt: 1 } })).toBe(0);
      // The dead one's claims: still "sending" (its request never reached Kannel, or its answer was
      // lost), or delivered (Kannel had it: its delivery report reached the survivor's listener).
      const ofClaimed = (what: (p: string) => boolean) => claimedAtKill.filter(what).length;
      const stillSending = ofClaimed((p) => r.statuses.get(p) === 'sending');
      const unsent = ofClaimed((p) => r.statuses.get(p) === 'sending' && !r.perPhone.has(p));
      const reported = ofClaimed((p) => r.statuses.get(p) === 'delivered' || r.statuses.get(p) === 'sent');
      console.log(
        `two dispatchers (kannel): ${phones.length} phones, ${DISPATCH_PARTITIONS} partitions, session ${SESSION_TIMEOUT_MS / 1000} s; ${took}; ` +
          `${r.received} at fakesmsc, none twice, no claim taken twice; the dead one had ${claimedAtKill.length} claimed at the kill: ` +
          `${stillSending} left "sending" (${unsent} of them never reached fakesmsc: claimed-but-unsent), ${reported} reached Kannel before ` +
          `the kill and were marked delivered by their report; overall ${r.sent} sent or delivered, ${r.sending} sending, ${r.unknown} unknown`,
      );
    },
  );
});
