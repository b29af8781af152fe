import { LRUCache } from 'lru-cache';
import type { LinkAccounts } from '../domain/link-hours.ports.js';
import type { LinkRepository } from '../domain/ports.js';

/**
 * The account of a link's code, for its hour counters: a link's account never changes, so an
 * answer is kept (bounded) and a busy link costs one read per process, not one per batch.
 */
export class CachedLinkAccounts implements LinkAccounts {
  private readonly accounts = new LRUCache<string, string>({ max: 100_000 });

  constructor(private readonly links: Pick<LinkRepository, 'findByCode'>) {}

  async accountOf(code: string): Promise<string> {
    let account = this.accounts.get(code);
    if (account === undefined) {
      account = (await this.links.findByCode(code))?.accountId ?? '';
      this.accounts.set(code, account);
    }
    return account;
  }
}
