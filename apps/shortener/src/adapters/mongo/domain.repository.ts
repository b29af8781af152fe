import { insertOnce } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { CustomerDomain } from '../../domain/link.js';
import type { DomainRepository } from '../../domain/ports.js';

interface DomainDoc {
  _id: string;
  account_id: string;
  created_at: Date;
}

const toDomain = (d: DomainDoc): CustomerDomain => ({ name: d._id, accountId: d.account_id, createdAt: d.created_at });

export class MongoDomainRepository implements DomainRepository {
  private readonly domains: Collection<DomainDoc>;

  constructor(db: Db) {
    this.domains = db.collection<DomainDoc>('domains');
  }

  async insertIfNew(domain: CustomerDomain): Promise<boolean> {
    return insertOnce(this.domains, { _id: domain.name, account_id: domain.accountId, created_at: domain.createdAt });
  }

  async findByName(name: string): Promise<CustomerDomain | null> {
    const doc = await this.domains.findOne({ _id: name });
    return doc ? toDomain(doc) : null;
  }

  async listByAccount(accountId: string): Promise<CustomerDomain[]> {
    const docs = await this.domains.find({ account_id: accountId }).sort({ created_at: 1, _id: 1 }).toArray();
    return docs.map(toDomain);
  }

  async remove(accountId: string, name: string): Promise<boolean> {
    const res = await this.domains.deleteOne({ _id: name, account_id: accountId });
    return res.deletedCount === 1;
  }
}
