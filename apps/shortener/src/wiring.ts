import { systemClock, type Logger } from '@feedback/kit-core';
import type { Db } from 'mongodb';
import { CachedDomainRepository } from './adapters/cached-domain.repository.js';
import { CachedLinkHours } from './adapters/cached-link-hours.js';
import { MongoClickTallyRepository } from './adapters/mongo/click-tally.repository.js';
import { MongoDomainRepository } from './adapters/mongo/domain.repository.js';
import { MongoLinkAccounts } from './adapters/mongo/link-accounts.repository.js';
import { MongoLinkHourRepository } from './adapters/mongo/link-hours.repository.js';
import { MongoLinkRepository } from './adapters/mongo/link.repository.js';
import type { LinkSettings } from './domain/link.js';
import type { LinkAccounts, LinkHourRepository } from './domain/link-hours.ports.js';
import type { ShortenerDeps } from './domain/ports.js';
import { newShortCode } from './domain/short-code.js';

interface Infrastructure {
  db: Db;
  domainCacheTtlMs: number;
  shortCodeLength: number;
  settings: LinkSettings;
}

/** The real adapters behind the domain's ports. */
export function shortenerServiceDeps(infra: Infrastructure): ShortenerDeps {
  return {
    links: new MongoLinkRepository(infra.db),
    domains: new CachedDomainRepository(new MongoDomainRepository(infra.db), { ttlMs: infra.domainCacheTtlMs, maxEntries: 10_000 }),
    tallies: new MongoClickTallyRepository(infra.db),
    clock: systemClock,
    newCode: () => newShortCode(infra.shortCodeLength),
    settings: infra.settings,
  };
}

/**
 * The per-link hour counters (link analytics): written by the click consumer, read by
 * GetLinkAnalytics with the UTC days over an hour old kept summed in memory (50,000 link days, a
 * few MiB each thousand) and read again a minute after they were.
 */
export function linkAnalyticsDeps(db: Db, logger: Logger): { hours: LinkHourRepository; accounts: LinkAccounts } {
  const hours = new CachedLinkHours(new MongoLinkHourRepository(db), {
    settledAfterMs: 3_600_000,
    refreshAfterMs: 60_000,
    maxDays: 50_000,
    logger,
  });
  return { hours, accounts: new MongoLinkAccounts(db) };
}
