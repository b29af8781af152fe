import { randomUUID } from 'node:crypto';
import { errors, PersonalDataProtector, systemClock, type Logger } from '@feedback/kit-core';
import type { Closer } from '@feedback/kit-core/runtime';
import { createGrpcClient } from '@feedback/kit-grpc';
import type { Producer } from '@feedback/kit-kafka';
import { startPeriodicJob } from '@feedback/kit-stores';
import { FileServiceClient } from '@feedback/proto/feedback/file/v1/file';
import { ShortenerServiceClient } from '@feedback/proto/feedback/shortener/v1/shortener';
import { SurveyServiceClient } from '@feedback/proto/feedback/survey/v1/survey';
import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { filePorts } from './csv-workflow/adapters/grpc/file.client.js';
import { runFileUploadedConsumer } from './csv-workflow/adapters/kafka/file-uploaded.consumer.js';
import { shortenerPort } from './dispatch/adapters/grpc/shortener.client.js';
import { InProcessHandOvers } from './dispatch/adapters/hand-over.tracker.js';
import { PRIORITY_PARTITIONS, priorityLane, startDispatchConsumers } from './dispatch/dispatch.wiring.js';
import type { MessagingEnv } from './env.js';
import { startErasureConsumer, startRetention } from './erasure/erasure.wiring.js';
import type { AcceptGate } from './intake/adapters/accept-gate.js';
import { receiveInboundSms } from './opt-outs/domain/opt-out.use-cases.js';
import { startDlrServer, type RunningDlrServer } from './providers/adapters/http/dlr.server.js';
import { startStepScheduler } from './scheduling/adapters/step.scheduler.js';
import { startFactConsumers } from './reports/facts.wiring.js';
import { startTallyRelay } from './reports/reports.wiring.js';
import { surveyPorts } from './shared/adapters/grpc/survey.client.js';
import { stripSensitiveRecipientAttributes } from './shared/adapters/mongo/sensitive-attributes.migration.js';
import { sensitiveAttributes } from './shared/adapters/mongo/sensitive-attributes.js';
import { placeholderLink } from './shared/domain/sms-text.js';
import { kafkaDispatchPublisher, type PriorityLane } from './dispatch/adapters/kafka/dispatch.publisher.js';
import { kafkaReportEvents, kafkaStatusEvents } from './dispatch/adapters/kafka/status.publisher.js';
import { publishOwedReports } from './status/domain/delivery-report.js';
import { kafkaCompletionEvents } from './status/adapters/kafka/completion.publisher.js';
import { SecretBox } from './providers/adapters/crypto/secret-box.js';
import { accountProviderFormat } from './providers/adapters/http/account-provider.config.js';
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
import { MongoRecordingProvider } from './providers/adapters/mongo/recording.provider.js';
import type { SensitiveAttributes } from './shared/adapters/mongo/sensitive-attributes.js';
import { MongoSharingRepository } from './shared/adapters/mongo/sharing.repository.js';
import { MongoTallyReader } from './reports/adapters/mongo/tally.reader.js';
import { CachedTallyReader } from './reports/adapters/cached-tally.reader.js';
import { meteredDeliveryReports, meteredDispatch, meteredProvider } from './metrics/metered.js';
import { promSmsMetrics, type SmsMetrics } from './metrics/sms.metrics.js';
import { accountProviderResolver, type AccountProvidersConfig, type DeploymentSms } from './providers/providers.wiring.js';
import type { MessagingFeatures } from './features.js';
import type { IntakeDeps } from './intake/ports.js';
import type { SurveyChannels } from './shared/ports.js';
import type { WorkflowFiles } from './csv-workflow/ports.js';
import type { HandOverTracker } from './dispatch/ports.js';
import type { LinkShortener } from './shared/ports.js';
import type { OptOutRepository } from './opt-outs/ports.js';
import type { SmsProvider } from './providers/ports.js';
import type { MessagingSettings, SurveyLinks } from './shared/ports.js';

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
  accountProviders?: AccountProvidersConfig;
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
   * the suppression check also matches opt-outs an erasure kept as a hash (opt-outs/adapters/erased-opt-outs.ts).
   */
  optOutHashes?: (phone: string) => string[];
  /** Hand-overs to slow providers left running (dispatch/adapters/hand-over.tracker.ts); none: each is awaited. */
  handOvers?: HandOverTracker;
}

const noFileService: WorkflowFiles = {
  directoryExists: () => Promise.reject(errors.unavailable('No file service configured')),
  claimLatest: () => Promise.reject(errors.unavailable('No file service configured')),
  records: () => {
    throw errors.unavailable('No file service configured');
  },
  complete: () => Promise.reject(errors.unavailable('No file service configured')),
  setBound: () => Promise.reject(errors.unavailable('No file service configured')),
  recordOutcome: () => Promise.reject(errors.unavailable('No file service configured')),
};

