import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { connectMongo, type MongoHandle } from '@feedback/kit-stores';
import { AssignerProtocol, Partitioners, type Admin } from 'kafkajs';
import { readFakeSmscMessages } from './fakesmsc-log.js';
import { createKafka } from '@feedback/kit-kafka';
import { afterAll, beforeAll, expect } from 'vitest';
import { ensureKannel, logger, stack, uniq, waitFor, type KannelSettings } from './stack.js';
import { processEnv, type MessagingProcess } from './messaging-process.js';

/*
 * What the tests of several dispatchers share (two-dispatchers.faults.test.ts,
 * partition.faults.test.ts): private messaging processes on one database, one sms.dispatch topic
 * and one consumer group, against the stack's Kafka, MongoDB, survey and shortener services.
 */

/** Partitions of the private dispatch topic, as messaging's own ensureTopics would make it. */
export const DISPATCH_PARTITIONS = 6;
/** Short enough that a takeover fits the test's time, at least the broker's minimum (6 s). */
export const SESSION_TIMEOUT_MS = 10_000;

/** The environment every dispatcher of one test shares (each adds its own ports). */
export function sharedEnv(dbName: string): Record<string, string> {
  return { ...processEnv(dbName), SMS_DISPATCH_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS) };
}

/**
 * What a test of several dispatchers holds, released after its last test: an admin client (connected
 * before the first test), the processes it started (killed) and its cleanups (run last first).
 */
export function dispatcherSuite(clientId: string, before?: () => void) {
  const kafka = createKafka({ brokers: stack.kafka_brokers, clientId, logger });
  const suite = { admin: undefined as unknown as Admin, procs: [] as MessagingProcess[], cleanups: [] as (() => Promise<unknown>)[] };
  beforeAll(async () => {
    before?.();
    suite.admin = kafka.admin();
    await suite.admin.connect();
  });
  afterAll(async () => {
    await Promise.all(suite.procs.map((p) => p.kill('SIGKILL')));
    for (const c of suite.cleanups.reverse()) await c().catch(() => undefined);
    await suite.admin?.disconnect();
  });
  return suite;
}

/** Kannel for one test (stopped after the suite if it was started for it), and the http provider's environment in front of it. */
export function kannelProvider(cleanups: (() => Promise<unknown>)[]) {
  const kannel = ensureKannel();
  cleanups.push(async () => kannel.stop());
  const k = kannel.settings;
  return { k, env: (dlrUrl: string) => ({ SMS_PROVIDER: 'http', SMS_HTTP_PROVIDER: kannelProviderJson(k), DLR_PUBLIC_URL: dlrUrl }) };
}

/** Mid-hand-over: the partitions' claims are taken, so what a lost dispatcher holds is at stake. */
export const claimsInFlight = async (mongo: MongoHandle, sharingId: string, partitions: Set<number>) =>
  (await claimedOn(mongo, sharingId, partitions)).length > 0;

/** The dispatch topic with partitions for every dispatcher, made before any of them starts. */
export async function createDispatchTopic(admin: Admin, topic: string): Promise<void> {
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: DISPATCH_PARTITIONS, replicationFactor: -1 }] });
}

/**
 * A process's dispatch lag per partition, from its metrics: kit-kafka reports a partition's lag
 * once the process got a batch of it, and drops it when a rebalance gives it away. Null when the
 * endpoint does not answer (a killed or cut-off process).
 */
async function lagsAt(metricsUrl: string, topic: string): Promise<Map<number, number> | null> {
  try {
    const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(1_000) });
    const text = await res.text();
    const found = new Map<number, number>();
    for (const line of text.split('\n')) {
      const m = /^kafka_consumer_lag\{([^}]*)\} (\S+)$/.exec(line);
      if (m && m[1]!.includes(`topic="${topic}"`)) found.set(Number(/partition="(\d+)"/.exec(m[1]!)![1]), Number(m[2]));
    }
    return found;
  } catch {
    return null;
  }
}

/** The dispatch partitions a process works on (lagsAt); empty when it does not answer. */
export async function partitionsAt(metricsUrl: string, topic: string): Promise<Set<number>> {
  return new Set((await lagsAt(metricsUrl, topic))?.keys());
}

