import { randomUUID } from 'node:crypto';
import { systemClock, type Logger } from '@feedback/kit-core';
import type { Redis } from '@feedback/kit-stores';
import type { Db } from 'mongodb';
import { CachedTokenRepository } from './accounts/adapters/cached-token.repository.js';
import { MongoAccountRepository } from './accounts/adapters/mongo/account.repository.js';
import { MongoNodeRepository } from './accounts/adapters/mongo/node.repository.js';
import { MongoTokenRepository } from './accounts/adapters/mongo/token.repository.js';
import type { AccountDirectory, AccountsDeps, IdempotencyKeys } from './accounts/domain/ports.js';
import { MongoRetentionRepository } from './accounts/adapters/mongo/retention.repository.js';
import type { RetentionDeps, RetentionEvents } from './accounts/domain/retention.use-cases.js';
import { FlowViewCache } from './api/flows/flow-view.cache.js';
import type { FlowsPort } from './api/flows/flows.port.js';
import { MongoIdempotencyKeys } from './accounts/adapters/mongo/idempotency-keys.repository.js';
import { argon2Hasher } from './accounts/adapters/argon2.hasher.js';
import { MongoInviteRepository } from './accounts/adapters/mongo/invite.repository.js';
import { MongoSessionRepository } from './accounts/adapters/mongo/session.repository.js';
import { MongoUserRepository } from './accounts/adapters/mongo/user.repository.js';
import { createSignInLimiter, type SignInLimits } from './accounts/adapters/sign-in.limiter.js';
import type { PeopleDeps } from './accounts/domain/people.ports.js';

interface Infrastructure {
  db: Db;
  tokenCacheTtlMs: number;
  idempotencyKeyTtlHours: number;
}

/**
 * The accounts' real adapters. `tokens` is the CachedTokenRepository: its `cachedByHash` is the
 * authenticator's answer without waiting (http/auth.ts TokenLookup).
 */
export function accountsDeps(infra: Infrastructure): AccountsDeps {
  return {
    accounts: new MongoAccountRepository(infra.db),
    tokens: new CachedTokenRepository(new MongoTokenRepository(infra.db), {
      ttlMs: infra.tokenCacheTtlMs,
      missTtlMs: Math.min(infra.tokenCacheTtlMs, 2_000),
      maxEntries: 10_000,
    }),
    nodes: new MongoNodeRepository(infra.db),
    clock: systemClock,
    newId: randomUUID,
  };
}

/** Accounts' retention settings, published to the services as they change (docs/api.md "Retention"). */
/** Every account a page at a time (the operators' console). */
export const accountDirectory = (infra: Infrastructure): AccountDirectory => new MongoAccountRepository(infra.db);

export function retentionDeps(
  infra: Infrastructure,
  accounts: AccountsDeps,
  events: RetentionEvents,
  defaults: RetentionDeps['retentionDefaults'],
): RetentionDeps {
  return {
    accounts: accounts.accounts,
    clock: accounts.clock,
    retention: new MongoRetentionRepository(infra.db),
    retentionEvents: events,
    retentionDefaults: defaults,
  };
}

/** The console's people: users and operators, sessions, invites (docs/decisions.md "People and sessions"). */
export function peopleDeps(
  infra: Infrastructure,
  accounts: AccountsDeps,
  opts: { redis: Redis; logger: Logger; limits: SignInLimits; idleHours: number; maxDays: number; publicBaseUrl: string },
): PeopleDeps {
  const base = opts.publicBaseUrl.replace(/\/+$/, '');
  return {
    accounts: accounts.accounts,
    users: new MongoUserRepository(infra.db),
    sessions: new MongoSessionRepository(infra.db),
    invites: new MongoInviteRepository(infra.db),
    hasher: argon2Hasher,
    limiter: createSignInLimiter({ redis: opts.redis, limits: opts.limits, logger: opts.logger }),
    policy: {
      idleMs: opts.idleHours * 3_600_000,
      absoluteMs: opts.maxDays * 86_400_000,
      inviteTtlMs: 7 * 86_400_000,
      inviteUrl: (token) => `${base}/console/invite/${token}`,
    },
    clock: accounts.clock,
    newId: accounts.newId,
  };
}

/** SMS sharings' Idempotency-Key records. */
export function smsIdempotencyKeys(infra: Infrastructure): IdempotencyKeys {
  return new MongoIdempotencyKeys(infra.db, { ttlMs: infra.idempotencyKeyTtlHours * 3_600_000, leaseMs: 2 * 60_000 });
}

/** The flow details' cache in front of the flow service (flows never change: one view per flow, bounded by bytes). */
export function flowViews(flows: FlowsPort, maxBytes: number): FlowViewCache {
  return new FlowViewCache(flows, { maxBytes });
}