/**
 * The deployment's provider alone (the configured one, else the recording one), counted: what
 * inbound SMS answer through (the opt-out confirmation), whatever provider an account has.
 */
export function deploymentSender(
  infra: Pick<Infrastructure, 'db' | 'provider' | 'turkishShiftTable'> & { metrics: SmsMetrics },
): SmsProvider {
  return meteredProvider(infra.provider ?? new MongoRecordingProvider(infra.db, systemClock, infra.turkishShiftTable), infra.metrics);
}

/** The real adapters behind the domain's ports, handed to each feature as its own deps (main.ts and the integration tests share it). */
export function messagingDeps(infra: Infrastructure): MessagingFeatures {
  const metrics = infra.metrics ?? promSmsMetrics();
  const recordingProvider = new MongoRecordingProvider(infra.db, systemClock, infra.turkishShiftTable);
  // Every provider is counted where it is made: the deployment's here, an account's own in `build`.
  const provider = meteredProvider(infra.provider ?? recordingProvider, metrics);
  const own = infra.accountProviders ?? { secrets: new SecretBox(undefined), cacheMs: 30_000 };
  const accountProviders = new MongoAccountProviderRepository(infra.db, own.secrets);
  const providers = accountProviderResolver({ accountProviders, deployment: provider, own, counted: (p) => meteredProvider(p, metrics) });
  const messages = new MongoMessageRepository(infra.db);
  // Every sharing and dispatch batch checks the suppression list: in memory, caught up per lookup.
  const optOutStore = new MongoOptOutRepository(infra.db);
  const optOuts = erasedAware(
    new OptOutSnapshots(optOutStore, optOutStore, { maxPhones: 1_000_000, logger: infra.logger }),
    infra.optOutHashes,
  );
  // Every sms.dispatch event looks its campaign up: 5,000 recipients, one campaign.
  const campaigns = new CachedCampaignRepository(new MongoCampaignRepository(infra.db), { maxEntries: 1_000, ttlMs: 30_000 });
  const sharings = new MongoSharingRepository(infra.db, infra.sensitive);
  const dispatch = meteredDispatch(kafkaDispatchPublisher(infra.producer, infra.topics.dispatch, infra.topics.dispatchPriority), metrics);
  const statusEvents = kafkaStatusEvents(infra.producer, infra.topics.status);
  const jobs = new MongoJobRepository(infra.db);
  const { settings, logger, survey: links, shortener } = infra;
  const [clock, newId] = [systemClock, randomUUID];
  const intake: IntakeDeps = { campaigns, sharings, messages, dispatch, statusEvents, jobs, optOuts, clock, newId, settings };
  return {
    campaigns: { campaigns, channels: infra.survey, clock, newId, settings },
    intake,
    csvWorkflow: {
      campaigns,
      bindings: new MongoBindingRepository(infra.db),
      imports: new MongoCsvImportLog(infra.db),
      files: infra.files ?? noFileService,
      clock,
      newId,
      logger,
      settings,
      intake,
    },
    dispatch: {
      campaigns,
      sharings,
      messages,
      links,
      shortener,
      providers,
      statusEvents,
      optOuts,
      clock,
      ...(infra.handOvers && { handOvers: { tracker: infra.handOvers, republish: dispatch } }),
    },
    optOuts: { optOuts, textedPhones: messages, clock, settings, logger },
    scheduling: { jobs, campaigns, sharings, dispatch, pacer: tokenBucketPacer(infra.releasePerSecond ?? 100), clock, settings },
    providers: { accountProviders, providerSettings: accountProviderFormat, providerCache: providers, clock },
    status: {
      sharings,
      messages,
      campaigns,
      links,
      shortener,
      completions: kafkaCompletionEvents(infra.producer, infra.topics.completed),
      reportEvents: kafkaReportEvents(infra.producer, infra.topics.status),
      recordedMessages: recordingProvider,
      clock,
      settings,
    },
    reportReads: { campaigns, sharings, tallies: reportTallies(infra), clock },
  };
}

// A campaign report re-reads only the days still moving (cached-tally.reader.ts); a settled day
// moves only after an outage of over an hour, and shows it within 10 minutes. 100,000 kept
// quarter hours are about 25 MB, 11 campaigns' 90 days.
const reportTallies = (infra: Pick<Infrastructure, 'db' | 'logger'>) =>
  new CachedTallyReader(new MongoTallyReader(infra.db), {
    settledAfterMs: 3_600_000,
    refreshAfterMs: 600_000,
    maxRows: 100_000,
    logger: infra.logger,
  });

