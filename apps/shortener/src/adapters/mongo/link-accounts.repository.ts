import { LRUCache } from 'lru-cache';
import type { Db } from 'mongodb';
import type { LinkAccounts } from '../../domain/link-hours.ports.js';

/**
 * The accounts of links' codes, for their hour counters: one `$in` read by `_id` for the codes of
 * a batch not seen before. A link's account never changes, so an answer is kept (bounded): a busy
 * link costs one read per process, not one per batch.
 */
export class MongoLinkAccounts implements LinkAccounts {
  private readonly accounts = new LRUCache<string, string>({ max: 100_000 });

  constructor(private readonly db: Db) {}

  async accountsOf(codes: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const missing: string[] = [];
    for (const code of new Set(codes)) {
      const known = this.accounts.get(code);
      if (known === undefined) missing.push(code);
      else out.set(code, known);
    }
    if (missing.length > 0) {
      const docs = await this.db
        .collection<{ _id: string; account_id: string | null }>('links')
        .find({ _id: { $in: missing } }, { projection: { account_id: 1 } })
        .toArray();
      const found = new Map(docs.map((d) => [d._id, d.account_id ?? '']));
      for (const code of missing) {
        const account = found.get(code) ?? '';
        this.accounts.set(code, account);
        out.set(code, account);
      }
    }
    return out;
  }
}
