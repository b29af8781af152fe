import type { Page, PageQuery } from '@feedback/kit-core';
import { isDuplicateKeyError, keysetPage } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { Role } from '../../domain/people.js';
import type { UserRepository } from '../../domain/people.ports.js';
import type { User } from '../../domain/user.js';

interface UserDoc {
  _id: string;
  /** null for an operator. */
  account_id: string | null;
  email: string;
  email_key: string;
  name: string;
  role: Role;
  password_hash: string | null;
  created_at: Date;
}

const toUser = (d: UserDoc): User => ({
  id: d._id,
  accountId: d.account_id,
  email: d.email,
  emailKey: d.email_key,
  name: d.name,
  role: d.role,
  passwordHash: d.password_hash,
  createdAt: d.created_at,
});

/** The console's people (collection `users`; e-mails unique by the `email_key_unique` index). */
export class MongoUserRepository implements UserRepository {
  private readonly col: Collection<UserDoc>;
  constructor(db: Db) {
    this.col = db.collection<UserDoc>('users');
  }

  async insert(u: User): Promise<'ok' | 'duplicate'> {
    try {
      await this.col.insertOne({
        _id: u.id,
        account_id: u.accountId,
        email: u.email,
        email_key: u.emailKey,
        name: u.name,
        role: u.role,
        password_hash: u.passwordHash,
        created_at: u.createdAt,
      });
      return 'ok';
    } catch (err) {
      if (isDuplicateKeyError(err)) return 'duplicate';
      throw err;
    }
  }

  async findById(id: string): Promise<User | null> {
    const d = await this.col.findOne({ _id: id });
    return d ? toUser(d) : null;
  }

  async findByEmailKey(emailKey: string): Promise<User | null> {
    const d = await this.col.findOne({ email_key: emailKey });
    return d ? toUser(d) : null;
  }

  async list(accountId: string | null, page: PageQuery): Promise<Page<User>> {
    const { items, nextPageToken } = await keysetPage(this.col, page, { filter: { account_id: accountId }, order: { date: 'created_at' } });
    return { items: items.map(toUser), nextPageToken };
  }

  async update(id: string, patch: Partial<Pick<User, 'name' | 'role' | 'passwordHash'>>): Promise<User | null> {
    const set = {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.role !== undefined ? { role: patch.role } : {}),
      ...(patch.passwordHash !== undefined ? { password_hash: patch.passwordHash } : {}),
    };
    if (Object.keys(set).length === 0) return this.findById(id);
    const d = await this.col.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' });
    return d ? toUser(d) : null;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.col.deleteOne({ _id: id })).deletedCount === 1;
  }

  async anyOperator(): Promise<boolean> {
    return (await this.col.findOne({ account_id: null, role: 'operator' }, { projection: { _id: 1 } })) !== null;
  }
}
