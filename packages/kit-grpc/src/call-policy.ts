import type { RetryPolicy, ServiceConfig, ServiceDefinition } from '@grpc/grpc-js';
import { FileServiceService } from '@feedback/proto/feedback/file/v1/file';
import { FlowServiceService } from '@feedback/proto/feedback/flow/v1/flow';
import { MessagingServiceService } from '@feedback/proto/feedback/messaging/v1/messaging';
import { ShortenerServiceService } from '@feedback/proto/feedback/shortener/v1/shortener';
import { SurveyServiceService } from '@feedback/proto/feedback/survey/v1/survey';
import { EchoServiceService } from '@feedback/proto/feedback/testing/v1/echo';
import { WebhookServiceService } from '@feedback/proto/feedback/webhooks/v1/webhooks';
import { HealthService } from '@feedback/proto/grpc/health/v1/health';

/**
 * 'retry': a second attempt changes nothing the first did not (reads), so a call cut by a
 * server that died, or refused by one that is draining, is sent again (to another replica).
 * 'once': a write whose repeat would act twice or answer differently (a second CreateFlow makes
 * a second flow, a second DeleteFile answers NOT_FOUND, ...): it fails with UNAVAILABLE instead,
 * and its caller decides (the gateway answers 503; a Kafka consumer redelivers the batch, which
 * its idempotent handling makes safe).
 */
export type CallKind = 'retry' | 'once';

/** The kind of every method of a service; the type makes a new RPC fail to compile until it is classified. */
type ServicePolicy<S extends ServiceDefinition> = { [M in keyof S & string]: CallKind };

interface ServiceCallPolicy {
  definition: ServiceDefinition;
  methods: Record<string, CallKind>;
}

const policy = <S extends ServiceDefinition>(definition: S, methods: ServicePolicy<S>): ServiceCallPolicy => ({
  definition,
  methods,
});

/** Which calls may be repeated, per service: the one place that says so. */
export const CALL_POLICIES: readonly ServiceCallPolicy[] = [
  policy(FlowServiceService, { createFlow: 'once', getFlow: 'retry' }),
  policy(SurveyServiceService, {
    createChannel: 'once',
    describeChannel: 'retry',
    listChannels: 'retry',
    // Re-activation moves activated_at and clears answered_at: a late repeat could reopen a link
    // answered in between. The SMS consumer's Kafka redelivery repeats the whole batch instead.
    activateSurveyLink: 'once',
    activateSurveyLinks: 'once',
    listActiveSurveys: 'retry',
    getSurveyPage: 'retry',
    submitAnswers: 'once',
    listResponses: 'retry',
    getResponse: 'retry',
    getNpsSummary: 'retry',
    getSurveyLinkStates: 'retry',
    requestDataErasure: 'once',
    getDataErasure: 'retry',
  }),
  policy(MessagingServiceService, {
    createSmsCampaign: 'once',
    listSmsCampaigns: 'retry',
    createSmsSharing: 'once',
    getSmsSharing: 'retry',
    listSharingRecipients: 'retry',
    listSmsMessages: 'retry',
    bindDirectory: 'once',
    listDirectoryBindings: 'retry',
    unbindDirectory: 'once',
    putSmsProvider: 'once',
    getSmsProvider: 'retry',
    deleteSmsProvider: 'once',
    updateSmsCampaign: 'once',
    previewSmsMessage: 'retry',
    // Cancelling again answers the same counts.
    cancelSmsSharing: 'retry',
    // Adding a phone twice leaves one entry ("already" on the repeat).
    addSmsOptOuts: 'retry',
    listSmsOptOuts: 'retry',
    deleteSmsOptOut: 'once',
    listSmsSharings: 'retry',
    getCampaignReport: 'retry',
  }),
  policy(FileServiceService, {
    createDirectory: 'once',
    listDirectories: 'retry',
    // A client stream is retried only while its messages fit grpc-js's retry buffer; an upload
    // is never worth holding in memory for that.
    uploadFile: 'once',
    listFiles: 'retry',
    getFile: 'retry',
    deleteFile: 'once',
    // A server stream is retried only until its first message arrives: a download that started is
    // never restarted from the top behind its reader's back.
    readBlob: 'retry',
    claimLatestFile: 'once',
    completeProcessing: 'once',
    // Setting a binding again, or reporting the same outcome again, changes nothing.
    setWorkflowBinding: 'retry',
    recordProcessing: 'retry',
  }),
  policy(ShortenerServiceService, {
    // A repeat would store a second code for the URL: harmless but not the same answer.
    shorten: 'once',
    shortenMany: 'once',
    resolve: 'retry',
    getLinkStats: 'retry',
    getLinkAnalytics: 'retry',
    countClickedLinks: 'retry',
    addDomain: 'once',
    listDomains: 'retry',
    removeDomain: 'once',
    listLinks: 'retry',
    getLink: 'retry',
    // Sets the fields given to the values given: a repeat changes nothing.
    updateLink: 'retry',
  }),
  policy(WebhookServiceService, {
    createEndpoint: 'once',
    getEndpoint: 'retry',
    listEndpoints: 'retry',
    updateEndpoint: 'once',
    deleteEndpoint: 'once',
    // A repeat would hand out a second new secret and drop the one the first answer carried.
    rotateSecret: 'once',
    sendTestEvent: 'once',
    listDeliveries: 'retry',
    replayDelivery: 'once',
  }),
  policy(HealthService, { check: 'retry', watch: 'retry' }),
  // kit-grpc's own tests exercise retries through it.
  policy(EchoServiceService, { echo: 'retry' }),
];

