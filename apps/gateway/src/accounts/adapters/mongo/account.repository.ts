import type { Page, PageQuery } from '@feedback/kit-core';
import { keysetPage } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { Account } from '../../domain/account.js';
import type { AccountDirectory, AccountRepository } from '../../domain/ports.js';

interface AccountDoc {
  _id: string;
  name: string;
  created_at: Date;
}

export class MongoAccountRepository implements AccountRepository, AccountDirectory {
  private readonly col: Collection<AccountDoc>;
  constructor(db: Db) {
    this.col = db.collection<AccountDoc>('accounts');
  }

  async insert(a: Account): Promise<void> {
    await this.col.insertOne({ _id: a.id, name: a.name, created_at: a.createdAt });
  }

  async findById(id: string): Promise<Account | null> {
    const d = await this.col.findOne({ _id: id });
    return d ? { id: d._id, name: d.name, createdAt: d.created_at } : null;
  }

  async list(page: PageQuery): Promise<Page<Account>> {
    const { items, nextPageToken } = await keysetPage(this.col, page, { filter: {}, order: { date: 'created_at' } });
    return { items: items.map((d) => ({ id: d._id, name: d.name, createdAt: d.created_at })), nextPageToken };
  }
}
