import { connectMongo, type MongoHandle } from '@feedback/kit-stores';
import { createKafka } from '@feedback/kit-kafka';
import type { Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignmentOf,
  counterAt,
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
import { createIsolatedHost, removeLeftovers, type IsolatedHost } from './netns.js';

const PHONES = 5_000;
const phones = Array.from({ length: PHONES }, (_, i) => `0533${String(1_000_000 + i)}`);
const portOf = (addr: string) => Number(addr.slice(addr.lastIndexOf(':') + 1));

/*
 * A partition, not a crash: the second dispatcher runs on a host of its own (a network namespace
 * behind a veth, netns.ts), reaching Kafka, MongoDB and the survey and shortener services through
 * forwarders across that veth. Mid-dispatch the link is cut (the veth goes down: packets are
 * dropped, connections hang, nothing is reset), so the cut-off replica lives on and still holds
 * the batches it was working on. Its partitions must move to the other dispatcher once its session
 * runs out; when the link comes back, whatever it still writes must not send a phone twice.
 */
describe('two dispatchers, one cut off by a network partition mid-dispatch, then healed', () => {
  const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'messaging-partition-test', logger });
  const dbName = uniq('messaging_part_test');
  const env = sharedEnv(dbName);
  const topic = env.SMS_DISPATCH_TOPIC!;
  const group = env.SMS_DISPATCH_GROUP!;
  let mongo: MongoHandle;
  let admin: Admin;
  let host: IsolatedHost | undefined;
  const procs: MessagingProcess[] = [];

  beforeAll(async () => {
    const leftovers = removeLeftovers();
    if (leftovers.length > 0) logger.warn({ leftovers }, 'removed namespaces and veths of an earlier run');
    mongo = await connectMongo({ url: stack.mongo_url, dbName, logger });
    admin = kafka.admin();
    await admin.connect();
    await createDispatchTopic(admin, topic);
    const ports = [
      ...stack.kafka_brokers.map(portOf),
      Number(new URL(stack.mongo_url).port || 27017),
      portOf(stack.grpc.survey),
      portOf(stack.grpc.shortener),
      portOf(stack.grpc.file),
    ];
    host = await createIsolatedHost(ports);
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    await host?.destroy();
    await admin?.deleteTopics({ topics: [topic, env.SMS_STATUS_TOPIC!, env.FILE_UPLOADED_TOPIC!] }).catch(() => undefined);
    await admin?.disconnect();
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it("the cut-off dispatcher's partitions move to the other one; healed, it sends nothing twice", { timeout: 240_000 }, async () => {
    const ports = async () => ({
      GRPC_PORT: String(await freePort()),
      DLR_PORT: String(await freePort()),
      METRICS_PORT: String(await freePort()),
    });
    const [a, b] = await Promise.all([
      startMessagingProcess({ ...env, ...(await ports()) }, 60_000),
      // Inside the namespace: listening on its address, so the test reaches its gRPC and metrics.
      startMessagingProcess({ ...env, ...(await ports()), GRPC_HOST: '0.0.0.0', METRICS_HOST: '0.0.0.0', LOG_LEVEL: 'info' }, 60_000, host),
    ]);
    procs.push(a, b);
    await waitFor(
      'both dispatchers in the group, 3 partitions each',
      async () => {
        const g = await groupAssignment(admin, group, topic);
        return g.state === 'Stable' && g.members.length === 2 && g.members.every((m) => m.length === DISPATCH_PARTITIONS / 2);
      },
      60_000,
    );

    const t0 = Date.now();
    const sharingId = await shareTo(a, uniq('acc'), phones);
    const outbox = () => mongo.db.collection('sms_outbox').countDocuments({ sharing_id: sharingId });
    let owned: [Set<number>, Set<number>] = [new Set(), new Set()];
    await waitFor(
      'both dispatchers working on their partitions',
      async () => {
        owned = [await partitionsAt(a.metricsUrl, topic), await partitionsAt(b.metricsUrl, topic)];
        return owned[0].size > 0 && owned[1].size > 0 && (await outbox()) >= 200;
      },
      90_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message} (${[...owned[0]]} / ${[...owned[1]]})\n${a.output()}\n${b.output()}`);
    });
    const cutOffPartitions = await assignmentOf(admin, group, topic, owned[1]);
    expect([...owned[0]].filter((p) => cutOffPartitions.has(p))).toEqual([]);
    const before = await groupAssignment(admin, group, topic);
    const sentLabel = ['provider="outbox"'];
    const zombieSentBefore = await counterAt(b.metricsUrl, 'sms_sent_total', sentLabel);

    const tCut = Date.now();
    host!.cut();
    const atCut = await outbox();
    expect(atCut, 'the cut came after the last message: nothing was left to test').toBeLessThan(PHONES * 0.8);
    // Cut off: the test cannot reach it either.
    expect(await partitionsAt(b.metricsUrl, topic)).toEqual(new Set());

    let groupMs = 0;
    let firstBatchMs = 0;
    await waitFor(
      "the other dispatcher working on the cut-off one's partitions",
      async () => {
        if (!groupMs) {
          const g = await groupAssignment(admin, group, topic);
          if (g.state === 'Stable' && g.members.length === 1 && g.members[0]!.length === DISPATCH_PARTITIONS) groupMs = Date.now() - tCut;
        }
        if (!firstBatchMs && [...(await partitionsAt(a.metricsUrl, topic))].some((p) => cutOffPartitions.has(p))) {
          firstBatchMs = Date.now() - tCut;
        }
        return groupMs > 0 && firstBatchMs > 0;
      },
      SESSION_TIMEOUT_MS + 50_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${a.output()}`);
    });
    expect(groupMs).toBeLessThan(SESSION_TIMEOUT_MS + 15_000);
    // The cut-off replica is still alive: a partition, not a crash.
    expect(b.child.exitCode).toBe(null);

    await sleep(2_000);
    const atHeal = await outbox();
    const tHeal = Date.now();
    host!.heal();

    await waitFor(
      `all ${PHONES} in the outbox (${atCut} at the cut, ${atHeal} at the heal)`,
      async () => (await outbox()) >= PHONES,
      150_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${a.output()}\n${b.output()}`);
    });
    const total = Date.now() - t0;
    // Until the healed replica is back (in the group again, or gone): its late writes are done by then.
    let back = '';
    await waitFor(
      'the healed replica back in the group (or exited)',
      async () => {
        if (b.child.exitCode !== null || b.child.signalCode !== null) {
          back = `exited (${b.child.exitCode ?? b.child.signalCode})`;
          return true;
        }
        const g = await groupAssignment(admin, group, topic);
        if (g.state !== 'Stable' || g.members.length !== 2) return false;
        back = `rejoined ${((Date.now() - tHeal) / 1000).toFixed(1)} s after the heal`;
        return true;
      },
      90_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${b.output()}`);
    });
    await sleep(3_000);

    const perPhone = await outboxPerPhone(mongo, sharingId);
    expect(perPhone.size).toBe(PHONES);
    expect([...perPhone].filter(([, n]) => n !== 1)).toEqual([]);
    expect(phones.filter((p) => !perPhone.has(stored(p)))).toEqual([]);
    const records = mongo.db.collection('sms_messages');
    expect(await records.countDocuments({ sharing_id: sharingId })).toBe(PHONES);
    expect(await records.countDocuments({ sharing_id: sharingId, status: { $ne: 'sent' } })).toBe(0);
    const resumed = await records.countDocuments({ sharing_id: sharingId, attempts: { $gt: 1 } });

    // What the cut-off replica did after the cut: hand-overs the outbox absorbed (its _id is the
    // message id), and how Kafka refused its stale membership.
    const zombieSentAfter = await counterAt(b.metricsUrl, 'sms_sent_total', sentLabel);
    const out = b.output();
    const seen = (s: string) => (out.match(new RegExp(s, 'g')) ?? []).length;
    // kafkajs logs the broker's error by its message: UNKNOWN_MEMBER_ID, REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION.
    const fencing = [
      ['commits refused UNKNOWN_MEMBER_ID', 'OffsetCommit.*not aware of this member'],
      ['REBALANCE_IN_PROGRESS', 'group is rebalancing'],
      ['ILLEGAL_GENERATION', 'generation id is not valid'],
    ]
      .map(([name, re]) => `${name} x${seen(re!)}`)
      .join(', ');
    const late = zombieSentAfter !== null && zombieSentBefore !== null ? zombieSentAfter - zombieSentBefore : 'n/a';
    console.log(
      `partition: ${PHONES} phones, session ${SESSION_TIMEOUT_MS / 1000} s; cut at ${atCut} in the outbox, cut-off replica held partitions ` +
        `${[...cutOffPartitions].sort()} (group ${before.state} ${JSON.stringify(before.members)}); group reassigned ${(groupMs / 1000).toFixed(1)} s after the cut, the other's first batch of them ` +
        `${(firstBatchMs / 1000).toFixed(1)} s; healed at ${atHeal}, replica ${back}; all ${PHONES} in ${(total / 1000).toFixed(1)} s, each phone once; ` +
        `hand-overs by the cut-off replica after the cut: ${late}; claims resumed ${resumed}; its log: ${fencing}`,
    );
    if (process.env.SHOW_ZOMBIE_LOG) console.log(out);
  });
});
