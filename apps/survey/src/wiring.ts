import { randomBytes, randomUUID } from 'node:crypto';
import { systemClock, type Logger, type PersonalDataProtector } from '@feedback/kit-core';
import type { GrpcClient } from '@feedback/kit-grpc';
import type { Producer } from '@feedback/kit-kafka';
import type { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import type { Db } from 'mongodb';
import { CachedFlowCatalog } from './adapters/cached-flow.catalog.js';
import { GrpcFlowCatalog } from './adapters/grpc/flow-catalog.client.js';
import { kafkaErasureEvents } from './adapters/kafka/data-erasure.publisher.js';
import { kafkaSurveyEvents } from './adapters/kafka/survey-events.publisher.js';
import { MongoChannelRepository } from './adapters/mongo/channel.repository.js';
import { MongoCustomerRepository } from './adapters/mongo/customer.repository.js';
import { MongoErasureRepository } from './adapters/mongo/data-erasure.repository.js';
import { MongoLinkRepository } from './adapters/mongo/link.repository.js';
import { MongoResponseRepository } from './adapters/mongo/response.repository.js';
import { MongoSurveyPersonalData } from './adapters/mongo/survey-personal-data.repository.js';
import type { ErasureDeps } from './domain/data-erasure.js';
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

/** The erasure use cases' adapters (domain/data-erasure.ts), beside the service's own. */
export function surveyErasureDeps(infra: {
  db: Db;
  producer: Producer;
  protector: PersonalDataProtector;
  topics: { requested: string; progress: string };
  deps: SurveyDeps;
  expectedServices: readonly string[];
}): ErasureDeps {
  return {
    erasures: new MongoErasureRepository(infra.db, infra.protector),
    personalData: new MongoSurveyPersonalData(infra.db),
    customers: infra.deps.customers,
    channels: infra.deps.channels,
    links: infra.deps.links,
    events: kafkaErasureEvents(infra.producer, infra.topics),
    hash: (value, purpose) => infra.protector.hash(value, purpose),
    clock: infra.deps.clock,
    newId: infra.deps.newId,
    logger: infra.deps.logger,
    config: {
      publicBaseUrl: infra.deps.config.publicBaseUrl,
      defaultPhoneRegion: infra.deps.config.defaultPhoneRegion,
      expectedServices: infra.expectedServices,
    },
  };
}
