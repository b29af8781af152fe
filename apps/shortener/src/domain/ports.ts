import type { Clock, Page, PageQuery } from '@feedback/kit-core';
import type { CustomerDomain, Link, LinkSettings } from './link.js';
import type { LinkOptions } from './link-options.js';

/** Which of an account's links a list shows. */
export interface LinkFilter {
  accountId: string;
  /** A customer domain's links; null: those made without one; absent: all. */
  domain?: string | null;
  tag?: string;
  /** Made strictly after this instant. */
  createdAfter?: Date;
}

export interface LinkRepository {
  /** Stores the link unless its code is taken; answers whether it stored it. */
  insertIfNew(link: Link): Promise<boolean>;
  /** insertIfNew for many links in one write; answers per link, in order, whether it stored it. */
  insertManyIfNew(links: Link[]): Promise<boolean[]>;
  findByCode(code: string): Promise<Link | null>;
  /** Those of `codes` that are the account's links, in one query by code. */
  ownedCodes(accountId: string, codes: string[]): Promise<string[]>;
  /** Newest first, by (created_at, code). */
  list(filter: LinkFilter, page: PageQuery): Promise<Page<Link>>;
  /** Sets the options given (a key holding undefined removes that option); the link after, or null when there is none. */
  update(code: string, changes: LinkOptions): Promise<Link | null>;
}

export interface DomainRepository {
  /** Stores the domain unless any account has it; answers whether it stored it. */
  insertIfNew(domain: CustomerDomain): Promise<boolean>;
  findByName(name: string): Promise<CustomerDomain | null>;
  /** Oldest first. */
  listByAccount(accountId: string): Promise<CustomerDomain[]>;
  remove(accountId: string, name: string): Promise<boolean>;
}

/** Per link: how many clicks were counted, and up to which offset of each partition. */
export interface ClickTally {
  count: number;
  checkpoints: Record<number, number>;
}

export interface ClickTallyRepository {
  get(code: string): Promise<ClickTally | null>;
  /**
   * Compare-and-set: adds `add` clicks and moves the partition's checkpoint from `from` (null:
   * none yet) to `to`, only if the checkpoint still is `from`; answers whether it did.
   */
  advance(code: string, partition: number, change: { from: number | null; to: number; add: number }): Promise<boolean>;
  /** How many of `codes` were clicked at least once, in one query by code. */
  countClicked(codes: string[]): Promise<number>;
  /** Each of `codes`' clicks counted (absent: none yet), in one query by code. */
  countsOf(codes: string[]): Promise<Map<string, number>>;
}

/** What the shortener's use cases are given; wiring.ts builds the real one. */
export interface ShortenerDeps {
  links: LinkRepository;
  domains: DomainRepository;
  tallies: ClickTallyRepository;
  clock: Clock;
  newCode: () => string;
  settings: LinkSettings;
}
