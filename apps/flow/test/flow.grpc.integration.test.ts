import { randomUUID } from 'node:crypto';
import { AppError } from '@feedback/kit-core';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import { createGrpcClient, startGrpcServer, type RunningGrpcServer } from '@feedback/kit-grpc';
import { connectMongo, ensureIndexes, type MongoHandle } from '@feedback/kit-stores';
import { FlowServiceClient, FlowServiceService, type QuestionInput } from '@feedback/proto/feedback/flow/v1/flow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowIndexes } from '../src/adapters/mongo/indexes.js';
import { MongoFlowRepository } from '../src/adapters/mongo/flow.repository.js';
import { flowHandlers } from '../src/grpc/flow.handlers.js';

// The flow service's gRPC handlers on port 0 against the real MongoDB-compatible server.
describe('FlowService over gRPC', () => {
  const logger = createLogger('flow-test', 'silent');
  let mongo: MongoHandle;
  let server: RunningGrpcServer;
  let client: ReturnType<typeof createGrpcClient<FlowServiceClient>>;

  beforeAll(async () => {
    mongo = await connectMongo({ url: readStackFile().mongo_url, dbName: `flow_test_${randomUUID().slice(0, 8)}`, logger });
    await ensureIndexes(mongo.db, flowIndexes);
    const deps = { flows: new MongoFlowRepository(mongo.db), newId: randomUUID, clock: { now: () => new Date() } };
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      services: [{ definition: FlowServiceService, implementation: flowHandlers(deps) }],
    });
    client = createGrpcClient(FlowServiceClient, `127.0.0.1:${server.port}`, { deadlineMs: 5000 });
  });

  afterAll(async () => {
    client?.close();
    await server?.shutdown();
    await mongo?.db.dropDatabase().catch(() => {});
    await mongo?.close();
  });

  const definition: { name: string; questions: QuestionInput[] } = {
    name: 'Checkout',
    questions: [
      { key: 'nps', body: { en: 'Recommend us?', tr: 'Tavsiye?' }, style: 'nps', options: [] },
      {
        key: 'pick',
        body: { en: 'Pick' },
        style: 'single_choice',
        options: [
          { key: 'a', body: { en: 'A' } },
          { key: 'b', body: { en: 'B' } },
        ],
      },
    ],
  };

  it('stores a flow and reads it back for the same account only', async () => {
    const { flow } = await client.createFlow({ accountId: 'acc-a', ...definition });
    expect(flow?.questions.map((q) => q.key)).toEqual(['nps', 'pick']);
    const got = await client.getFlow({ accountId: 'acc-a', flowId: flow!.id });
    expect(got.flow).toEqual(flow);
    expect(got.flow?.questions[0]?.body).toEqual({ en: 'Recommend us?', tr: 'Tavsiye?' });

    const foreign = await client.getFlow({ accountId: 'acc-b', flowId: flow!.id }).catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(AppError);
    expect(foreign).toMatchObject({ kind: 'not_found', code: 13002, fields: { flow_id: flow!.id } });
  });

  it('refuses an invalid definition naming the field, and stores nothing', async () => {
    const bad = { accountId: 'acc-c', name: 'Bad', questions: [{ key: 'q', body: { en: 'Q' }, style: 'slider', options: [] }] };
    const err = await client.createFlow(bad).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'invalid', code: 13000 });
    expect(Object.keys((err as AppError).fields)).toContain('questions[0].style');
    expect(await mongo.db.collection('flows').countDocuments({ account_id: 'acc-c' })).toBe(0);
  });
});
