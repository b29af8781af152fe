import { randomUUID } from 'node:crypto';
import { errors, systemClock, type Logger } from '@feedback/kit-core';
import type { Producer } from '@feedback/kit-kafka';
import type { Db } from 'mongodb';
import { kafkaDispatchPublisher, type PriorityLane } from './dispatch/adapters/kafka/dispatch.publisher.js';
import { kafkaStatusEvents } from './dispatch/adapters/kafka/status.publisher.js';
import { kafkaCompletionEvents } from './status/adapters/kafka/completion.publisher.js';
import { SecretBox } from './providers/adapters/crypto/secret-box.js';
import { accountProviderConfigSchema, accountProviderFormat } from './providers/adapters/http/account-provider.config.js';
import { parseHttpProviderConfig } from './providers/adapters/http/http-provider.config.js';
import { HttpSmsProvider } from './providers/adapters/http/http-sms.provider.js';
import { MongoAccountProviderRepository } from './providers/adapters/mongo/account-provider.repository.js';
import { MongoBindingRepository } from './csv-workflow/adapters/mongo/binding.repository.js';
import { MongoCampaignRepository } from './campaigns/adapters/mongo/campaign.repository.js';
import { CachedCampaignRepository } from './campaigns/adapters/cached-campaign.repository.js';
import { MongoCsvImportLog } from './csv-workflow/adapters/mongo/csv-import.repository.js';
import { MongoJobRepository } from './scheduling/adapters/mongo/job.repository.js';
import { MongoMessageRepository } from './shared/adapters/mongo/message.repository.js';
import { tokenBucketPacer } from './scheduling/adapters/release.pacer.js';
import { MongoOptOutRepository } from './opt-outs/adapters/mongo/opt-out.repository.js';
import { OptOutSnapshots } from './opt-outs/adapters/opt-out.snapshots.js';
import { ErasedOptOuts } from './opt-outs/adapters/erased-opt-outs.js';
import { MongoMessagingPersonalData } from './erasure/adapters/mongo/messaging-personal-data.repository.js';
import type { MessagingErasureDeps } from './erasure/domain/data-erasure.use-cases.js';
import { MongoRecordingProvider } from './providers/adapters/mongo/recording.provider.js';
import type { SensitiveAttributes } from './shared/adapters/mongo/sensitive-attributes.js';
import { MongoSharingRepository } from './shared/adapters/mongo/sharing.repository.js';
import { meteredDispatch, meteredProvider } from './shared/adapters/metrics/metered.js';
import { promSmsMetrics, type SmsMetrics } from './shared/adapters/metrics/sms.metrics.js';
import { CachedProviderResolver } from './providers/adapters/provider.resolver.js';
import { KANNEL_DELIVERY_RULE, type DeliveryRule } from './status/domain/delivery-report.js';
import type {
  HandOverTracker,
  LinkShortener,
  MessagingDeps,
  MessagingSettings,
  OptOutRepository,
  SmsProvider,
  SurveyChannels,
  SurveyLinks,
  WorkflowFiles,
} from './shared/ports.js';

export interface Infrastructure {
  db: Db;
  /** Attributes never stored in clear (sensitive-attributes.ts). */
  sensitive: SensitiveAttributes;
  producer: Producer;
  /** `completed`: sharing.completed; `dispatchPriority`: the small sharings' lane (dispatch.publisher.ts), without it every event goes to `dispatch`. */
  topics: { dispatch: string; status: string; completed: string; dispatchPriority?: PriorityLane };
  survey: SurveyChannels & SurveyLinks;
  shortener: LinkShortener;
  /** The configured provider; the recording provider (built here) when none is given. */
  provider?: SmsProvider;
  /** SMS_TURKISH_SHIFT_TABLE: the recording provider (when it is the deployment's) sends as one with that table would. */
  turkishShiftTable?: boolean;
  /**
   * Accounts' own providers: the key that seals their settings (none: they cannot be set), how
   * long one is remembered, and where their delivery reports come ({dlr_url}).
   */
  accountProviders?: { secrets: SecretBox; cacheMs: number; dlrBaseUrl?: string; dlrSecret?: string };
  settings: MessagingSettings;
  logger: Logger;
  /** The file service (CSV workflows); without it BindDirectory answers UNAVAILABLE. */
  files?: WorkflowFiles;
  /** Where the SMS counts go; default the process's Prometheus registry. */
  metrics?: SmsMetrics;
  /** Scheduled SMS released per second (default 100). */
  releasePerSecond?: number;
  /**
   * A phone's keyed hashes under every configured key (PersonalDataProtector.hashes(phone, 'phone')):
   * the suppression check also matches opt-outs an erasure kept as a hash (adapters/erased-opt-outs.ts).
   */
  optOutHashes?: (phone: string) => string[];
  /** Hand-overs to slow providers left running (adapters/hand-over.tracker.ts); none: each is awaited. */
  handOvers?: HandOverTracker;
}

const noFileService: WorkflowFiles = {
  directoryExists: () => Promise.reject(errors.unavailable('No file service configured')),
  claimLatest: () => Promise.reject(errors.unavailable('No file service configured')),
  records: () => {
    throw errors.unavailable('No file service configured');
  },
  complete: () => Promise.reject(errors.unavailable('No file service configured')),
};

