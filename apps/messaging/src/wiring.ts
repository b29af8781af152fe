import { randomUUID } from 'node:crypto';
import { errors, systemClock, type Logger } from '@feedback/kit-core';
import type { Producer } from '@feedback/kit-kafka';
import type { Db } from 'mongodb';
import { kafkaDispatchPublisher } from './adapters/kafka/dispatch.publisher.js';
import { kafkaStatusEvents } from './adapters/kafka/status.publisher.js';
import { MongoBindingRepository } from './adapters/mongo/binding.repository.js';
import { MongoCampaignRepository } from './adapters/mongo/campaign.repository.js';
import { MongoCsvImportLog } from './adapters/mongo/csv-import.repository.js';
import { MongoMessageRepository } from './adapters/mongo/message.repository.js';
import { MongoOutboxProvider } from './adapters/mongo/outbox.provider.js';
import { MongoSharingRepository } from './adapters/mongo/sharing.repository.js';
import type { CsvWorkflowDeps } from './domain/csv-workflow.use-case.js';
import type { BatchDispatchDeps } from './domain/dispatch-batch.use-case.js';
import type {
  BulkLinkShortener,
  BulkSurveyLinks,
  LinkShortener,
  SmsProvider,
  SurveyChannels,
  SurveyLinks,
  WorkflowFiles,
} from './domain/ports.js';
import type { MessagingHandlerDeps } from './grpc/messaging.handlers.js';

export interface Infrastructure {
  db: Db;
  producer: Producer;
  topics: { dispatch: string; status: string };
  survey: SurveyChannels & SurveyLinks & BulkSurveyLinks;
  shortener: LinkShortener & BulkLinkShortener;
  /** The configured provider; the outbox (built here) when none is given. */
  provider?: SmsProvider;
  settings: { defaultRegion: string; maxPhones: number };
  logger: Logger;
  /** The file service (CSV workflows); without it BindDirectory answers UNAVAILABLE. */
  files?: WorkflowFiles;
}

const noFileService: WorkflowFiles = {
  directoryExists: () => Promise.reject(errors.unavailable('No file service configured')),
  claimLatest: () => Promise.reject(errors.unavailable('No file service configured')),
  records: () => {
    throw errors.unavailable('No file service configured');
  },
  complete: () => Promise.reject(errors.unavailable('No file service configured')),
};

/** The real adapters behind the domain's ports (main.ts and the integration tests share it). */
export function messagingDeps(
  infra: Infrastructure,
): MessagingHandlerDeps & BatchDispatchDeps & CsvWorkflowDeps & { outboxProvider: MongoOutboxProvider } {
  const outboxProvider = new MongoOutboxProvider(infra.db);
  return {
    campaigns: new MongoCampaignRepository(infra.db),
    sharings: new MongoSharingRepository(infra.db),
    messages: new MongoMessageRepository(infra.db),
    outbox: outboxProvider,
    outboxProvider,
    provider: infra.provider ?? outboxProvider,
    dispatch: kafkaDispatchPublisher(infra.producer, infra.topics.dispatch),
    statusEvents: kafkaStatusEvents(infra.producer, infra.topics.status),
    channels: infra.survey,
    links: infra.survey,
    shortener: infra.shortener,
    clock: systemClock,
    newId: randomUUID,
    settings: infra.settings,
    bindings: new MongoBindingRepository(infra.db),
    imports: new MongoCsvImportLog(infra.db),
    files: infra.files ?? noFileService,
    logger: infra.logger,
  };
}
