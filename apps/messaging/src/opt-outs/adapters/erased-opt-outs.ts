import type { OptOutRepository } from '../ports.js';

/**
 * The suppression lists, also matching phones whose opt-out was kept as a keyed hash by a data
 * erasure (erasure/adapters/mongo/messaging-personal-data.repository.ts): each lookup asks for the
 * phones and their hashes under every configured key (PersonalDataProtector.hashes) at once, so
 * an erased person stays suppressed at acceptance and at dispatch, and a key rotation does not
 * lose them. Removing such a phone's opt-out (DELETE by the phone) removes its hashed entry too.
 */
export class ErasedOptOuts implements OptOutRepository {
  constructor(
    private readonly inner: OptOutRepository,
    private readonly hashes: (phone: string) => string[],
  ) {}

  async findOptedOut(accountId: string, phones: string[]): Promise<Set<string>> {
    if (phones.length === 0) return new Set();
    const phoneOf = new Map<string, string>();
    for (const p of phones) for (const h of this.hashes(p)) phoneOf.set(h, p);
    const found = await this.inner.findOptedOut(accountId, [...phones, ...phoneOf.keys()]);
    return new Set([...found].map((x) => phoneOf.get(x) ?? x));
  }

  addMany(e: Parameters<OptOutRepository['addMany']>[0]) {
    return this.inner.addMany(e);
  }

  list(q: Parameters<OptOutRepository['list']>[0]) {
    return this.inner.list(q);
  }

  async remove(accountId: string, phone: string): Promise<boolean> {
    let removed = await this.inner.remove(accountId, phone);
    for (const h of this.hashes(phone)) removed = (await this.inner.remove(accountId, h)) || removed;
    return removed;
  }
}