const erasedAware = (optOuts: OptOutRepository, hashes?: (phone: string) => string[]): OptOutRepository =>
  hashes ? new ErasedOptOuts(optOuts, hashes) : optOuts;

/** The topics messaging publishes and reads, and how they are made at start when missing. */
export function messagingTopics(config: MessagingEnv): {
  names: Infrastructure['topics'];
  specs: { topic: string; numPartitions: number }[];
} {
  const lane = priorityLane(config);
  const names = {
    dispatch: config.SMS_DISPATCH_TOPIC,
    status: config.SMS_STATUS_TOPIC,
    completed: config.SHARING_COMPLETED_TOPIC,
    ...(lane.maxRecipients > 0 && { dispatchPriority: { topic: lane.topic, maxRecipients: lane.maxRecipients } }),
  };
  const specs = [
    { topic: names.dispatch, numPartitions: 6 },
    { topic: lane.topic, numPartitions: PRIORITY_PARTITIONS },
    { topic: names.status, numPartitions: 3 },
    { topic: names.completed, numPartitions: 3 },
    { topic: config.FILE_UPLOADED_TOPIC, numPartitions: 3 },
  ];
  return { names, specs };
}

/** The survey, shortener and file services, as messaging's ports; closed together. */
export function connectPeers(config: MessagingEnv, logger: Logger) {
  const options = { deadlineMs: config.GRPC_DEADLINE_MS, logger };
  const survey = createGrpcClient(SurveyServiceClient, config.SURVEY_GRPC_ADDR, options);
  const shortener = createGrpcClient(ShortenerServiceClient, config.SHORTENER_GRPC_ADDR, options);
  const files = createGrpcClient(FileServiceClient, config.FILE_GRPC_ADDR, options);
  return {
    survey: surveyPorts(survey),
    shortener: shortenerPort(shortener),
    files: filePorts(files),
    name: 'peers',
    close: async () => {
      survey.close();
      shortener.close();
      files.close();
    },
  };
}

/** The process's Infrastructure from its configuration, with what main.ts also needs of it. */
export function messagingInfrastructure(o: {
  config: MessagingEnv;
  logger: Logger;
  db: Db;
  producer: Producer;
  topics: Infrastructure['topics'];
  peers: ReturnType<typeof connectPeers>;
  sms: DeploymentSms;
}): Infrastructure & { metrics: SmsMetrics; personalData: PersonalDataProtector; handOvers?: InProcessHandOvers } {
  const { config, logger } = o;
  const secrets = new SecretBox(config.SMS_PROVIDER_SECRETS_KEY, config.SMS_PROVIDER_SECRETS_PREVIOUS_KEYS);
  if (!config.SMS_PROVIDER_SECRETS_KEY) logger.warn('SMS_PROVIDER_SECRETS_KEY unset: accounts cannot have their own SMS provider');
  const personalData = new PersonalDataProtector(config.PERSONAL_DATA_KEY, config.PERSONAL_DATA_PREVIOUS_KEYS);
  // Hand-overs to a slow provider left running, so it holds its own messages only (dispatch.use-cases.ts).
  const handOvers =
    config.SMS_HAND_OVER_WAIT_MS > 0
      ? new InProcessHandOvers({
          budgetMs: config.SMS_HAND_OVER_WAIT_MS,
          maxAttempts: config.SMS_DISPATCH_MAX_ATTEMPTS,
          capacity: 2_000,
          logger,
        })
      : undefined;
  return {
    ...(handOvers && { handOvers }),
    db: o.db,
    optOutHashes: (phone) => personalData.hashes(phone, 'phone'),
    sensitive: sensitiveAttributes(personalData, config.SENSITIVE_CUSTOMER_ATTRIBUTES),
    producer: o.producer,
    topics: o.topics,
    survey: o.peers.survey,
    shortener: o.peers.shortener,
    provider: o.sms.provider,
    turkishShiftTable: config.SMS_TURKISH_SHIFT_TABLE,
    files: o.peers.files,
    accountProviders: {
      secrets,
      cacheMs: config.ACCOUNT_SMS_PROVIDER_CACHE_MS,
      dlrBaseUrl: config.DLR_PUBLIC_URL,
      dlrSecret: o.sms.dlrSecret,
    },
    settings: {
      defaultRegion: config.DEFAULT_PHONE_REGION,
      maxPhones: config.SMS_MAX_PHONES_PER_SHARING,
      defaultSendWindow: config.SMS_DEFAULT_SEND_WINDOW,
      cost: {
        turkishShift: config.SMS_TURKISH_SHIFT_TABLE,
        placeholderLink: placeholderLink(config.PUBLIC_SHORTENER_URL, config.SHORT_CODE_LENGTH),
      },
    },
    releasePerSecond: config.SMS_RELEASE_PER_SECOND,
    logger,
    metrics: promSmsMetrics(),
    personalData,
  };
}

