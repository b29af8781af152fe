import { randomBytes, randomUUID } from 'node:crypto';
import { systemClock, type Logger } from '@feedback/kit-core';
import type { GrpcClient } from '@feedback/kit-grpc';
import type { Producer } from '@feedback/kit-kafka';
import type { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import type { Db } from 'mongodb';
import { CachedFlowCatalog } from './adapters/cached-flow.catalog.js';
import { GrpcFlowCatalog } from './adapters/grpc/flow-catalog.client.js';
import { kafkaSurveyEvents } from './adapters/kafka/survey-events.publisher.js';
import { MongoChannelRepository } from './adapters/mongo/channel.repository.js';
import { MongoCustomerRepository } from './adapters/mongo/customer.repository.js';
import { MongoLinkRepository } from './adapters/mongo/link.repository.js';
import { MongoResponseRepository } from './adapters/mongo/response.repository.js';
import type { PersonalDataHasher, SurveyConfig, SurveyDeps } from './domain/ports.js';

interface Infrastructure {
  db: Db;
  flowClient: GrpcClient<FlowServiceClient>;
  flowCacheEntries?: number;
  producer: Producer;
  answeredTopic: string;
  logger: Logger;
  config: SurveyConfig;
  /** kit-core's PersonalDataProtector under PERSONAL_DATA_KEY. */
  personalData: PersonalDataHasher;
}

/** 192 random bits: unguessable, and short enough for an SMS. */
const newLinkToken = () => randomBytes(24).toString('base64url');

/** The real adapters behind the domain's ports (main.ts and the integration tests share it). */
export function surveyServiceDeps(infra: Infrastructure): SurveyDeps {
  return {
    channels: new MongoChannelRepository(infra.db),
    customers: new MongoCustomerRepository(infra.db),
    links: new MongoLinkRepository(infra.db),
    responses: new MongoResponseRepository(infra.db),
    flows: new CachedFlowCatalog(new GrpcFlowCatalog(infra.flowClient), infra.flowCacheEntries),
    events: kafkaSurveyEvents(infra.producer, infra.answeredTopic),
    clock: systemClock,
    newId: randomUUID,
    newToken: newLinkToken,
    logger: infra.logger,
    config: infra.config,
    personalData: infra.personalData,
  };
}

/** The survey.answered outbox's backlog, for its metric (kit-metrics outboxBacklogMetrics). */
export function answeredOutboxBacklog(db: Db) {
  const responses = new MongoResponseRepository(db);
  return () => responses.outboxBacklog();
}