/**
 * The deployment's SMS provider (SMS_PROVIDER) and how the delivery reports of messages recorded
 * without a rule read. `outbox` answers no provider: messagingDeps builds the recording one, which
 * needs the database. A bad SMS_HTTP_PROVIDER throws, naming the variable.
 */
export function deploymentProvider(c: {
  kind: 'outbox' | 'http';
  httpProviderJson?: string;
  dlrBaseUrl?: string;
  dlrSecret?: string;
  turkishShiftTable?: boolean;
}): {
  provider?: SmsProvider;
  reports: { rule: DeliveryRule; statusParam: string };
} {
  const kannel = { rule: KANNEL_DELIVERY_RULE, statusParam: 'status' };
  if (c.kind !== 'http') return { reports: kannel };
  if (!c.httpProviderJson) throw new Error('invalid configuration:\n  SMS_HTTP_PROVIDER: required when SMS_PROVIDER=http');
  const config = parseHttpProviderConfig(c.httpProviderJson);
  return {
    provider: new HttpSmsProvider({ config, dlrBaseUrl: c.dlrBaseUrl, dlrSecret: c.dlrSecret, turkishShiftTable: c.turkishShiftTable }),
    reports: config.dlr
      ? { rule: { delivered: config.dlr.delivered, failed: config.dlr.failed }, statusParam: config.dlr.status_param }
      : kannel,
  };
}

/**
 * The deployment's provider alone (the configured one, else the recording one), counted: what
 * inbound SMS answer through (the opt-out confirmation), whatever provider an account has.
 */
export function deploymentSender(
  infra: Pick<Infrastructure, 'db' | 'provider' | 'turkishShiftTable'> & { metrics: SmsMetrics },
): SmsProvider {
  return meteredProvider(infra.provider ?? new MongoRecordingProvider(infra.db, systemClock, infra.turkishShiftTable), infra.metrics);
}

/** The real adapters behind the domain's ports (main.ts and the integration tests share it). */
export function messagingDeps(infra: Infrastructure): MessagingDeps {
  const metrics = infra.metrics ?? promSmsMetrics();
  const recordingProvider = new MongoRecordingProvider(infra.db, systemClock, infra.turkishShiftTable);
  // Every provider is counted where it is made: the deployment's here, an account's own in `build`.
  const provider = meteredProvider(infra.provider ?? recordingProvider, metrics);
  const own = infra.accountProviders ?? { secrets: new SecretBox(undefined), cacheMs: 30_000 };
  const accountProviders = new MongoAccountProviderRepository(infra.db, own.secrets);
  const providers = new CachedProviderResolver({
    accountProviders,
    deployment: provider,
    ttlMs: own.cacheMs,
    // Validated again as read: settings stored under an older, looser schema fail here, not at the provider.
    build: (settings) => {
      const config = accountProviderConfigSchema.parse(settings);
      const provider = new HttpSmsProvider({
        config,
        name: 'account-http',
        dlrBaseUrl: own.dlrBaseUrl,
        dlrSecret: own.dlrSecret,
        turkishShiftTable: config.turkish_shift_table,
      });
      return meteredProvider(provider, metrics);
    },
  });
  const messages = new MongoMessageRepository(infra.db);
  // Every sharing and dispatch batch checks the suppression list: in memory, caught up per lookup.
  const optOutStore = new MongoOptOutRepository(infra.db);
  return {
    // Every sms.dispatch event looks its campaign up: 5,000 recipients, one campaign.
    campaigns: new CachedCampaignRepository(new MongoCampaignRepository(infra.db), { maxEntries: 1_000, ttlMs: 30_000 }),
    sharings: new MongoSharingRepository(infra.db, infra.sensitive),
    messages,
    textedPhones: messages,
    ...(infra.handOvers && { handOvers: infra.handOvers }),
    optOuts: erasedAware(new OptOutSnapshots(optOutStore, optOutStore, { maxPhones: 1_000_000, logger: infra.logger }), infra.optOutHashes),
    recordedMessages: recordingProvider,
    providers,
    providerCache: providers,
    accountProviders,
    providerSettings: accountProviderFormat,
    dispatch: meteredDispatch(kafkaDispatchPublisher(infra.producer, infra.topics.dispatch, infra.topics.dispatchPriority), metrics),
    statusEvents: kafkaStatusEvents(infra.producer, infra.topics.status),
    completions: kafkaCompletionEvents(infra.producer, infra.topics.completed),
    channels: infra.survey,
    links: infra.survey,
    shortener: infra.shortener,
    clock: systemClock,
    newId: randomUUID,
    settings: infra.settings,
    bindings: new MongoBindingRepository(infra.db),
    imports: new MongoCsvImportLog(infra.db),
    files: infra.files ?? noFileService,
    jobs: new MongoJobRepository(infra.db),
    pacer: tokenBucketPacer(infra.releasePerSecond ?? 100),
    logger: infra.logger,
  };
}

const erasedAware = (optOuts: OptOutRepository, hashes?: (phone: string) => string[]): OptOutRepository =>
  hashes ? new ErasedOptOuts(optOuts, hashes) : optOuts;

/** Messaging's part of a data erasure (domain/data-erasure.use-cases.ts). */
export function messagingErasureDeps(db: Db, hashPhone: (phone: string) => string): MessagingErasureDeps {
  return { personalData: new MongoMessagingPersonalData(db), hashPhone };
}