/** The delivery-report listener, which also takes inbound SMS (the SMS gateway's MO callback): opt-out keywords. */
export function startDeliveryReports(o: {
  config: MessagingEnv;
  infra: ReturnType<typeof messagingInfrastructure>;
  sms: DeploymentSms;
  features: MessagingFeatures;
  logger: Logger;
}): Promise<RunningDlrServer> {
  const { config, infra, sms, features } = o;
  const inboundRules = {
    keywords: config.SMS_OPT_OUT_KEYWORDS,
    reply: config.SMS_OPT_OUT_REPLY,
    provider: deploymentSender({
      db: infra.db,
      provider: sms.provider,
      turkishShiftTable: config.SMS_TURKISH_SHIFT_TABLE,
      metrics: infra.metrics,
    }),
  };
  return startDlrServer({
    host: config.DLR_HOST,
    port: config.DLR_PORT,
    secret: sms.dlrSecret,
    statusParam: sms.reports.statusParam,
    rule: sms.reports.rule,
    deps: {
      messages: meteredDeliveryReports(features.status.messages, infra.metrics),
      reportEvents: features.status.reportEvents,
      clock: features.status.clock,
    },
    logger: o.logger,
    inbound: (mo) => receiveInboundSms(features.optOuts, inboundRules, mo),
  });
}

/**
 * What runs beside the gRPC server: the consumers (joining their groups in the background), the
 * scheduler, retention and erasure, and the migration of recipients stored in clear. `closers`
 * in the order main.ts registers them (they close in reverse).
 */
export async function startBackgroundWork(o: {
  config: MessagingEnv;
  kafka: Kafka;
  producer: Producer;
  db: Db;
  infra: ReturnType<typeof messagingInfrastructure>;
  features: MessagingFeatures;
  gate: AcceptGate;
  logger: Logger;
}): Promise<{ migration: Closer; closers: Closer[] }> {
  const { config, kafka, db, infra, features, logger } = o;
  const [consumer, priorityConsumer] = await startDispatchConsumers({ kafka, config, deps: features.dispatch, gate: o.gate, logger });
  const scheduler = startStepScheduler({
    deps: features.scheduling,
    completion: features.status,
    intervalMs: config.SMS_SCHEDULER_INTERVAL_MS,
    completionEveryMs: config.SHARING_COMPLETION_SWEEP_MS,
    logger,
  });
  const csvConsumer = await runFileUploadedConsumer({
    kafka,
    topic: config.FILE_UPLOADED_TOPIC,
    groupId: config.FILE_UPLOADED_GROUP,
    deps: features.csvWorkflow,
    logger,
    background: true,
    onCrash: () => process.kill(process.pid, 'SIGTERM'),
  });
  const retention = await startRetention({ kafka, db, config, logger });
  // Report events whose publish failed or whose process died after the update (delivery-report.ts).
  // Every replica relays: a repeat carries the same event id, and the webhooks service dedupes it.
  const reportRelay = startPeriodicJob({
    name: 'report-events-relay',
    everyMs: 10_000,
    jitter: 0.2,
    run: () => publishOwedReports(features.status, { graceMs: 10_000, limit: 200 }),
    logger,
  });
  // The campaign report's counters (reports/domain/tally-relay.use-cases.ts): one replica at a time.
  const tallyRelay = startTallyRelay({ db, intervalMs: config.REPORT_TALLY_INTERVAL_MS, logger });
  // Recipients stored in clear by earlier versions: beside serving (releases open what it seals meanwhile).
  const stopMigration = new AbortController();
  const migration = stripSensitiveRecipientAttributes(db, { sensitive: infra.sensitive, logger, signal: stopMigration.signal }).catch(
    (err: unknown) => logger.error({ err }, 'taking the sensitive attributes out of stored recipients failed; the next start tries again'),
  );
  const erasureConsumer = await startErasureConsumer({
    kafka,
    producer: o.producer,
    db,
    config,
    hashPhone: (phone) => infra.personalData.hash(phone, 'phone'),
    logger,
  });
  // The campaign report's clicked and answered facts (reports/facts.wiring.ts).
  const factConsumers = await startFactConsumers({ kafka, db, config, logger });
  return {
    migration: { name: 'sensitive-attributes-migration', close: () => (stopMigration.abort(), migration) },
    closers: [
      { name: 'sms-scheduler', close: () => scheduler.close() },
      reportRelay,
      tallyRelay,
      // Closed after the dispatch consumers (closers run in reverse), before the producer and the database.
      ...(infra.handOvers ? [infra.handOvers] : []),
      retention.sweep,
      consumer,
      priorityConsumer,
      csvConsumer,
      retention.consumer,
      erasureConsumer,
      ...factConsumers,
    ],
  };
}
