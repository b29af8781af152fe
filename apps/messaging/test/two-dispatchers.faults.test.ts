import { connectMongo, type MongoHandle } from '@feedback/kit-stores';
import { createKafka } from '@feedback/kit-kafka';
import type { Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignmentOf,
  createDispatchTopic,
  DISPATCH_PARTITIONS,
  groupAssignment,
  outboxPerPhone,
  partitionsAt,
  SESSION_TIMEOUT_MS,
  sharedEnv,
  shareTo,
  stored,
} from './dispatchers.js';
import { logger, sleep, stack, uniq, waitFor } from './helpers.js';
import { freePort, startMessagingProcess, type MessagingProcess } from './messaging-process.js';

const PHONES = 5_000;
const phones = Array.from({ length: PHONES }, (_, i) => `0532${String(1_000_000 + i)}`);

/*
 * Two dispatchers share one sms.dispatch topic (6 partitions) and consumer group; one of them is
 * killed with SIGKILL while both dispatch a 5,000-phone sharing. The group gives the dead one's
 * partitions to the survivor once its session (SMS_DISPATCH_SESSION_TIMEOUT_MS, 10 s here) runs
 * out, and the survivor finishes the sharing: every phone in the outbox exactly once.
 */
describe('two dispatchers, one killed with SIGKILL mid-dispatch', () => {
  const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'messaging-two-dispatchers-test', logger });
  const dbName = uniq('messaging_2d_test');
  const env = sharedEnv(dbName);
  const topic = env.SMS_DISPATCH_TOPIC!;
  const group = env.SMS_DISPATCH_GROUP!;
  let mongo: MongoHandle;
  let admin: Admin;
  const procs: MessagingProcess[] = [];

  const start = async () => {
    const proc = await startMessagingProcess(
      { ...env, GRPC_PORT: String(await freePort()), DLR_PORT: String(await freePort()), METRICS_PORT: String(await freePort()) },
      60_000,
    );
    procs.push(proc);
    return proc;
  };

  beforeAll(async () => {
    mongo = await connectMongo({ url: stack.mongo_url, dbName, logger });
    admin = kafka.admin();
    await admin.connect();
    await createDispatchTopic(admin, topic);
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    await admin?.deleteTopics({ topics: [topic, env.SMS_STATUS_TOPIC!, env.FILE_UPLOADED_TOPIC!] }).catch(() => undefined);
    await admin?.disconnect();
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it("the survivor takes the dead one's partitions over: all 5,000 in the outbox, each phone once", { timeout: 240_000 }, async () => {
    const [a, b] = await Promise.all([start(), start()]);
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
    const sharingId = await shareTo(a!, uniq('acc'), phones);
    const accepted = Date.now() - t0;
    const outbox = () => mongo.db.collection('sms_outbox').countDocuments({ sharing_id: sharingId });

    // Under way on both: each has fetched its partitions, and some messages are out.
    let owned: [Set<number>, Set<number>] = [new Set(), new Set()];
    await waitFor(
      'both dispatchers working on their partitions',
      async () => {
        owned = [await partitionsAt(a!.metricsUrl, topic), await partitionsAt(b!.metricsUrl, topic)];
        return owned[0].size > 0 && owned[1].size > 0 && (await outbox()) >= 200;
      },
      90_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message} (${[...owned[0]]} / ${[...owned[1]]})\n${a!.output()}\n${b!.output()}`);
    });
    const [victim, survivor] = [b!, a!];
    const victimPartitions = await assignmentOf(admin, group, topic, owned[1]);
    expect([...owned[0]].filter((p) => victimPartitions.has(p))).toEqual([]);
    const tKill = Date.now();
    await victim.kill('SIGKILL');
    const atKill = await outbox();
    expect(atKill, 'the kill came after the last message: nothing was left to test').toBeLessThan(PHONES * 0.8);

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
        if (!firstBatchMs && [...(await partitionsAt(survivor.metricsUrl, topic))].some((p) => victimPartitions.has(p))) {
          firstBatchMs = Date.now() - tKill;
        }
        return groupMs > 0 && firstBatchMs > 0;
      },
      SESSION_TIMEOUT_MS + 50_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${survivor.output()}`);
    });
    // The session runs from the member's last heartbeat (kafkajs sends them between slices of a
    // batch, so it may be seconds before the kill); then the survivor's next heartbeat learns of
    // the rebalance.
    expect(groupMs).toBeLessThan(SESSION_TIMEOUT_MS + 15_000);

    await waitFor(`all ${PHONES} in the outbox (${atKill} at the kill)`, async () => (await outbox()) >= PHONES, 150_000).catch(
      (err: Error) => {
        throw new Error(`${err.message}\n${survivor.output()}`);
      },
    );
    const total = Date.now() - t0;
    await sleep(1_000); // a second copy would come right after the first
    const perPhone = await outboxPerPhone(mongo, sharingId);
    expect(perPhone.size).toBe(PHONES);
    expect([...perPhone].filter(([, n]) => n !== 1)).toEqual([]);
    expect(phones.filter((p) => !perPhone.has(stored(p)))).toEqual([]);
    const records = mongo.db.collection('sms_messages');
    expect(await records.countDocuments({ sharing_id: sharingId })).toBe(PHONES);
    expect(await records.countDocuments({ sharing_id: sharingId, status: { $ne: 'sent' } })).toBe(0);
    // Claims the dead one left "sending", taken over by the survivor (the outbox absorbs a repeat).
    const resumed = await records.countDocuments({ sharing_id: sharingId, attempts: { $gt: 1 } });

    const line =
      `two dispatchers: ${PHONES} phones, ${DISPATCH_PARTITIONS} partitions, session ${SESSION_TIMEOUT_MS / 1000} s; ` +
      `accepted in ${(accepted / 1000).toFixed(1)} s; killed at ${atKill} in the outbox holding partitions ${[...victimPartitions].sort()}; ` +
      `group reassigned ${(groupMs / 1000).toFixed(1)} s after the kill, survivor's first batch of them ${(firstBatchMs / 1000).toFixed(1)} s; ` +
      `all ${PHONES} delivered ${(total / 1000).toFixed(1)} s after the request; each phone once; ${resumed} claims resumed`;
    console.log(line);
  });
});
