import { errors } from '@feedback/kit-core';
import type { AccountProvider, AccountProviderSettings } from '../../src/domain/account-provider.js';
import type { AccountProviderRepository, ProviderCache } from '../../src/domain/ports.js';

/** Account providers in memory; `sealed: false` stands for a deployment without a key. */
export class MemoryAccountProviders implements AccountProviderRepository {
  readonly items = new Map<string, AccountProvider>();
  constructor(private readonly sealed = true) {}
  async put(p: { accountId: string; settings: AccountProviderSettings; at: Date }) {
    if (!this.sealed) throw errors.unavailable('no key');
    const kept: AccountProvider = {
      accountId: p.accountId,
      settings: structuredClone(p.settings),
      createdAt: this.items.get(p.accountId)?.createdAt ?? p.at,
      updatedAt: p.at,
    };
    this.items.set(p.accountId, kept);
    return structuredClone(kept);
  }
  async find(accountId: string) {
    const found = this.items.get(accountId);
    return found ? structuredClone(found) : null;
  }
  async delete(accountId: string) {
    return this.items.delete(accountId);
  }
}

/** Records which accounts were forgotten. */
export class RecordingCache implements ProviderCache {
  readonly forgotten: string[] = [];
  forget(accountId: string) {
    this.forgotten.push(accountId);
  }
}