/** A counter of a process's metrics (summed over the series whose labels include `labels`), or null when it does not answer. */
export async function counterAt(metricsUrl: string, name: string, labels: string[]): Promise<number | null> {
  try {
    const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(1_000) })).text();
    let sum = 0;
    for (const line of text.split('\n')) {
      const m = new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`).exec(line);
      if (m && labels.every((l) => m[1]!.includes(l))) sum += Number(m[2]);
    }
    return sum;
  } catch {
    return null;
  }
}

/** The group's state and each member's partitions of `topic`, as the group coordinator sees them. */
export async function groupAssignment(admin: Admin, group: string, topic: string): Promise<{ state: string; members: number[][] }> {
  const [g] = (await admin.describeGroups([group])).groups;
  return {
    state: g?.state ?? 'Dead',
    members: (g?.members ?? []).map((m) => {
      const decoded = m.memberAssignment.length > 0 ? AssignerProtocol.MemberAssignment.decode(m.memberAssignment) : null;
      return [...(decoded?.assignment[topic] ?? [])].sort((a, b) => a - b);
    }),
  };
}

/**
 * All partitions of the member that holds the partitions a process was seen working on (its
 * metrics show only those it got a batch of yet): the coordinator's view, tied to a process.
 */
export async function assignmentOf(admin: Admin, group: string, topic: string, seen: Set<number>): Promise<Set<number>> {
  // During a rebalance the coordinator lists no assignment: ask again until the group is stable.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { state, members } = await groupAssignment(admin, group, topic);
    const member = members.find((m) => [...seen].every((p) => m.includes(p)));
    if (state === 'Stable' && member) return new Set(member);
    if (Date.now() > deadline) throw new Error(`no member of ${group} holds partitions ${[...seen]}: ${state} ${JSON.stringify(members)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How many records of the recording provider each phone of the sharing has. */
export async function recordedPerPhone(mongo: MongoHandle, sharingId: string): Promise<Map<string, number>> {
  const rows = await mongo.db
    .collection('sms_outbox')
    .aggregate<{ _id: string; n: number }>([{ $match: { sharing_id: sharingId } }, { $group: { _id: '$phone', n: { $sum: 1 } } }])
    .toArray();
  return new Map(rows.map((r) => [r._id, r.n]));
}

/** Phones as the service stores them (digits, country code, no "+"). */
export const stored = (phone: string) => `90${phone.slice(1)}`;

/** infra/apps.sh's kannel_provider_json, as `SMS_PROVIDER=http ./stack up` runs it. */
export function kannelProviderJson(k: KannelSettings): string {
  const appsSh = fileURLToPath(new URL('../../../infra/apps.sh', import.meta.url));
  const script = `source "$(dirname "$1")/lib.sh"; eval "$(sed -n '/^kannel_provider_json()/,/^}/p' "$1")"; kannel_provider_json "$2" "$3"`;
  return execFileSync('bash', ['-c', script, 'bash', appsSh, k.KANNEL_SENDSMS_USER, k.KANNEL_SENDSMS_PASSWORD], { encoding: 'utf8' });
}

/** `count` phones in a block of numbers no other run uses (the fakesmsc log is shared): 0PPPBBBNNNN. */
export function phoneBlock(prefix: string, count: number): string[] {
  const block = String(randomInt(100, 1000));
  return Array.from({ length: count }, (_, i) => `0${prefix}${block}${String(i).padStart(4, '0')}`);
}

/** Recipients of the sharing whose hand-over is over (any status but "sending"). */
export const handled = (mongo: MongoHandle, sharingId: string) =>
  mongo.db.collection('sms_messages').countDocuments({ sharing_id: sharingId, status: { $ne: 'sending' } });

/**
 * Waits until every phone of the sharing has a record and nothing moves for 3 s (a claim a dead
 * or cut-off dispatcher left "sending" through a provider that is not idempotent stays so).
 */
export async function settled(mongo: MongoHandle, sharingId: string, phones: number, timeoutMs: number, extra = () => ''): Promise<void> {
  const records = mongo.db.collection('sms_messages');
  let last = '';
  let since = Date.now();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const n = await records.countDocuments({ sharing_id: sharingId });
    const now = `${n}/${await handled(mongo, sharingId)}/${extra()}`;
    if (now !== last) [last, since] = [now, Date.now()];
    if (n === phones && Date.now() - since >= 3_000) return;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${phones} records to settle (records/handled/extra: ${now})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Where a dispatch stands, for a failure message: the sharing's records per status and, for each
 * process, the dispatch partitions it reports lag for (kit-kafka's kafka_consumer_lag).
 */
export async function dispatchSnapshot(mongo: MongoHandle, sharingId: string, topic: string, procs: MessagingProcess[]): Promise<string> {
  const statuses = await mongo.db
    .collection('sms_messages')
    .aggregate<{ _id: string; n: number }>([{ $match: { sharing_id: sharingId } }, { $group: { _id: '$status', n: { $sum: 1 } } }])
    .toArray()
    .catch((err: Error) => [{ _id: `unreadable: ${err.message}`, n: 0 }]);
  const lags = await Promise.all(
    procs.map(async (p, i) => {
      const lag = await lagsAt(p.metricsUrl, topic);
      return `process ${i}: ${lag ? [...lag].map(([partition, n]) => `p${partition} ${n}`).join(', ') || 'no partition' : 'unanswered'}`;
    }),
  );
  return `records by status: ${statuses.map((s) => `${s._id} ${s.n}`).join(', ')}; dispatch lag: ${lags.join('; ')}`;
}

/**
 * What fakesmsc got for the sharing's phones, checked against the records: no phone twice, every
 * phone recorded sent (or delivered) there exactly once, the others only "sending" (claimed by a
 * dispatcher that died or was cut off before the answer) or "unknown" (a timeout after the request
 * left), never retried. Answers the counts for the summary line.
 */
export async function checkAtMostOnce(
  mongo: MongoHandle,
  sharingId: string,
  phones: string[],
  logFile: string,
): Promise<{
  received: number;
  sent: number;
  sending: number;
  unknown: number;
  twice: string[];
  perPhone: Map<string, number>;
  statuses: Map<string, string>;
}> {
  const ours = new Set(phones.map(stored));
  const perPhone = new Map<string, number>();
  for (const m of readFakeSmscMessages(logFile)) if (ours.has(m.to)) perPhone.set(m.to, (perPhone.get(m.to) ?? 0) + 1);
  const all = await mongo.db
    .collection<{ _id: string; phone: string; status: string }>('sms_messages')
    .find({ sharing_id: sharingId })
    .toArray();
  const sent = all.filter((r) => r.status === 'sent' || r.status === 'delivered');
  const notOnce = sent.filter((r) => perPhone.get(r.phone) !== 1).map((r) => `${r.phone}: ${perPhone.get(r.phone) ?? 0}`);
  if (notOnce.length > 0) throw new Error(`recorded sent but not exactly once at fakesmsc: ${notOnce.slice(0, 10).join(', ')}`);
  const odd = all.filter((r) => !['sent', 'delivered', 'sending', 'unknown'].includes(r.status)).map((r) => `${r.phone}: ${r.status}`);
  if (odd.length > 0) throw new Error(`records left to retry: ${odd.slice(0, 10).join(', ')}`);
  return {
    received: [...perPhone.values()].reduce((a, b) => a + b, 0),
    sent: sent.length,
    sending: all.filter((r) => r.status === 'sending').length,
    unknown: all.filter((r) => r.status === 'unknown').length,
    twice: [...perPhone].filter(([, n]) => n > 1).map(([p]) => p),
    perPhone,
    statuses: new Map(all.map((r) => [r.phone, r.status])),
  };
}

const partitioner = Partitioners.DefaultPartitioner();

/** The partition of sms.dispatch a stored phone's events go to (they are keyed by it: the producer's default partitioner). */
export function partitionOf(phone: string): number {
  const partitionMetadata = Array.from({ length: DISPATCH_PARTITIONS }, (_, partitionId) => ({
    partitionId,
    leader: 1,
    partitionErrorCode: 0,
    replicas: [1],
    isr: [1],
  }));
  return partitioner({ topic: 'sms.dispatch', partitionMetadata, message: { key: phone, value: null } });
}

/** Phones of the sharing claimed ("sending") whose events are on one of `partitions`. */
export async function claimedOn(mongo: MongoHandle, sharingId: string, partitions: Set<number>): Promise<string[]> {
  const claimed = await mongo.db
    .collection<{ phone: string }>('sms_messages')
    .find({ sharing_id: sharingId, status: 'sending' }, { projection: { phone: 1 } })
    .toArray();
  return claimed.filter((r) => partitions.has(partitionOf(r.phone))).map((r) => r.phone);
}

/**
 * One test's private dispatch: a fresh database, the shared environment and its dispatch topic
 * (made before any dispatcher starts); `cleanups` gets what removes them again.
 */
export async function privateDispatch(admin: Admin, cleanups: (() => Promise<unknown>)[], dbPrefix: string) {
  const dbName = uniq(dbPrefix);
  const mongo: MongoHandle = await connectMongo({ url: stack.mongo_url, dbName, logger });
  cleanups.push(async () => (await mongo.db.dropDatabase().catch(() => undefined), await mongo.close()));
  const env = sharedEnv(dbName);
  const topic = env.SMS_DISPATCH_TOPIC!;
  const group = env.SMS_DISPATCH_GROUP!;
  await createDispatchTopic(admin, topic);
  cleanups.push(() =>
    admin.deleteTopics({
      topics: [
        topic,
        `${topic}.dlq`,
        env.SMS_STATUS_TOPIC!,
        env.SHARING_COMPLETED_TOPIC!,
        env.FILE_UPLOADED_TOPIC!,
        `${env.FILE_UPLOADED_TOPIC!}.dlq`,
      ],
    }),
  );
  return { mongo, env, topic, group };
}

/** Both members in the group, half the partitions each, before the events exist (so neither takes everything first). */
export async function bothInGroup(admin: Admin, group: string, topic: string): Promise<void> {
  await waitFor(
    'both dispatchers in the group, 3 partitions each',
    async () => {
      const g = await groupAssignment(admin, group, topic);
      return g.state === 'Stable' && g.members.length === 2 && g.members.every((m) => m.length === DISPATCH_PARTITIONS / 2);
    },
    60_000,
  );
}

/**
 * Waits until both are under way (each got a batch of its partitions, some messages are out) and
 * answers the second one's partitions as the coordinator assigned them (none of them the first's).
 */
export async function underWayOnBoth(
  admin: Admin,
  d: { mongo: MongoHandle; topic: string; group: string },
  sharingId: string,
  phones: number,
  [first, second]: [MessagingProcess, MessagingProcess],
): Promise<Set<number>> {
  let owned: [Set<number>, Set<number>] = [new Set(), new Set()];
  await waitFor(
    'both dispatchers working on their partitions',
    async () => {
      owned = [await partitionsAt(first.metricsUrl, d.topic), await partitionsAt(second.metricsUrl, d.topic)];
      return owned[0].size > 0 && owned[1].size > 0 && (await handled(d.mongo, sharingId)) >= Math.min(200, phones / 10);
    },
    90_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message} (${[...owned[0]]} / ${[...owned[1]]})\n${first.output()}\n${second.output()}`);
  });
  const secondPartitions = await assignmentOf(admin, d.group, d.topic, owned[1]);
  expect([...owned[0]].filter((p) => secondPartitions.has(p))).toEqual([]);
  return secondPartitions;
}

/**
 * The takeover after the other member failed at `since`, seen two ways: the coordinator gives all
 * partitions to the one member left, and `survivor` gets its first batch of one of `lost`. Times
 * in ms from `since`.
 */
export async function takeover(
  admin: Admin,
  d: { topic: string; group: string },
  survivor: MessagingProcess,
  lost: Set<number>,
  since: number,
): Promise<{ groupMs: number; firstBatchMs: number }> {
  let groupMs = 0;
  let firstBatchMs = 0;
  await waitFor(
    "the survivor working on the lost one's partitions",
    async () => {
      if (!groupMs) {
        const g = await groupAssignment(admin, d.group, d.topic);
        if (g.state === 'Stable' && g.members.length === 1 && g.members[0]!.length === DISPATCH_PARTITIONS) groupMs = Date.now() - since;
      }
      if (!firstBatchMs && [...(await partitionsAt(survivor.metricsUrl, d.topic))].some((p) => lost.has(p))) {
        firstBatchMs = Date.now() - since;
      }
      return groupMs > 0 && firstBatchMs > 0;
    },
    SESSION_TIMEOUT_MS + 50_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${survivor.output()}`);
  });
  // How long it took is reported, not asserted (a timing assertion fails on a loaded machine: in a
  // fresh-machine run one takeover took 42 s). It depends on the survivor as much as on the group:
  // the session runs from the member's last heartbeat (kafkajs sends them between slices of a batch,
  // so it may be seconds before the failure); then the survivor's next heartbeat learns of the
  // rebalance and it rejoins once its batch in hand is done. The wait above bounds it.
  return { groupMs, firstBatchMs };
}

/** Every phone of the sharing exactly once in the recording provider (sms_outbox) and recorded sent; answers how many claims were taken again. */
export async function expectEachPhoneOnceRecorded(mongo: MongoHandle, sharingId: string, phones: string[]): Promise<number> {
  const perPhone = await recordedPerPhone(mongo, sharingId);
  expect(perPhone.size).toBe(phones.length);
  expect([...perPhone].filter(([, n]) => n !== 1)).toEqual([]);
  expect(phones.filter((p) => !perPhone.has(stored(p)))).toEqual([]);
  const records = mongo.db.collection('sms_messages');
  expect(await records.countDocuments({ sharing_id: sharingId, status: { $ne: 'sent' } })).toBe(0);
  // Claims a lost dispatcher left "sending", taken over by the other one (the recording provider absorbs a repeat).
  return records.countDocuments({ sharing_id: sharingId, attempts: { $gt: 1 } });
}

/** At most once at Kannel (checkAtMostOnce), and no claim ever taken again (Kannel is not idempotent). */
export async function expectAtMostOnceAtKannel(mongo: MongoHandle, sharingId: string, phones: string[], logFile: string) {
  const r = await checkAtMostOnce(mongo, sharingId, phones, logFile);
  expect(r.twice).toEqual([]);
  expect(r.sent + r.sending + r.unknown).toBe(phones.length);
  expect(r.received).toBeGreaterThanOrEqual(r.sent);
  expect(r.received).toBeLessThanOrEqual(phones.length);
  expect(await mongo.db.collection('sms_messages').countDocuments({ sharing_id: sharingId, attempts: { $gt: 1 } })).toBe(0);
  return r;
}