/**
 * How a retried call is repeated. Only UNAVAILABLE: what a dropped connection, a refused stream or
 * a server answering while its store is away gives; every other status is an answer. Three attempts
 * at most, the first repeat within 50 ms, so a caller's deadline (5 s by default) is barely touched.
 */
export const RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: 3,
  initialBackoff: '0.05s',
  maxBackoff: '0.5s',
  backoffMultiplier: 2,
  retryableStatusCodes: ['UNAVAILABLE'],
};

/**
 * Retries stop while failures outrun successes (each failure takes a token, each success gives back
 * a tenth; below half of maxTokens no call is repeated), so a service that is down gets no more
 * calls than its callers make. 100 tokens let the calls in flight on a pod that dies (tens, even on
 * a busy gateway) all be retried; after a long outage retries resume once ~500 calls succeeded.
 * grpc-js keeps one throttle per target.
 */
export const RETRY_THROTTLING: Readonly<NonNullable<ServiceConfig['retryThrottling']>> = { maxTokens: 100, tokenRatio: 0.1 };

/** "/feedback.flow.v1.FlowService/GetFlow" → ["feedback.flow.v1.FlowService", "GetFlow"]. */
function splitPath(path: string): [string, string] {
  const [, service = '', method = ''] = path.split('/');
  return [service, method];
}

/** The full service name ("feedback.flow.v1.FlowService") of a definition. */
export function serviceNameOf(definition: ServiceDefinition): string | undefined {
  const path = Object.values(definition)[0]?.path;
  return path === undefined ? undefined : splitPath(path)[0];
}

/** The methods of a service that are retried, as the service config names them. */
export function retriedMethods(definition: ServiceDefinition): { service: string; method: string }[] {
  const name = serviceNameOf(definition);
  const found = CALL_POLICIES.find((p) => serviceNameOf(p.definition) === name);
  if (!found) return [];
  return Object.entries(found.methods)
    .filter(([, kind]) => kind === 'retry')
    .map(([key]) => {
      const [service, method] = splitPath(found.definition[key]!.path);
      return { service, method };
    });
}

/**
 * The service config of a client channel for one service: calls spread over every address the
 * target resolves to (round_robin: one connection per address, each call to the next ready one),
 * instead of grpc-js's default pick_first (one connection, to the first address that answers); its
 * retried methods are repeated per RETRY_POLICY. A service unknown here is balanced, never retried.
 */
export function serviceConfigFor(definition: ServiceDefinition): ServiceConfig {
  const name = retriedMethods(definition);
  if (name.length === 0) return { loadBalancingConfig: [{ round_robin: {} }], methodConfig: [] };
  return {
    loadBalancingConfig: [{ round_robin: {} }],
    methodConfig: [{ name, retryPolicy: { ...RETRY_POLICY } }],
    retryThrottling: { ...RETRY_THROTTLING },
  };
}
