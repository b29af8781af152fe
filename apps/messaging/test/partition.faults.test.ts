import type { MongoHandle } from '@feedback/kit-stores';
import { describe, expect, it } from 'vitest';
import {
  bothInGroup,
  claimedOn,
  counterAt,
  expectAtMostOnceAtKannel,
  expectEachPhoneOnceRecorded,
  groupAssignment,
  handled,
  claimsInFlight,
  dispatcherSuite,
  dispatchSnapshot,
  kannelProvider,
  partitionsAt,
  phoneBlock,
  privateDispatch,
  SESSION_TIMEOUT_MS,
  settled,
  takeover,
  underWayOnBoth,
} from './dispatchers.js';
import { logger, sleep, stack, uniq, waitFor } from './stack.js';
import { freePort, shareTo, startMessagingProcess } from './messaging-process.js';
import { createIsolatedHost, removeLeftovers } from './netns.js';

const portOf = (url: string) => Number(new URL(url).port);
/** The ports of a gRPC target: `127.0.0.1:P` or `ipv4:127.0.0.1:P1,127.0.0.1:P2` (several replicas). */
const targetPorts = (target: string) =>
  target
    .replace(/^(ipv4|dns):/, '')
    .split(',')
    .map((a) => Number(a.slice(a.lastIndexOf(':') + 1)));

/*
 * A partition, not a crash: the second dispatcher runs on a host of its own (a network namespace
 * behind a veth, netns.ts), reaching Kafka, MongoDB, the survey and shortener services (and
 * Kannel) through forwarders across that veth. Mid-dispatch the link is cut (the veth goes down:
 * packets are dropped, connections hang, nothing is reset), so the cut-off replica lives on and
 * still holds the batches it was working on. Its partitions must move to the other dispatcher
 * once its session runs out; when the link comes back, whatever it still writes must not send a
 * phone twice.
 */
