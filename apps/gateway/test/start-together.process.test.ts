import { randomBytes, randomUUID } from 'node:crypto';
import {
  freePort,
  privateErasureAndRetention,
  readStackFile,
  s3Settings,
  startAppProcess,
  type AppName,
  type AppProcess,
} from '@feedback/dev-stack';
import { AppError } from '@feedback/kit-core';
import { createLogger } from '@feedback/kit-core/runtime';
import { createGrpcClient, type GrpcClient, type GrpcClientConstructor } from '@feedback/kit-grpc';
import { createKafka } from '@feedback/kit-kafka';
import { createS3 } from '@feedback/kit-stores';
import { FileServiceClient } from '@feedback/proto/feedback/file/v1/file';
import { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import { MessagingServiceClient } from '@feedback/proto/feedback/messaging/v1/messaging';
import { ShortenerServiceClient } from '@feedback/proto/feedback/shortener/v1/shortener';
import { ChannelKind, SurveyServiceClient } from '@feedback/proto/feedback/survey/v1/survey';
import { HealthCheckResponse_ServingStatus, HealthClient } from '@feedback/proto/grpc/health/v1/health';
import type { Client } from '@grpc/grpc-js';
import { MongoClient, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * Start-up with many replicas: three processes of each app started at the same moment against
 * a fresh, empty database and fresh topic names (and, for the file service, a fresh bucket), as
 * a Deployment of three replicas starts on a new install. Every one must become ready without
 * an error line; the indexes must be exactly those one process alone makes (unique ones really
 * refusing a duplicate); the topics must exist with the partitions the app asks for (not the
 * broker's auto-created default); a real call must work through each process afterwards. One app
 * at a time (three processes, not eighteen, on a small machine), a few rounds each: the races
 * are probabilistic. docs/reliability.md "Many processes starting at once".
 */

const stack = readStackFile();
const ROUNDS = Number(process.env.START_TOGETHER_ROUNDS ?? 2);
const READY_MS = 60_000;
const uniq = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

const started: AppProcess[] = [];
const databases = new Set<string>();
const buckets = new Set<string>();
const topicsMade = new Set<string>();
const mongo = new MongoClient(stack.mongo_url, { serverSelectionTimeoutMS: 5_000 });
const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'start-together-test', logger: createLogger('test', 'silent') });
const admin = kafka.admin();
const s3 = createS3({
  ...s3Settings(stack),
  logger: createLogger('test', 'silent'),
});

/** What one round of an app shares (the replicas of one Deployment): database, topics, groups. */
interface Round {
  db: string;
  env: Record<string, string>;
  /** Topic → the partitions the app asks for (kit-kafka ensureTopics; dead-letter topics 1). */
  topics: Record<string, number>;
  /** Consumer groups every process joins. */
  groups: string[];
}

/** One process: its own listeners. */
interface Replica {
  proc: AppProcess;
  port: number;
}

interface AppCase {
  app: AppName;
  round(): Round;
  /** Its own listeners' variables (free ports); `port` is the one the test calls. */
  listeners(): Promise<{ port: number; env: Record<string, string> }>;
  ready(r: Replica): Promise<boolean>;
  /** A real call through each process (written on one, read on the others). */
  exercise(replicas: Replica[], round: Round): Promise<void>;
}

function grpc<C extends Client>(Ctor: GrpcClientConstructor<C>, port: number): GrpcClient<C> {
  return createGrpcClient(Ctor, `127.0.0.1:${port}`, { deadlineMs: 10_000 });
}

async function withClients<C extends Client, T>(
  Ctor: GrpcClientConstructor<C>,
  replicas: Replica[],
  use: (clients: GrpcClient<C>[]) => Promise<T>,
): Promise<T> {
  const clients = replicas.map((r) => grpc(Ctor, r.port));
  try {
    return await use(clients);
  } finally {
    for (const c of clients) c.close();
  }
}

async function grpcServing(port: number): Promise<boolean> {
  const health = grpc(HealthClient, port);
  try {
    const { status } = await health.check({ service: '' }, { deadlineMs: 1_000 });
    return status === HealthCheckResponse_ServingStatus.SERVING;
  } finally {
    health.close();
  }
}

async function grpcListeners(extra: Record<string, string> = {}) {
  const port = await freePort();
  return {
    port,
    env: { GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), METRICS_HOST: '127.0.0.1', METRICS_PORT: String(await freePort()), ...extra },
  };
}

