import type { Clock, Logger } from '@feedback/kit-core';
import type { Customer, IdentifierKind } from './customer.js';
import type { SurveyLink } from './link.js';
import type { ChannelRepository, CustomerRepository, LinkRepository } from './ports.js';

/** What each service reports it erased (or kept, for opt-outs) for one request. */
export interface ErasureCounts {
  customers: number;
  messages: number;
  responses: number;
  links: number;
  webhookDeliveries: number;
  optOutsKept: number;
}

export const NO_COUNTS: ErasureCounts = { customers: 0, messages: 0, responses: 0, links: 0, webhookDeliveries: 0, optOutsKept: 0 };

/** What every service needs to find one person's data in one account (data.erasure.requested). */
export interface ErasureRequest {
  erasureId: string;
  accountId: string;
  phones: string[];
  emails: string[];
  externalIds: string[];
  customerIds: string[];
  surveyLinkIds: string[];
  surveyLinkUrls: string[];
  requestedAt: Date;
}

export interface DataErasure {
  id: string;
  accountId: string;
  status: 'pending' | 'completed';
  requestedAt: Date;
  completedAt: Date | null;
  /** Keyed hashes of the identifiers given (PersonalDataProtector): never the identifiers in clear. */
  subjectHashes: string[];
  /** Fixed when requested, so a later change of the configured list does not move old requests. */
  expectedServices: string[];
  /** Each service's first report: a redelivered report changes nothing. */
  progress: Record<string, ErasureCounts>;
  /** Kept (sealed at rest) until data.erasure.requested is confirmed published, then dropped. */
  unpublished?: ErasureRequest;
}

/** The sums of every report so far. */
export function erasureCounts(e: Pick<DataErasure, 'progress'>): ErasureCounts {
  const sum = { ...NO_COUNTS };
  for (const c of Object.values(e.progress)) for (const k of Object.keys(sum) as (keyof ErasureCounts)[]) sum[k] += c[k] ?? 0;
  return sum;
}

/** Complete once every expected service has reported; reports of services not expected do not count. */
export const everyServiceReported = (e: Pick<DataErasure, 'expectedServices' | 'progress'>) =>
  e.expectedServices.every((s) => Object.hasOwn(e.progress, s));

/** Service names are stored as field names: letters, digits, - and _ only. */
export const SERVICE_NAME = /^[a-z][a-z0-9_-]{0,39}$/;

export interface ErasureRepository {
  insert(e: DataErasure): Promise<void>;
  findById(accountId: string, id: string): Promise<DataErasure | null>;
  /** Records a service's report unless it reported already; the request as it is now, null when unknown. */
  recordProgress(id: string, service: string, counts: ErasureCounts): Promise<DataErasure | null>;
  /** pending → completed, once. */
  markCompleted(id: string, at: Date): Promise<void>;
  /** Drops the kept request once it is published. */
  markPublished(id: string): Promise<void>;
}

/** What the survey service itself erases, by ids (deletes are idempotent: a second run finds nothing). */
export interface SurveyPersonalData {
  /** The account's links of these customers, any channel or node. */
  linksOfCustomers(accountId: string, customerIds: string[]): Promise<SurveyLink[]>;
  deleteResponsesOf(accountId: string, customerIds: string[], linkIds: string[]): Promise<number>;
  deleteLinks(accountId: string, linkIds: string[]): Promise<number>;
  deleteCustomers(accountId: string, customerIds: string[]): Promise<number>;
}

export interface ErasureEvents {
  /** data.erasure.requested, keyed by account, event id `data.erasure.requested:<id>`. */
  requested(r: ErasureRequest): Promise<void>;
  /** data.erasure.progress, event id `data.erasure.progress:<id>:<service>`. */
  progress(p: { erasureId: string; accountId: string; service: string; counts: ErasureCounts }): Promise<void>;
}

export interface ErasureDeps {
  erasures: ErasureRepository;
  personalData: SurveyPersonalData;
  customers: CustomerRepository;
  channels: ChannelRepository;
  links: LinkRepository;
  events: ErasureEvents;
  /** PersonalDataProtector.hash. */
  hash: (value: string, purpose: string) => string;
  clock: Clock;
  newId: () => string;
  logger: Logger;
  config: { publicBaseUrl: string; defaultPhoneRegion: string; expectedServices: readonly string[] };
}

export type { Customer, IdentifierKind };
