import type { Logger } from '@feedback/kit-core';
import type { Closer } from '@feedback/kit-core/runtime';
import { createGrpcClient } from '@feedback/kit-grpc';
import { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import type { MessagingEnv } from '../env.js';
import { CachedNpsQuestions } from './adapters/grpc/flow-nps.client.js';
import { runAnswerFactsConsumer } from './adapters/kafka/answer-facts.consumer.js';
import { runClickFactsConsumer } from './adapters/kafka/click-facts.consumer.js';
import { MongoFactRepository } from './adapters/mongo/fact.repository.js';
import type { FactDeps } from './ports.js';

/** The clicked and answered facts' adapters over one database and a flow service client. */
export function factDeps(db: Db, flows: ConstructorParameters<typeof CachedNpsQuestions>[0]): FactDeps {
  // A few hundred flows cover every campaign answered in an hour; flows never change (flow-nps.client.ts).
  return { facts: new MongoFactRepository(db), flows: new CachedNpsQuestions(flows, { maxEntries: 1_000, ttlMs: 3_600_000 }) };
}

/**
 * The consumers of the facts that happen outside messaging: `link.clicked` (clicked) and
 * `survey.answered` (answered, NPS), each in its own group, joining in the background. Closers in
 * the order main.ts registers them (they close in reverse: the consumers before the flow client).
 */
export async function startFactConsumers(o: { kafka: Kafka; db: Db; config: MessagingEnv; logger: Logger }): Promise<Closer[]> {
  const { kafka, config, logger } = o;
  const flowClient = createGrpcClient(FlowServiceClient, config.FLOW_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS, logger });
  const deps = factDeps(o.db, flowClient);
  const common = { kafka, logger, background: true, onCrash: () => process.kill(process.pid, 'SIGTERM') };
  const clicks = await runClickFactsConsumer({ ...common, topic: config.CLICKS_TOPIC, groupId: config.CLICK_FACTS_GROUP, deps });
  const answers = await runAnswerFactsConsumer({
    ...common,
    topic: config.SURVEY_ANSWERED_TOPIC,
    groupId: config.ANSWER_FACTS_GROUP,
    deps,
  });
  return [{ name: 'flow-client', close: async () => flowClient.close() }, clicks, answers];
}