// One personal data key for every replica of a round, as a deployment's Secret gives them.
const personalDataKey = randomBytes(32).toString('base64');
const common = () => ({
  MONGO_URL: stack.mongo_url,
  KAFKA_BROKERS: stack.kafka_brokers.join(','),
  PERSONAL_DATA_KEY: personalDataKey,
  ...ownErasureAndRetention(),
});

/** Each round's own erasure and retention topics and groups (dev-stack privateErasureAndRetention), removed after the run. */
function ownErasureAndRetention(): Record<string, string> {
  const { env, topics } = privateErasureAndRetention();
  for (const t of topics) topicsMade.add(t);
  return env;
}

/** A flow in the stack's flow service, for the survey and messaging calls (they ask it through the stack's survey). */
async function stackFlow(accountId: string): Promise<string> {
  const flows = createGrpcClient(FlowServiceClient, stack.grpc.flow, { deadlineMs: 10_000 });
  try {
    const { flow } = await flows.createFlow({
      accountId,
      name: 'start together',
      questions: [{ key: 'nps', body: { en: 'Would you recommend us?' }, style: 'nps', options: [] }],
    });
    return flow!.id;
  } finally {
    flows.close();
  }
}

const CASES: AppCase[] = [
  {
    app: 'flow',
    round: () => {
      const db = uniq('start_flow');
      return { db, env: { ...common(), MONGO_DB: db }, topics: {}, groups: [] };
    },
    listeners: () => grpcListeners(),
    ready: (r) => grpcServing(r.port),
    exercise: (replicas) =>
      withClients(FlowServiceClient, replicas, async ([first, ...others]) => {
        const accountId = randomUUID();
        const { flow } = await first!.createFlow({
          accountId,
          name: 'together',
          questions: [{ key: 'q', body: { en: 'Q?' }, style: 'nps', options: [] }],
        });
        for (const c of others) expect((await c.getFlow({ accountId, flowId: flow!.id })).flow?.name).toBe('together');
      }),
  },
  {
    app: 'file',
    round: () => {
      const db = uniq('start_file');
      const bucket = uniq('start-file').replace('_', '-');
      buckets.add(bucket);
      const [uploaded, expired] = [uniq('start.file.uploaded'), uniq('start.file.expired')];
      return {
        db,
        env: {
          ...common(),
          MONGO_DB: db,
          S3_ENDPOINT: stack.s3.endpoint,
          S3_ACCESS_KEY: stack.s3.access_key,
          S3_SECRET_KEY: stack.s3.secret_key,
          S3_REGION: stack.s3.region,
          S3_BUCKET: bucket,
          FILE_UPLOADED_TOPIC: uploaded,
          FILE_EXPIRED_TOPIC: expired,
        },
        topics: { [uploaded]: 3, [expired]: 3 },
        groups: [],
      };
    },
    listeners: () => grpcListeners(),
    ready: (r) => grpcServing(r.port),
    exercise: (replicas) =>
      withClients(FileServiceClient, replicas, async ([first, second, third]) => {
        const accountId = randomUUID();
        await first!.createDirectory({ accountId, name: 'inbox' });
        // The unique (account, name) index, through another process.
        const err: unknown = await second!.createDirectory({ accountId, name: 'inbox' }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).kind).toBe('conflict');
        expect((await third!.listDirectories({ accountId })).directories.map((d) => d.name)).toEqual(['inbox']);
      }),
  },
  {
    app: 'shortener',
    round: () => {
      const db = uniq('start_shortener');
      const clicks = uniq('start.link.clicked');
      const group = uniq('start-clicks');
      return {
        db,
        env: { ...common(), MONGO_DB: db, CLICKS_TOPIC: clicks, CLICKS_GROUP: group, CLICKS_SESSION_TIMEOUT_MS: '10000' },
        topics: { [clicks]: 3, [`${clicks}.dlq`]: 1 },
        groups: [group],
      };
    },
    listeners: () => grpcListeners(),
    ready: (r) => grpcServing(r.port),
    exercise: (replicas) =>
      withClients(ShortenerServiceClient, replicas, async ([first, ...others]) => {
        const { link } = await first!.shorten({ url: 'https://example.com/together', accountId: '', domain: '' });
        for (const c of others) expect((await c.resolve({ code: link!.code })).link?.fullUrl).toBe('https://example.com/together');
      }),
  },
  {
    app: 'survey',
    round: () => {
      const db = uniq('start_survey');
      const answered = uniq('start.survey.answered');
      return {
        db,
        env: { ...common(), MONGO_DB: db, SURVEY_ANSWERED_TOPIC: answered, FLOW_GRPC_ADDR: stack.grpc.flow },
        topics: { [answered]: 3 },
        groups: [],
      };
    },
    listeners: () => grpcListeners(),
    ready: (r) => grpcServing(r.port),
    exercise: (replicas) =>
      withClients(SurveyServiceClient, replicas, async ([first, ...others]) => {
        const accountId = randomUUID();
        const flowId = await stackFlow(accountId);
        const { channel } = await first!.createChannel({
          accountId,
          name: 'together',
          nodeId: randomUUID(),
          nodeName: 'node',
          flowId,
          linkTtlDays: 7,
          kind: ChannelKind.CHANNEL_KIND_LINK,
        });
        for (const c of others) expect((await c.listChannels({ accountId })).channels.map((ch) => ch.id)).toEqual([channel!.id]);
      }),
  },
  {
    app: 'messaging',
    round: () => {
      const db = uniq('start_messaging');
      const [dispatch, status, uploaded] = [uniq('start.sms.dispatch'), uniq('start.sms.status'), uniq('start.file.uploaded')];
      const [dispatchGroup, csvGroup] = [uniq('start-dispatch'), uniq('start-csv')];
      const completed = uniq('start.sharing.completed');
      const [clicks, answered] = [uniq('start.link.clicked'), uniq('start.survey.answered')];
      const [clickGroup, answerGroup] = [uniq('start-click-facts'), uniq('start-answer-facts')];
      return {
        db,
        env: {
          ...common(),
          MONGO_DB: db,
          SMS_DISPATCH_TOPIC: dispatch,
          SMS_STATUS_TOPIC: status,
          SHARING_COMPLETED_TOPIC: completed,
          SMS_DISPATCH_GROUP: dispatchGroup,
          FILE_UPLOADED_TOPIC: uploaded,
          FILE_UPLOADED_GROUP: csvGroup,
          CLICKS_TOPIC: clicks,
          CLICK_FACTS_GROUP: clickGroup,
          SURVEY_ANSWERED_TOPIC: answered,
          ANSWER_FACTS_GROUP: answerGroup,
          FLOW_GRPC_ADDR: stack.grpc.flow,
          SURVEY_GRPC_ADDR: stack.grpc.survey,
          SHORTENER_GRPC_ADDR: stack.grpc.shortener,
          FILE_GRPC_ADDR: stack.grpc.file,
          DLR_SECRET: randomBytes(32).toString('base64url'),
          SMS_PROVIDER_SECRETS_KEY: randomBytes(32).toString('base64'),
        },
        topics: {
          [dispatch]: 6,
          [status]: 3,
          [completed]: 3,
          [uploaded]: 3,
          [clicks]: 3,
          [answered]: 3,
          [`${dispatch}.dlq`]: 1,
          [`${uploaded}.dlq`]: 1,
          [`${clicks}.dlq`]: 1,
          [`${answered}.dlq`]: 1,
        },
        groups: [dispatchGroup, csvGroup, clickGroup, answerGroup],
      };
    },
    listeners: async () => {
      const dlr = await freePort();
      return grpcListeners({ DLR_HOST: '127.0.0.1', DLR_PORT: String(dlr), DLR_PUBLIC_URL: `http://127.0.0.1:${dlr}` });
    },
    ready: (r) => grpcServing(r.port),
    exercise: (replicas) =>
      withClients(MessagingServiceClient, replicas, async ([first, ...others]) => {
        const accountId = randomUUID();
        const flowId = await stackFlow(accountId);
        const { campaign } = await first!.createSmsCampaign({
          accountId,
          name: 'together',
          nodeId: randomUUID(),
          nodeName: 'node',
          flowId,
          messageTemplate: 'Hello {{link}}',
          linkTtlDays: 0,
          reminders: [],
          transliterate: false,
        });
        for (const c of others)
          expect((await c.listSmsCampaigns({ accountId, pageSize: 0, pageToken: '' })).campaigns.map((x) => x.id)).toEqual([campaign!.id]);
      }),
  },
  {
    app: 'gateway',
    round: () => {
      const db = uniq('start_gateway');
      const clicks = uniq('start.link.clicked');
      return {
        db,
        env: {
          ...common(),
          MONGO_DB: db,
          CLICKS_TOPIC: clicks,
          ADMIN_TOKEN: randomBytes(24).toString('base64url'),
          REDIS_URL: stack.redis_url,
          FLOW_GRPC_ADDR: stack.grpc.flow,
          FILE_GRPC_ADDR: stack.grpc.file,
          SHORTENER_GRPC_ADDR: stack.grpc.shortener,
          SURVEY_GRPC_ADDR: stack.grpc.survey,
          MESSAGING_GRPC_ADDR: stack.grpc.messaging,
          LOG_REQUESTS: 'off',
        },
        topics: { [clicks]: 3 },
        groups: [],
      };
    },
    listeners: async () => {
      const port = await freePort();
      const env = {
        HOST: '127.0.0.1',
        API_PORT: String(port),
        LINK_PORT: String(await freePort()),
        METRICS_HOST: '127.0.0.1',
        METRICS_PORT: String(await freePort()),
      };
      return {
        port,
        env: { ...env, PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, PUBLIC_SHORTENER_URL: `http://127.0.0.1:${env.LINK_PORT}` },
      };
    },
    ready: async (r) => (await fetch(`http://127.0.0.1:${r.port}/ready`, { signal: AbortSignal.timeout(1_000) })).status === 200,
    exercise: async ([first, second, third], round) => {
      const adminToken = round.env.ADMIN_TOKEN!;
      const call = async (r: Replica, method: string, path: string, token: string, body?: unknown) => {
        const res = await fetch(`http://127.0.0.1:${r.port}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, json: (await res.json()) as Record<string, string> };
      };
      const account = await call(first!, 'POST', '/admin/v1/accounts', adminToken, { name: 'together' });
      expect(account.status).toBe(201);
      const token = await call(second!, 'POST', `/admin/v1/accounts/${account.json.id}/tokens`, adminToken, { kind: 'api', name: 'api' });
      expect(token.status).toBe(201);
      // The token (its unique hash index) read by the third process: an authenticated call.
      const dirs = await call(third!, 'GET', `/v2/file_service/${account.json.id}/directories`, token.json.token!);
      expect(dirs.status).toBe(200);
    },
  },
];

/** Index definitions per collection, as listIndexes answers them; collections with only `_id_` left out. */
async function indexesOf(db: string): Promise<Record<string, Document[]>> {
  const out: Record<string, Document[]> = {};
  for (const { name } of await mongo.db(db).listCollections({}, { nameOnly: true }).toArray()) {
    const indexes = await mongo.db(db).collection(name).listIndexes().toArray();
    if (indexes.length <= 1) continue;
    out[name] = indexes
      .map(({ v: _v, ns: _ns, key, ...rest }: Document): Document => ({ ...rest, key: Object.entries(key as Document) }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
  }
  return out;
}

/** Two documents equal on each unique index's fields (strings: inside every partial filter): the second must be refused. */
async function expectUniqueIndexesRefuseDuplicates(db: string, indexes: Record<string, Document[]>): Promise<number> {
  let checked = 0;
  for (const [collection, list] of Object.entries(indexes)) {
    for (const index of list.filter((i) => i.unique === true)) {
      const fields = Object.fromEntries(
        (index.key as [string, unknown][]).map(([field]) => [field, `dup-${randomBytes(4).toString('hex')}`]),
      );
      const coll = mongo.db(db).collection<Document>(collection);
      const [a, b] = [`dup-a-${randomUUID()}`, `dup-b-${randomUUID()}`];
      await coll.insertOne({ _id: a as never, ...fields });
      const err = (await coll.insertOne({ _id: b as never, ...fields }).catch((e: unknown) => e)) as { code?: number } | undefined;
      await coll.deleteMany({ _id: { $in: [a, b] as never[] } });
      expect(err?.code, `${db}.${collection} ${String(index.name)} must refuse a duplicate`).toBe(11000);
      checked += 1;
    }
  }
  return checked;
}

/** Every topic exists (listed, so not auto-created by this check) with the partitions the app asks for, each with a leader. */
async function expectTopics(expected: Record<string, number>): Promise<void> {
  const names = Object.keys(expected);
  if (names.length === 0) return;
  const deadline = Date.now() + 30_000;
  let listed = new Set<string>();
  // The gateway's link thread ensures its topic after /ready: wait for it to be listed.
  while (!names.every((n) => listed.has(n))) {
    listed = new Set(await admin.listTopics());
    if (Date.now() > deadline) break;
    if (!names.every((n) => listed.has(n))) await new Promise((r) => setTimeout(r, 500));
  }
  expect(
    names.filter((n) => !listed.has(n)),
    'topics missing',
  ).toEqual([]);
  const { topics } = await admin.fetchTopicMetadata({ topics: names });
  const partitions = Object.fromEntries(topics.map((t) => [t.name, t.partitions.length]));
  expect(partitions).toEqual(expected);
  for (const t of topics)
    expect(
      t.partitions.every((p) => p.leader >= 0),
      `${t.name} has a leader per partition`,
    ).toBe(true);
}

/** Every process is a member of each group, and the group has settled (Stable). */
async function expectGroupsStable(groups: string[], members: number): Promise<void> {
  if (groups.length === 0) return;
  const deadline = Date.now() + READY_MS;
  for (;;) {
    const { groups: described } = await admin.describeGroups(groups);
    const state = described.map((g) => `${g.groupId}: ${g.state} with ${g.members.length}`);
    if (described.every((g) => g.state === 'Stable' && g.members.length === members)) return;
    if (Date.now() > deadline) throw new Error(`consumer groups did not settle with ${members} members: ${state.join('; ')}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Starts `n` processes of the app in the same tick, waits for all to be ready, checks their start-up. */
async function startTogether(c: AppCase, round: Round, n: number): Promise<Replica[]> {
  for (const t of Object.keys(round.topics)) topicsMade.add(t);
  const listeners = await Promise.all(Array.from({ length: n }, () => c.listeners()));
  const replicas = listeners.map(({ port, env }) => {
    const proc = startAppProcess(c.app, { ...round.env, ...env });
    started.push(proc);
    return { proc, port };
  });
  await Promise.all(replicas.map((r) => r.proc.waitUntil('readiness', () => c.ready(r), READY_MS)));
  await expectGroupsStable(round.groups, n);
  for (const r of replicas) {
    expect(r.proc.exitCode(), `${c.app} pid ${r.proc.child.pid} still running`).toBeNull();
    expect(r.proc.problems(), `${c.app} pid ${r.proc.child.pid}: errors at start-up`).toEqual([]);
  }
  return replicas;
}

async function stopAll(replicas: Replica[]): Promise<void> {
  await Promise.all(replicas.map((r) => r.proc.kill('SIGKILL')));
}

describe('three processes of each app started at once on an empty database and fresh topics', () => {
  beforeAll(async () => {
    await mongo.connect();
    await admin.connect();
  });

  afterAll(async () => {
    await Promise.all(started.map((p) => p.kill('SIGKILL')));
    for (const db of databases)
      await mongo
        .db(db)
        .dropDatabase()
        .catch(() => undefined);
    for (const bucket of buckets) await s3.removeBucket(bucket).catch(() => undefined);
    const existing = new Set(await admin.listTopics().catch(() => []));
    const topics = [...topicsMade].filter((t) => existing.has(t));
    if (topics.length > 0) await admin.deleteTopics({ topics }).catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    await mongo.close();
  }, 60_000);

  for (const c of CASES) {
    it(
      `${c.app}: ${ROUNDS} rounds of three at once; each ready, no error, the indexes one process makes, the topics' partitions, a real call`,
      async () => {
        // What one process alone makes: the reference.
        const alone = c.round();
        databases.add(alone.db);
        const [single] = await startTogether(c, alone, 1);
        await expectTopics(alone.topics);
        await stopAll([single!]);
        const reference = await indexesOf(alone.db);
        expect(Object.keys(reference).length, `${c.app} makes indexes`).toBeGreaterThan(0);

        for (let i = 1; i <= ROUNDS; i++) {
          const round = c.round();
          databases.add(round.db);
          const replicas = await startTogether(c, round, 3);
          try {
            expect(await indexesOf(round.db), `${c.app} round ${i}: indexes`).toEqual(reference);
            const unique = await expectUniqueIndexesRefuseDuplicates(round.db, reference);
            await expectTopics(round.topics);
            await c.exercise(replicas, round);
            console.log(
              `${c.app} round ${i}: 3 processes ready, ${Object.values(reference).flat().length} indexes as one process makes them ` +
                `(${unique} unique ones refuse a duplicate), topics ${JSON.stringify(round.topics)}`,
            );
            for (const r of replicas) expect(r.proc.problems(), `${c.app} pid ${r.proc.child.pid}: errors`).toEqual([]);
          } finally {
            await stopAll(replicas);
            await mongo
              .db(round.db)
              .dropDatabase()
              .catch(() => undefined);
          }
        }
        await mongo.db(alone.db).dropDatabase();
      },
      (1 + ROUNDS) * 3 * READY_MS,
    );
  }
});
