import { pageOf, type PageQuery } from '@feedback/kit-core';
import type { CustomerDomain, Link } from '../../src/domain/link.js';
import type { LinkOptions } from '../../src/domain/link-options.js';
import type { ClickTally, ClickTallyRepository, DomainRepository, LinkFilter, LinkRepository } from '../../src/domain/ports.js';

/** In-memory fakes of the ports, for domain rules only. */
export class MemoryLinks implements LinkRepository {
  readonly items = new Map<string, Link>();
  async insertIfNew(link: Link) {
    if (this.items.has(link.code)) return false;
    this.items.set(link.code, link);
    return true;
  }
  async insertManyIfNew(links: Link[]) {
    const stored: boolean[] = [];
    for (const link of links) stored.push(await this.insertIfNew(link));
    return stored;
  }
  async findByCode(code: string) {
    return this.items.get(code) ?? null;
  }
  async ownedCodes(accountId: string, codes: string[]) {
    return codes.filter((c) => this.items.get(c)?.accountId === accountId);
  }
  async list(f: LinkFilter, q: PageQuery) {
    const found = [...this.items.values()].filter(
      (l) =>
        l.accountId === f.accountId &&
        (f.domain === undefined || l.domain === f.domain) &&
        (f.tag === undefined || (l.tags ?? []).includes(f.tag)) &&
        (!f.createdAfter || l.createdAt > f.createdAfter),
    );
    return pageOf(found, q, (l) => ({ at: l.createdAt, id: l.code }));
  }
  async update(code: string, changes: LinkOptions) {
    const link = this.items.get(code);
    if (!link) return null;
    const updated: Link = { ...link, ...changes };
    for (const key of Object.keys(updated) as (keyof Link)[]) if (updated[key] === undefined) delete updated[key];
    this.items.set(code, updated);
    return updated;
  }
}

export class MemoryDomains implements DomainRepository {
  readonly items = new Map<string, CustomerDomain>();
  async insertIfNew(d: CustomerDomain) {
    if (this.items.has(d.name)) return false;
    this.items.set(d.name, d);
    return true;
  }
  async findByName(name: string) {
    return this.items.get(name) ?? null;
  }
  async listByAccount(accountId: string) {
    return [...this.items.values()].filter((d) => d.accountId === accountId).sort((a, b) => +a.createdAt - +b.createdAt);
  }
  async remove(accountId: string, name: string) {
    return this.items.get(name)?.accountId === accountId && this.items.delete(name);
  }
}

export class MemoryTallies implements ClickTallyRepository {
  readonly items = new Map<string, ClickTally>();
  /** Runs once before the next compare-and-set, to simulate another consumer getting there first. */
  beforeAdvance?: () => Promise<void>;
  async get(code: string) {
    const t = this.items.get(code);
    return t ? { count: t.count, checkpoints: { ...t.checkpoints } } : null;
  }
  async advance(code: string, partition: number, change: { from: number | null; to: number; add: number }) {
    const hook = this.beforeAdvance;
    this.beforeAdvance = undefined;
    await hook?.();
    const t = this.items.get(code) ?? { count: 0, checkpoints: {} };
    if ((t.checkpoints[partition] ?? null) !== change.from) return false;
    this.items.set(code, { count: t.count + change.add, checkpoints: { ...t.checkpoints, [partition]: change.to } });
    return true;
  }
  async countClicked(codes: string[]) {
    return codes.filter((c) => (this.items.get(c)?.count ?? 0) > 0).length;
  }
  async countsOf(codes: string[]) {
    return new Map(codes.flatMap((c) => (this.items.has(c) ? [[c, this.items.get(c)!.count] as const] : [])));
  }
}
