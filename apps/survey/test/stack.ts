import { randomBytes, randomUUID } from 'node:crypto';
import { AppError, PersonalDataProtector } from '@feedback/kit-core';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import { createGrpcClient, startGrpcServer, unary, type GrpcClient, type RunningGrpcServer } from '@feedback/kit-grpc';
import { createKafka, createProducer, ensureTopics, type Producer } from '@feedback/kit-kafka';
import { connectMongo, ensureIndexes, type MongoHandle } from '@feedback/kit-stores';
import { FlowServiceClient, FlowServiceService, type Flow, type FlowServiceServer } from '@feedback/proto/feedback/flow/v1/flow';
import { ChannelKind, SurveyServiceClient, SurveyServiceService, type CustomerInput } from '@feedback/proto/feedback/survey/v1/survey';
import type { Document } from 'mongodb';
import { surveyIndexes } from '../src/adapters/mongo/indexes.js';
import type { SurveyDeps } from '../src/domain/ports.js';
import { surveyHandlers } from '../src/grpc/survey.handlers.js';
import { surveyServiceDeps } from '../src/wiring.js';

/** The real servers of the local stack (`./stack up`); never a mock of Mongo or Kafka. */
export const stack = readStackFile();
export const logger = createLogger('survey-test', process.env.TEST_LOG_LEVEL ?? 'silent');
export const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'survey-test', logger });
export const uniq = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

/**
 * The flow service's gRPC contract over a Map: the peer is not what these tests are about,
 * and the real one lives in another app. Errors go through kit-grpc like the real one's.
 */
export async function startFlowPeer() {
  const flows = new Map<string, Flow>();
  const impl: FlowServiceServer = {
    createFlow: unary(async (req) => {
      const flow: Flow = {
        id: randomUUID(),
        accountId: req.accountId,
        name: req.name,
        createdAt: new Date().toISOString(),
        questions: req.questions.map((q) => ({
          id: randomUUID(),
          key: q.key,
          body: q.body,
          style: q.style,
          options: q.options.map((o) => ({ id: randomUUID(), ...o })),
        })),
      };
      flows.set(flow.id, flow);
      return { flow };
    }),
    getFlow: unary(async (req) => {
      const flow = flows.get(req.flowId);
      if (!flow || flow.accountId !== req.accountId) throw new AppError('not_found', undefined, { flow_id: req.flowId });
      return { flow };
    }),
  };
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [{ definition: FlowServiceService, implementation: impl }],
  });
  const client = createGrpcClient(FlowServiceClient, server.address, { deadlineMs: 5_000 });
  return { server, client, flows };
}

/** A database of its own for a test, with the survey service's indexes. */
export async function openTestDb(dbName = uniq('survey_test').replace('-', '_')): Promise<MongoHandle> {
  const mongo = await connectMongo({ url: stack.mongo_url, dbName, logger });
  await ensureIndexes(mongo.db, surveyIndexes);
  return mongo;
}

/** Drops what openTestDb made and closes it (a failed open leaves nothing to drop). */
export async function dropTestDb(mongo: MongoHandle | undefined): Promise<void> {
  await mongo?.db.dropDatabase().catch(() => undefined);
  await mongo?.close();
}

export interface TestSurveyService {
  deps: SurveyDeps;
  mongo: MongoHandle;
  topic: string;
  server: RunningGrpcServer;
  client: GrpcClient<SurveyServiceClient>;
  flowClient: GrpcClient<FlowServiceClient>;
  producer: Producer;
  /** Moves the service's clock (expiry tests); 0 is real time. */
  shiftClock(ms: number): void;
  close(): Promise<void>;
}

/** A survey service on port 0 with its own database and topic, and a flow peer. */
export async function startSurveyService(): Promise<TestSurveyService> {
  const mongo = await openTestDb();
  const topic = uniq('survey.answered');
  await ensureTopics(kafka, [{ topic }]);
  const producer = createProducer(kafka, { logger });
  await producer.connect();
  const flow = await startFlowPeer();
  const deps = surveyServiceDeps({
    db: mongo.db,
    flowClient: flow.client,
    producer,
    answeredTopic: topic,
    logger,
    config: { publicBaseUrl: 'http://127.0.0.1:8080', defaultPhoneRegion: 'TR', defaultLinkTtlDays: 7, customerSchemaAttributes: ['TCKN'] },
    personalData: new PersonalDataProtector(randomBytes(32)),
  });
  let shift = 0;
  deps.clock = { now: () => new Date(Date.now() + shift) };
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [{ definition: SurveyServiceService, implementation: surveyHandlers(deps) }],
  });
  const client = createGrpcClient(SurveyServiceClient, server.address, { deadlineMs: 20_000 });
  return {
    deps,
    mongo,
    topic,
    server,
    client,
    flowClient: flow.client,
    producer,
    shiftClock: (ms) => void (shift = ms),
    async close() {
      client.close();
      await server.shutdown();
      flow.client.close();
      await flow.server.shutdown();
      await producer.disconnect();
      await dropTestDb(mongo);
    },
  };
}

/** An SMS channel of the account (node n1, links live 3 days) over a new one-question flow: its id. */
export async function smsChannel(svc: TestSurveyService, accountId: string): Promise<string> {
  const { flow } = await svc.flowClient.createFlow({
    accountId,
    name: 'F',
    questions: [{ key: 'nps', body: { en: 'Q' }, style: 'nps', options: [] }],
  });
  const { channel } = await svc.client.createChannel({
    accountId,
    name: 'SMS',
    nodeId: 'n1',
    nodeName: 'Unit',
    flowId: flow!.id,
    linkTtlDays: 3,
    kind: ChannelKind.CHANNEL_KIND_SMS,
  });
  return channel!.id;
}

/** A customer as the RPCs take one: what is not given is empty, as proto3 sends it. */
export const customerInput = (c: Partial<CustomerInput>): CustomerInput => ({
  phoneNumber: '',
  email: '',
  externalId: '',
  name: '',
  schema: {},
  ...c,
});

/** Every stage of a query plan, flattened (explain output nests inputStage / inputStages). */
export function planStages(plan: Document | undefined): string[] {
  if (!plan) return [];
  const inner = [plan.inputStage, ...(plan.inputStages ?? [])].flatMap((p) => planStages(p as Document));
  return [plan.stage as string, ...inner];
}

/** Polls until the condition holds; fails naming `what` after the timeout. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
