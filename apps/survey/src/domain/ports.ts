import type { Clock, Logger, Page, PageQuery } from '@feedback/kit-core';
import type { Channel } from './channel.js';
import type { Customer, CustomerChanges, IdentifierKind } from './customer.js';
import type { Flow } from './flow.js';
import type { SurveyLink } from './link.js';
import type { AnswerValue, SurveyResponse } from './response.js';

/*
 * Storage and peer ports. The store gives MongoDB's guarantees: unique indexes and atomic
 * single-document updates (findOneAndUpdate, upserts); every rule that must hold under
 * concurrency rests on one of them.
 */

export interface ChannelRepository {
  insert(channel: Channel): Promise<void>;
  findById(accountId: string, id: string): Promise<Channel | null>;
  /** Newest first. */
  list(accountId: string): Promise<Channel[]>;
}

export interface CustomerRepository {
  /** By one identifier (email lower-cased, phone as E.164 digits); index lookups only. */
  findBy(accountId: string, kind: IdentifierKind, value: string): Promise<Customer | null>;
  findById(accountId: string, id: string): Promise<Customer | null>;
  /** The account's customers of these ids (any order; unknown ids left out), in one round trip. */
  findByIds(accountId: string, ids: string[]): Promise<Customer[]>;
  /** 'duplicate' when another customer holds one of its identifiers (unique indexes), also under races. */
  insert(customer: Customer): Promise<'created' | 'duplicate'>;
  /**
   * insert for many customers in one round trip, one answer per customer in order; a customer's
   * write does not depend on the others'.
   */
  insertMany(customers: Customer[]): Promise<Array<'created' | 'duplicate'>>;
  /** The customer after the change; 'duplicate' when an identifier belongs to another customer by now. */
  update(accountId: string, id: string, changes: CustomerChanges): Promise<Customer | 'duplicate' | null>;
}

/** What an activation writes: the link's fields but its identity, counter and answer. */
export interface LinkActivation extends Omit<SurveyLink, 'id' | 'token' | 'activation' | 'answeredAt' | 'createdAt'> {
  /** Used only when the link is created by this call. */
  newId: string;
  newToken: string;
}

export interface LinkRepository {
  /**
   * Creates the (account, channel, customer) link or re-activates it, atomically: activation
   * + 1, activated_at and expires_at moved, answered_at cleared; id and token kept.
   */
  activate(a: LinkActivation): Promise<SurveyLink>;
  /**
   * activate for many links in a few round trips, one answer per activation in order; each
   * (account, channel, customer) at most once. null: that write collided with a concurrent first
   * activation (unique key) and was not applied; activate it alone.
   */
  activateMany(activations: LinkActivation[]): Promise<Array<SurveyLink | null>>;
  /**
   * activate for links that cannot exist yet (of customers created just now), as plain inserts
   * in one round trip: each link exactly as activate would create it (activation 1), one answer
   * per activation in order. null: the link exists already (a concurrent first activation won the
   * unique key) and was not written; activate it alone.
   */
  insertNew(activations: LinkActivation[]): Promise<Array<SurveyLink | null>>;
  findByToken(token: string): Promise<SurveyLink | null>;
  /** Activated, unanswered links expiring after `now`, of one customer on one node (and channel). */
  findActive(q: { accountId: string; customerId: string; nodeId: string; channelId?: string; now: Date }): Promise<SurveyLink[]>;
  /** Sets answered_at if that activation is still the link's current one and unanswered. */
  markAnswered(linkId: string, activation: number, at: Date): Promise<boolean>;
  /** The channel's links last activated for any of `phones` (SurveyLink.phone), in one indexed query; any order. */
  findByPhones(accountId: string, channelId: string, phones: string[]): Promise<SurveyLink[]>;
}

/** What an NPS tally reads of each response (nps.use-cases.ts). */
export interface ScoredResponse {
  answers: AnswerValue[];
  answeredAt: Date;
  /** The send context's custom attributes; absent on responses stored before it was kept. */
  customAttributes?: Record<string, string>;
}

/** Which responses: every field given must match. Each of flow, channel and customer has its own index. */
export interface ResponseFilter {
  accountId: string;
  flowId?: string;
  channelId?: string;
  customerId?: string;
  /** The SMS sharing whose link was answered (SendContext.sharingId). */
  sharingId?: string;
  /** Only responses ordered at or after this key (see responseSortKey); an ISO instant bounds answered_at. */
  from?: string;
  /** Only responses ordered before this key (see responseSortKey). */
  before?: string;
}

export interface ResponseRepository {
  /** 'duplicate' when that activation of the link has a response already (a second submit). */
  insert(response: SurveyResponse): Promise<'created' | 'duplicate'>;
  /** Newest first, ties by id (kit-core paging); the page's key and `before` both bound it, the lower holds. */
  list(filter: ResponseFilter, page: PageQuery): Promise<Page<SurveyResponse>>;
  findById(accountId: string, id: string): Promise<SurveyResponse | null>;
  /** The answers of every response the filter selects, streamed (any order): for tallies over many responses. */
  answersOf(filter: ResponseFilter): AsyncIterable<ScoredResponse>;
  /** The outbox: responses whose survey.answered is not confirmed by Kafka yet, answered before `before`. */
  unpublished(before: Date, limit: number): Promise<SurveyResponse[]>;
  markPublished(id: string): Promise<void>;
}

/** The flow service. null for unknown flows and other accounts' flows alike. */
export interface FlowCatalog {
  get(accountId: string, flowId: string): Promise<Flow | null>;
}

export interface SurveyEvents {
  /** survey.answered, event id `survey.answered:<response id>`: a retry repeats it. */
  answered(response: SurveyResponse): Promise<void>;
}

/**
 * Keyed hashes of personal data (kit-core PersonalDataProtector): a sensitive field is stored as
 * its hash under the current key and compared against its hashes under every configured key, so
 * a key rotation keeps the stored ones matching until they are rewritten.
 */
export interface PersonalDataHasher {
  hash(value: string, purpose: string): string;
  hashes(value: string, purpose: string): string[];
}

export interface SurveyConfig {
  /** Links are `${publicBaseUrl}/s/${token}`. */
  publicBaseUrl: string;
  defaultPhoneRegion: string;
  defaultLinkTtlDays: number;
  /**
   * Custom attribute names that are fields of the customer schema (e.g. TCKN): an activation's
   * custom attribute of such a name is stored in the customer's schema, where the active survey
   * query looks for it. Compared without case; stored under the name written here.
   */
  customerSchemaAttributes: readonly string[];
  /**
   * Schema and custom attribute names (compared without case) whose values are stored only as
   * keyed hashes (sensitive-fields.ts); `tckn` always is, given here or not.
   */
  sensitiveAttributes?: readonly string[];
}

export interface SurveyDeps {
  channels: ChannelRepository;
  customers: CustomerRepository;
  links: LinkRepository;
  responses: ResponseRepository;
  flows: FlowCatalog;
  events: SurveyEvents;
  clock: Clock;
  newId: () => string;
  newToken: () => string;
  logger: Logger;
  config: SurveyConfig;
  personalData: PersonalDataHasher;
}
