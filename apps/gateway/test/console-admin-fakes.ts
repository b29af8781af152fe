import { errors, pageOf } from '@feedback/kit-core';
import type { LimitsConfig, LimitsInForce, LimitsScope, TierUsage } from '@feedback/kit-limits';
import type { Account, ApiToken } from '../src/accounts/domain/account.js';
import type { AccountsDeps } from '../src/accounts/domain/ports.js';
import type { SmsLimitsPort } from '../src/api/sms-limits/sms-limits.port.js';
import type { ConsoleAdminDeps } from '../src/console/console.feature.js';
import { peopleFakes } from './people-fakes.js';

/*
 * In-memory fakes of what the owners' and operators' pages use: the people's and accounts' ports
 * (accounts acc-1 and acc-2), an SMS provider per account, and the live SMS limits.
 */

const DEFAULT: LimitsConfig = {
  enabled: true,
  tiers: [
    { name: 't0', limit: 20, windowSeconds: 5 },
    { name: 't1', limit: 40, windowSeconds: 25 },
    { name: 't2', limit: 80, windowSeconds: 125 },
    { name: 't3', limit: 160, windowSeconds: 625 },
  ],
};

export class FakeLimits implements SmsLimitsPort {
  stored: LimitsConfig | null = null;
  own = new Map<string, LimitsConfig>();
  sets: Array<{ scope: LimitsScope; config: LimitsConfig }> = [];
  deployment(): LimitsInForce {
    return this.stored
      ? { config: this.stored, origin: 'stored', updatedAt: new Date('2026-11-02T07:00:00.000Z') }
      : { config: DEFAULT, origin: 'default', updatedAt: null };
  }
  account(accountId: string): LimitsInForce {
    const own = this.own.get(accountId);
    return own ? { config: own, origin: 'account', updatedAt: new Date('2026-11-02T07:30:00.000Z') } : this.deployment();
  }
  get accountOverrides() {
    return this.own.size;
  }
  async set(scope: LimitsScope, config: LimitsConfig) {
    this.sets.push({ scope, config });
    if (scope.kind === 'deployment') this.stored = config;
    else this.own.set(scope.accountId, config);
    return scope.kind === 'deployment' ? this.deployment() : this.account(scope.accountId);
  }
  async reset(scope: LimitsScope) {
    const removed = scope.kind === 'deployment' ? this.stored !== null : this.own.delete(scope.accountId);
    if (scope.kind === 'deployment') this.stored = null;
    return { removed, inForce: scope.kind === 'deployment' ? this.deployment() : this.account(scope.accountId) };
  }
}

export function adminFakes() {
  const accounts = new Map<string, Account>([
    ['acc-1', { id: 'acc-1', name: 'Shop One', createdAt: new Date('2026-10-01T00:00:00.000Z') }],
    ['acc-2', { id: 'acc-2', name: 'Shop Two', createdAt: new Date('2026-10-02T00:00:00.000Z') }],
  ]);
  const tokens = new Map<string, ApiToken>();
  let ids = 0;
  const accountRepo = {
    insert: async (a: Account) => void accounts.set(a.id, a),
    findById: async (id: string) => accounts.get(id) ?? null,
  };
  const people = peopleFakes();
  people.deps.accounts = accountRepo;
  const accountsAdmin: AccountsDeps = {
    accounts: accountRepo,
    tokens: {
      insert: async (t) => void tokens.set(t.id, t),
      findByHash: async (h) => [...tokens.values()].find((t) => t.hash === h) ?? null,
      listByAccount: async (accountId) => [...tokens.values()].filter((t) => t.accountId === accountId),
      revoke: async (accountId, tokenId, at) => {
        const t = tokens.get(tokenId);
        if (!t || t.accountId !== accountId) return null;
        const revoked = { ...t, revokedAt: at };
        tokens.set(tokenId, revoked);
        return revoked;
      },
    },
    nodes: { insert: async () => undefined, findById: async () => null },
    clock: { now: () => new Date('2026-11-02T08:00:00.000Z') },
    newId: () => `new-${++ids}`,
  };
  const limits = new FakeLimits();
  const deps: ConsoleAdminDeps = {
    people: people.deps,
    accountsAdmin,
    directory: { list: async (q) => pageOf([...accounts.values()], q, (a) => ({ at: a.createdAt, id: a.id })) },
    smsProvider: {
      getSmsProvider: async ({ accountId }) => {
        if (accountId !== 'acc-1') throw errors.notFound('sms_provider', accountId);
        const config = {
          type: 'http',
          url: 'https://sms.example/send',
          password: 'hunter2-secret',
          sender: 'SHOP',
          dlr: { auth_token: 'tok-secret' },
        };
        return {
          provider: { configJson: JSON.stringify(config), createdAt: '2026-10-01T00:00:00.000Z', updatedAt: '2026-10-05T00:00:00.000Z' },
        };
      },
    },
    smsLimits: limits,
    smsUsage: {
      usage: async (accountId): Promise<TierUsage> => {
        const c = limits.account(accountId).config;
        if (!c.enabled) return { source: 'disabled', tiers: [] };
        return {
          source: 'redis',
          tiers: c.tiers.map((t, i) => ({
            ...t,
            used: i === 0 ? 1 : 0,
            endsAtMs: i === 0 ? Date.parse('2026-11-02T08:00:30.000Z') : null,
          })),
        };
      },
    },
  };
  return { deps, people, accounts, tokens, limits };
}