describe('two dispatchers, one cut off by a network partition mid-dispatch, then healed', () => {
  const suite = dispatcherSuite('messaging-partition-test', () => {
    const leftovers = removeLeftovers();
    if (leftovers.length > 0) logger.warn({ leftovers }, 'removed namespaces and veths of an earlier run');
  });
  const { procs, cleanups } = suite;

  /**
   * Two dispatchers (the second in its own namespace), a sharing of `phones`, the second cut off
   * once `cutWhen` holds (10 s at most) and healed once the other took its partitions over;
   * answers what the summary line needs once everything settled.
   */
  async function cutOneMidDispatch(
    phones: string[],
    provider: { env: (dlrUrl: string) => Record<string, string>; ports: number[] },
    cutWhen?: (mongo: MongoHandle, sharingId: string, partitions: Set<number>) => Promise<boolean>,
  ) {
    const admin = suite.admin;
    const d = await privateDispatch(admin, cleanups, 'messaging_part_test');
    const { mongo, env } = d;
    const host = await createIsolatedHost([
      ...stack.kafka_brokers.flatMap(targetPorts),
      portOf(stack.mongo_url),
      ...targetPorts(stack.grpc.survey),
      ...targetPorts(stack.grpc.shortener),
      ...targetPorts(stack.grpc.file),
      ...provider.ports,
    ]);
    cleanups.push(() => host.destroy());

    // Delivery reports go to the first one's listener (the same DLR_SECRET signs them all).
    const dlrPort = await freePort();
    const ports = async () => ({ GRPC_PORT: String(await freePort()), METRICS_PORT: String(await freePort()) });
    const [a, b] = await Promise.all([
      startMessagingProcess(
        { ...env, ...provider.env(`http://127.0.0.1:${dlrPort}`), ...(await ports()), DLR_PORT: String(dlrPort) },
        60_000,
      ),
      // Inside the namespace, listening on its address (the test reaches its gRPC and metrics); info
      // logs, to see how Kafka treats it when it comes back.
      startMessagingProcess(
        {
          ...env,
          ...provider.env(`http://127.0.0.1:${dlrPort}`),
          ...(await ports()),
          DLR_PORT: String(await freePort()),
          GRPC_HOST: '0.0.0.0',
          METRICS_HOST: '0.0.0.0',
          LOG_LEVEL: 'info',
        },
        60_000,
        host,
      ),
    ]);
    procs.push(a, b);
    await bothInGroup(admin, d.group, d.topic);

    const t0 = Date.now();
    const sharingId = await shareTo(a, uniq('acc'), phones);
    const cutOffPartitions = await underWayOnBoth(admin, d, sharingId, phones.length, [a, b]);
    const sentBefore = await counterAt(b.metricsUrl, 'sms_sent_total', []);
    if (cutWhen) await waitFor('the moment to cut', () => cutWhen(mongo, sharingId, cutOffPartitions), 10_000).catch(() => undefined);

    const tCut = Date.now();
    host.cut();
    const atCut = await handled(mongo, sharingId);
    const claimedAtCut = await claimedOn(mongo, sharingId, cutOffPartitions);
    expect(atCut, 'the cut came after the last message: nothing was left to test').toBeLessThan(phones.length * 0.8);
    // Cut off: the test cannot reach it either.
    expect(await partitionsAt(b.metricsUrl, d.topic)).toEqual(new Set());

    const { groupMs, firstBatchMs } = await takeover(admin, d, a, cutOffPartitions, tCut);
    // The cut-off replica is still alive: a partition, not a crash.
    expect(b.child.exitCode).toBe(null);

    await sleep(2_000);
    const atHeal = await handled(mongo, sharingId);
    const tHeal = Date.now();
    host.heal();

    // Until the healed replica is back (in the group again, or gone): its late writes are done by then.
    let back = '';
    let sentAtRejoin: number | null = null;
    await waitFor(
      'the healed replica back in the group (or exited)',
      async () => {
        if (b.child.exitCode !== null || b.child.signalCode !== null) {
          back = `exited (${b.child.exitCode ?? b.child.signalCode})`;
          return true;
        }
        const g = await groupAssignment(admin, d.group, d.topic);
        if (g.state !== 'Stable' || g.members.length !== 2) return false;
        back = `rejoined the group ${((Date.now() - tHeal) / 1000).toFixed(1)} s after the heal`;
        sentAtRejoin = await counterAt(b.metricsUrl, 'sms_sent_total', []);
        return true;
      },
      90_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${b.output()}`);
    });
    await settled(mongo, sharingId, phones.length, 150_000).catch(async (err: Error) => {
      const snapshot = await dispatchSnapshot(mongo, sharingId, d.topic, [a, b]);
      // The output first and the figures last: a truncated log keeps a failure message's end.
      throw new Error(`${err.message}\n${a.output()}\n${b.output()}\n${err.message}\n${snapshot}`);
    });
    const total = Date.now() - t0 - 3_000; // settled() waits 3 s of quiet

    // What the cut-off replica did after the cut: hand-overs (absorbed by the recording provider,
    // whose _id is the message id), and how Kafka refused its stale membership (kafkajs logs the
    // broker's error by its message).
    const out = b.output();
    const lines = out.split('\n');
    const commitsRefused = (error: string) => lines.filter((l) => l.includes('Response OffsetCommit') && l.includes(error)).length;
    const fencing = `offset commits refused: UNKNOWN_MEMBER_ID x${commitsRefused('not aware of this member')}, REBALANCE_IN_PROGRESS x${commitsRefused(
      'group is rebalancing',
    )}, ILLEGAL_GENERATION x${commitsRefused('generation id is not valid')}`;
    const late = sentAtRejoin !== null && sentBefore !== null ? sentAtRejoin - sentBefore : 'n/a';
    // Events dead-lettered (a long enough cut exhausts the cut-off one's retries): harmless, as their
    // phones were handled by the other one, but an operator would see them.
    const deadLettered = await admin
      .fetchTopicOffsets(`${d.topic}.dlq`)
      .then((ps) => ps.reduce((n, p) => n + Number(p.high), 0))
      .catch(() => 0);
    const took =
      `cut at ${atCut} handled, the cut-off replica holding partitions ${[...cutOffPartitions].sort()} with ${claimedAtCut.length} claims; ` +
      `group reassigned ${(groupMs / 1000).toFixed(1)} s after the cut, the other's first batch of them ${(firstBatchMs / 1000).toFixed(1)} s; ` +
      `healed at ${atHeal} handled, the replica ${back}; all ${phones.length} handled ${(total / 1000).toFixed(1)} s after the request; ` +
      `hand-overs by the cut-off replica between the cut and its rejoining: ${late}; its log: ${fencing}; ${deadLettered} dead-lettered`;
    if (process.env.SHOW_CUT_OFF_LOG) console.log(out);
    return { mongo, sharingId, took, claimedAtCut };
  }

  it("outbox: the cut-off dispatcher's partitions move to the other one; healed, each phone still once", { timeout: 240_000 }, async () => {
    const phones = phoneBlock('533', 5_000);
    const { mongo, sharingId, took } = await cutOneMidDispatch(phones, { env: () => ({ SMS_PROVIDER: 'outbox' }), ports: [] });
    const resumed = await expectEachPhoneOnceRecorded(mongo, sharingId, phones);
    console.log(
      `partition (outbox): ${phones.length} phones, session ${SESSION_TIMEOUT_MS / 1000} s; ${took}; each phone recorded once; ${resumed} claims resumed`,
    );
  });

  it('http provider in front of Kannel: healed, the cut-off dispatcher sends nothing twice', { timeout: 240_000 }, async () => {
    const { k, env } = kannelProvider(cleanups);
    const phones = phoneBlock('536', 1_500);
    // Cut mid-hand-over: the cut-off one's claims are what is at stake.
    const { mongo, sharingId, took, claimedAtCut } = await cutOneMidDispatch(
      phones,
      { env, ports: [portOf(k.KANNEL_SENDSMS_URL)] },
      claimsInFlight,
    );
    const r = await expectAtMostOnceAtKannel(mongo, sharingId, phones, k.KANNEL_FAKESMSC_LOG);
    const of = (status: string) => claimedAtCut.filter((p) => r.statuses.get(p) === status).length;
    const atSmsc = claimedAtCut.filter((p) => r.perPhone.has(p)).length;
    console.log(
      `partition (kannel): ${phones.length} phones, session ${SESSION_TIMEOUT_MS / 1000} s; ${took}; ${r.received} at fakesmsc, none twice, ` +
        `no claim taken twice; its ${claimedAtCut.length} claims at the cut ended: ${of('delivered') + of('sent')} sent/delivered, ` +
        `${of('unknown')} unknown, ${of('sending')} sending, ${atSmsc} of them at fakesmsc; ` +
        `overall ${r.sent} sent or delivered, ${r.sending} sending, ${r.unknown} unknown`,
    );
  });
});
